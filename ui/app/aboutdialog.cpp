#include "ui/app/aboutdialog.h"

#include "core/util/buildinfo.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QVBoxLayout>
#include <QtGlobal>

namespace lbd::ui {

QString AboutDialog::versionText()
{
    const lbd::BuildInfo info = lbd::buildInfo();
    QStringList lines;
    lines << QStringLiteral("lbd-studio %1").arg(QString::fromStdString(info.lbdVersion));
    lines << QStringLiteral("Qt %1 (built with %2)").arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR));
    lines << QStringLiteral("LibTorch %1").arg(QString::fromStdString(info.torchVersion));
    lines << QStringLiteral("OpenCV %1").arg(QString::fromStdString(info.openCvVersion));
    if (info.cudaDevices.empty()) {
        lines << QStringLiteral("CUDA: %1").arg(info.cudaAvailable ? QStringLiteral("available, no device")
                                                                   : QStringLiteral("no CUDA device"));
    }
    for (const std::string& device : info.cudaDevices) {
        lines << QStringLiteral("CUDA device %1").arg(QString::fromStdString(device));
    }
    return lines.join(QLatin1Char('\n'));
}

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("About LBD Studio"));
    auto* text = new QLabel(this);
    text->setObjectName(QStringLiteral("aboutText"));
    text->setTextFormat(Qt::RichText);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    text->setWordWrap(true);
    QString versions = versionText().toHtmlEscaped();
    versions.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    text->setText(tr("<h2>LBD Studio</h2>"
                     "<p>Long-tailed Bayesian Decision: particle-ensemble training for long-tailed image "
                     "classification, with decisions shaped by a utility matrix.</p><p>%1</p>"
                     "<p>Licence: GPL-3.0-or-later. Uses Qt, Qt Charts and QCustomPlot (GPL-3), LibTorch (BSD) "
                     "and OpenCV (Apache-2.0).</p>")
                      .arg(versions));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text);
    layout->addWidget(buttons);
    setMinimumWidth(460);
}

} // namespace lbd::ui
