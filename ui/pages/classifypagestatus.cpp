#include "ui/pages/classifypagestatus.h"

#include "core/infer/runstate.h"

#include <QFileInfo>

namespace lbd::ui {

void ClassifyPageStatus::setRun(const QString& runDirectory)
{
    if (runDirectory != m_directory) {
        m_reason.clear();
        m_hasOodFit = false;
        m_oodSummary.clear();
    }
    m_directory = runDirectory;
    const lbd::RunSummary summary = lbd::readRunSummary(runDirectory.toStdString());
    m_state = QString::fromStdString(lbd::runStateText(summary));
    m_finished = summary.state == "finished";
}

void ClassifyPageStatus::setOod(bool hasFit, const QString& summary)
{
    m_hasOodFit = hasFit;
    m_oodSummary = summary;
}

QString ClassifyPageStatus::runHtml() const
{
    // An unfinished model is said in the same breath as the run's name: its answers are those of
    // a model stopped part-way.
    const QString name = QFileInfo(m_directory).fileName().toHtmlEscaped();
    // The state carries its own brackets ("finished (150 epochs)"): after a comma, not inside more.
    return m_finished ? tr("Run <b>%1</b>, %2").arg(name, m_state.toHtmlEscaped())
                      : tr("Run <b>%1</b>, <b style='color:#b00020'>%2: not a finished model</b>").arg(name, m_state.toHtmlEscaped());
}

QString ClassifyPageStatus::reasonHtml() const
{
    return m_reason.isEmpty() ? QString() : tr("<br>Chosen as %1.").arg(m_reason.toHtmlEscaped());
}

QString ClassifyPageStatus::loadingHtml() const { return tr("%1: loading...").arg(runHtml()) + reasonHtml(); }

QString ClassifyPageStatus::failedHtml(const QString& error) const
{
    return tr("%1 <b style='color:#b00020'>could not be loaded: %2</b>").arg(runHtml(), error.toHtmlEscaped()) + reasonHtml();
}

QString ClassifyPageStatus::loadedHtml(const Decisions& d) const
{
    QString text = tr("%1: M = %2 particles, %3 classes; deciding with %4 and the %5%6.")
                       .arg(runHtml())
                       .arg(d.particles)
                       .arg(d.classes)
                       .arg(d.matrix, d.ruleTitle, d.defer ? tr(", deferring below r = %1").arg(*d.defer) : QString());
    if (d.temperature) {
        text += tr(" Probabilities calibrated: softmax(log pbar / T), T = %1 (fitted on validation).").arg(*d.temperature, 0, 'f', 2);
    }
    text += d.matrixRemark;
    if (d.running > 0) {
        text += tr(" Classifying %n image(s)...", nullptr, d.running);
    }
    if (!d.notes.isEmpty()) {
        text += tr("<br><span style='color:#7a4a00'><b>Note:</b> %1</span>").arg(d.notes.join(QStringLiteral(" ")).toHtmlEscaped());
    }
    text += m_hasOodFit ? tr("<br>Unfamiliar images: %1.").arg(m_oodSummary.toHtmlEscaped())
                        : tr("<br><span style='color:#7a4a00'><b>Unfamiliar images are not flagged:</b> %1.</span>")
                              .arg(m_oodSummary.toHtmlEscaped());
    return text + reasonHtml();
}

} // namespace lbd::ui
