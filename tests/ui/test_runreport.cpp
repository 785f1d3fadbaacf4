// One report per run: a tiny run trained here, its report written by writeRunReport and by the
// Run menu's action. The Markdown carries the run's real numbers (report.json's accuracy overall
// and by region with correct / total, ECE), the plots are PNG files next to it, the PDF twin is a
// PDF, and no temporary file is left behind.
#include "tests/ui/uitestsupport.h"

#include "core/train/trainer.h"
#include "core/util/jsonfile.h"
#include "ui/app/mainwindow.h"
#include "ui/report/runreport.h"

#include <QAction>
#include <QFile>
#include <QImage>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace lbd::ui;

class TestRunReport final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_run;

    QString read(const QString& path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

    static QString percent(double fraction) { return QStringLiteral("%1 %").arg(100.0 * fraction, 0, 'f', 2); }

private slots:
    void initTestCase()
    {
        test::isolateSettings(m_dir);
        m_run = m_dir.filePath(QStringLiteral("runs/tiny"));
        lbd::Trainer trainer(test::tinyConfig(2), m_run.toStdString(), false);
        QCOMPARE(trainer.run({}, nullptr).epochsCompleted, 2);
    }

    void theReportCarriesTheRunsNumbersAndPlots()
    {
        const QString out = m_dir.filePath(QStringLiteral("report-out"));
        ReportFiles files;
        QString error;
        QVERIFY2(writeRunReport(m_run, out, &files, &error), qPrintable(error));

        const nlohmann::json report = lbd::readJsonFile(QDir(m_run).filePath(QStringLiteral("report.json")).toStdString());
        const nlohmann::json& evaluation = report.at("evaluation");
        const QString markdown = read(files.markdown);
        QVERIFY(markdown.startsWith(QStringLiteral("# Run report: tiny")));
        // Overall accuracy with its counts, as report.json has them.
        const nlohmann::json& overall = evaluation.at("accuracy");
        const QString overallRow = QStringLiteral("| all | %1 | %2 / %3 |")
                                       .arg(percent(overall.at("accuracy").get<double>()))
                                       .arg(overall.at("correct").get<int>())
                                       .arg(overall.at("total").get<int>());
        QVERIFY2(markdown.contains(overallRow), qPrintable(overallRow + QStringLiteral("\n") + markdown));
        for (const nlohmann::json& region : evaluation.at("regions").at("thirds")) {
            const QString row = QStringLiteral("| %1 (thirds by class index) | %2 | %3 / %4 |")
                                    .arg(QString::fromStdString(region.at("region").get<std::string>()))
                                    .arg(region.at("accuracy").is_number() ? percent(region.at("accuracy").get<double>()) : QStringLiteral("–"))
                                    .arg(region.at("correct").get<int>())
                                    .arg(region.at("total").get<int>());
            QVERIFY2(markdown.contains(row), qPrintable(row));
        }
        const QString ece = QStringLiteral("| ECE (15 bins) | %1 |").arg(evaluation.at("calibration").at("ece").get<double>(), 0, 'f', 4);
        QVERIFY2(markdown.contains(ece), qPrintable(ece));
        QVERIFY(markdown.contains(QStringLiteral("| model.particles | 2 |"))); // the config table
        // The plots: PNG files next to the Markdown, which shows them.
        QCOMPARE(files.images.size(), 3);
        for (const QString& image : files.images) {
            const QImage png(image);
            QVERIFY2(!png.isNull() && png.width() >= 1000, qPrintable(image));
            QVERIFY(markdown.contains(QStringLiteral("](%1)").arg(QFileInfo(image).fileName())));
        }
        if (const QString keep = qEnvironmentVariable("LBD_TEST_SCREENSHOTS"); !keep.isEmpty()) { // to look at
            QDir().mkpath(keep);
            const QStringList written = QStringList(files.images) << files.markdown << files.pdf;
            for (const QString& file : written) {
                QFile::remove(QDir(keep).filePath(QFileInfo(file).fileName()));
                QFile::copy(file, QDir(keep).filePath(QFileInfo(file).fileName()));
            }
        }
        // The PDF twin.
        QFile pdf(files.pdf);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == QByteArray("%PDF-"));
        QVERIFY(pdf.size() > 20000); // the plots are in it
        // Atomic writes leave nothing else behind.
        QCOMPARE(QDir(out).entryList(QDir::Files, QDir::Name),
                 (QStringList{QStringLiteral("accuracy.png"), QStringLiteral("fhr.png"), QStringLiteral("objective.png"),
                              QStringLiteral("report.md"), QStringLiteral("report.pdf")}));
    }

    void aRunWithoutAReportIsRefused()
    {
        const QString empty = m_dir.filePath(QStringLiteral("runs/empty"));
        QDir().mkpath(empty);
        ReportFiles files;
        QString error;
        QVERIFY(!writeRunReport(empty, m_dir.filePath(QStringLiteral("none")), &files, &error));
        QVERIFY2(error.contains(QStringLiteral("report.json")) || error.contains(QStringLiteral("config.json")), qPrintable(error));
        QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("none/report.md"))));
    }

    void theRunMenuWritesTheShownRunsReport()
    {
        MainWindow window;
        auto* action = window.findChild<QAction*>(QStringLiteral("runReportAction"));
        QVERIFY(action);
        QVERIFY(window.openRun(m_run));
        action->trigger();
        const QString folder = defaultReportDirectory(m_run);
        QVERIFY(QFileInfo(QDir(folder).filePath(QStringLiteral("report.md"))).size() > 0);
        QVERIFY(read(QDir(folder).filePath(QStringLiteral("report.pdf"))).startsWith(QStringLiteral("%PDF")));
    }
};

QTEST_MAIN(TestRunReport)
#include "test_runreport.moc"
