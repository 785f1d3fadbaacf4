#include "ui/training/lbdexecutable.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace lbd::ui {

QString lbdExecutable()
{
    const QString chosen = qEnvironmentVariable("LBD_EXECUTABLE");
    if (!chosen.isEmpty()) {
        return QFileInfo(chosen).isExecutable() ? QFileInfo(chosen).absoluteFilePath() : QString();
    }
    const QFileInfo beside(QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("lbd")));
    if (beside.isFile() && beside.isExecutable()) {
        return beside.absoluteFilePath();
    }
    return QStandardPaths::findExecutable(QStringLiteral("lbd"));
}

} // namespace lbd::ui
