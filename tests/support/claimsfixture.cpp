#include "claimsfixture.h"

#include "core/study/studyfolder.h"
#include "core/study/studyspec.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

namespace lbd::test {
namespace {

QString extract(const QString& archive, const QStringList& members, const QString& into)
{
    QProcess tar;
    tar.start(QStringLiteral("tar"), QStringList{QStringLiteral("-xJf"), archive, QStringLiteral("-C"), into} + members);
    if (!tar.waitForFinished(120000) || tar.exitStatus() != QProcess::NormalExit || tar.exitCode() != 0) {
        return QStringLiteral("tar -xJf %1: %2").arg(archive, QString::fromLocal8Bit(tar.readAllStandardError()));
    }
    return {};
}

} // namespace

QString makeMethodsClaimsStudy(const QString& studyDirectory, const QString& sourceDirectory, const lbd::StudyOptions& options)
{
    const QString archives = sourceDirectory + QStringLiteral("/docs/results/paper-studies/");
    QTemporaryDir unpacked;
    if (!unpacked.isValid()) {
        return QStringLiteral("no temporary folder");
    }
    QString error = extract(archives + QStringLiteral("runs-2026-11-28-h200x4.tar.xz"), {QStringLiteral("./union-a/runs/lbd")}, unpacked.path());
    if (error.isEmpty()) {
        error = extract(archives + QStringLiteral("runs-2026-11-28-h200x2.tar.xz"),
                        {QStringLiteral("./claims-probe/runs/ce"), QStringLiteral("./claims-probe/runs/ce-post-hoc-logit-adjustment")},
                        unpacked.path());
    }
    if (!error.isEmpty()) {
        return error;
    }
    try {
        prepareStudyFolder(resolveStudy(findStudySpec("methods"), options), studyDirectory.toStdString());
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    const QList<QPair<QString, QString>> cells{{QStringLiteral("union-a/runs/lbd"), QStringLiteral("lbd")},
                                               {QStringLiteral("claims-probe/runs/ce"), QStringLiteral("ce")},
                                               {QStringLiteral("claims-probe/runs/ce-post-hoc-logit-adjustment"),
                                                QStringLiteral("ce-post-hoc-logit-adjustment")}};
    for (const auto& [from, cell] : cells) {
        for (int seed = 0; seed < 3; ++seed) {
            const QString source = unpacked.filePath(QStringLiteral("%1/seed-%2").arg(from).arg(seed));
            const QString target = QStringLiteral("%1/runs/%2/seed-%3").arg(studyDirectory, cell).arg(seed);
            if (!QDir().mkpath(target)) {
                return QStringLiteral("cannot make ") + target;
            }
            for (const QString file : {QStringLiteral("status.json"), QStringLiteral("report.json")}) {
                if (!QFile::copy(source + QLatin1Char('/') + file, target + QLatin1Char('/') + file)) {
                    return QStringLiteral("cannot copy %1/%2").arg(source, file);
                }
            }
        }
    }
    return {};
}

} // namespace lbd::test
