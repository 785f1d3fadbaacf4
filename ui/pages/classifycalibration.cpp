#include "ui/pages/classifycalibration.h"

#include "core/eval/temperature.h"
#include "core/infer/calibratedprediction.h"

#include <QDir>

#include <exception>

namespace lbd::ui {

ClassifyCalibration::ClassifyCalibration(QWidget* parent) : QCheckBox(tr("Calibrated"), parent)
{
    setObjectName(QStringLiteral("classifyCalibrated"));
    refresh();
}

void ClassifyCalibration::setRun(const QString& runDirectory)
{
    m_directory = runDirectory;
    m_temperature.reset();
    m_fileError.clear();
    if (!runDirectory.isEmpty()) {
        try {
            if (const auto fit = lbd::loadTemperature(runDirectory.toStdString())) {
                m_temperature = fit->temperature;
            }
        } catch (const std::exception& error) {
            m_fileError = QString::fromUtf8(error.what());
        }
    }
    refresh();
}

void ClassifyCalibration::setRule(lbd::DecisionRule rule)
{
    m_rule = rule;
    refresh();
}

std::optional<double> ClassifyCalibration::temperature() const
{
    return isChecked() && isEnabled() ? m_temperature : std::nullopt;
}

void ClassifyCalibration::refresh()
{
    const QString definition = tr("Decide with calibrated probabilities: pbar = softmax(log pbar / T), one T fitted by NLL "
                                  "on the run's validation split (never on the test set or on these images) and kept in "
                                  "the run folder (temperature.json). The decision, its confidence and defer use them; "
                                  "argmax stays the same.");
    const bool ruleFits = lbd::ruleTakesCalibration(m_rule);
    setEnabled(m_temperature.has_value() && ruleFits);
    setText(m_temperature ? tr("Calibrated (T = %1)").arg(*m_temperature, 0, 'f', 2) : tr("Calibrated"));
    const QString run = QDir::toNativeSeparators(m_directory);
    if (m_directory.isEmpty()) {
        setToolTip(definition);
    } else if (!m_fileError.isEmpty()) {
        setToolTip(tr("The run's temperature file cannot be read: %1").arg(m_fileError));
    } else if (!m_temperature) {
        setToolTip(tr("%1\n\nThis run has no temperature.json yet. Fit T on its validation split with\n"
                      "    lbd eval \"%2\" --calibrate\nor the Decision lab's Calibrated box (the run needs a validation "
                      "split: train with --val-fraction).")
                       .arg(definition, run));
    } else if (!ruleFits) {
        setToolTip(tr("%1\n\nExpected and argmax rules only: the %2 rule decides from each particle, which one T on pbar "
                      "does not describe.")
                       .arg(definition, QString::fromStdString(lbd::decisionRuleName(m_rule))));
    } else {
        setToolTip(definition);
    }
}

} // namespace lbd::ui
