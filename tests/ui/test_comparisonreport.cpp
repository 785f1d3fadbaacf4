// The report of a run comparison: two hand-written run folders (different M, known accuracy, ECE
// and mean utility in report.json, two evaluations in metrics.jsonl) compared on the Runs page,
// the report written by its Write report button's function. The Markdown carries each run's
// numbers with the better one in bold, the config rows of the settings that differ, the runs'
// folders and the figure, which is a PNG next to it drawn light for print; the PDF twin is a
// non-empty PDF with the figure in it. With nothing compared, nothing is written.
#include "tests/ui/uitestsupport.h"

#include "core/eval/reportjson.h"
#include "core/train/epochmetricsjson.h"
#include "ui/pages/runspage.h"
#include "ui/report/comparisonreport.h"
#include "ui/runs/runcomparisonview.h"

#include <QImage>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace lbd::ui;
using nlohmann::json;

namespace {

struct Figures {
    double accuracy;
    double ece;
    double meanUtility;
};

// A finished two-epoch run whose report.json has `figures` and whose metrics.jsonl has two evaluations.
void writeRun(const QString& dir, const std::string& name, int seed, int particles, const Figures& figures)
{
    test::writeRunDescription(dir, name, seed, particles);
    lbd::EvaluationReport report;
    report.classCount = 4;
    report.overall = {static_cast<int64_t>(std::lround(figures.accuracy * 48)), 48, figures.accuracy};
    report.calibration.ece = figures.ece;
    report.meanUtility = figures.meanUtility;
    test::writeText(dir + "/report.json", json{{"evaluation", lbd::reportToJson(report)}}.dump());
    std::string lines;
    for (int e = 1; e <= 2; ++e) {
        lbd::EpochMetrics metrics;
        metrics.epoch = e;
        metrics.epochs = 2;
        metrics.objective.total = 1.5 / e;
        metrics.evaluation = report;
        lines += lbd::toJson(metrics).dump() + "\n";
    }
    test::writeText(dir + "/metrics.jsonl", lines);
}

QString read(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

class TestComparisonReport final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_alpha;
    QString m_beta;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateSettings(m_dir);
        m_alpha = m_dir.filePath(QStringLiteral("runs/alpha"));
        m_beta = m_dir.filePath(QStringLiteral("runs/beta"));
        writeRun(m_alpha, "alpha", 0, 2, {0.8125, 0.1234, 0.5521});
        writeRun(m_beta, "beta", 1, 3, {0.6875, 0.0567, 0.6042});
    }

    void theReportHasBothRunsTablesAndFigure()
    {
        RunsPage page;
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto* button = page.findChild<QPushButton*>(QStringLiteral("writeComparisonReportButton"));
        QVERIFY(button);
        QVERIFY(!button->isEnabled()); // nothing compared yet
        QSignalSpy ready(&page, &RunsPage::comparisonReady);
        QVERIFY(page.compare({m_alpha, m_beta}));
        QTRY_COMPARE(ready.size(), 1);
        QVERIFY(button->isEnabled());

        const QString markdownPath = m_dir.filePath(QStringLiteral("out/comparison.md"));
        QVERIFY2(page.writeComparisonReport(markdownPath), qPrintable(page.lastMessage()));
        const QString markdown = read(markdownPath);
        QVERIFY(markdown.startsWith(QStringLiteral("# Run comparison: 2 runs")));
        // Each run's figures, side by side in the order compared; the better value in bold.
        for (const QString& row : {QStringLiteral("| Metric | alpha | beta |"),
                                   QStringLiteral("| Accuracy | **81.25 %** | 68.75 % |"),
                                   QStringLiteral("| ECE | 0.1234 | **0.0567** |"),
                                   QStringLiteral("| Mean utility | 0.5521 | **0.6042** |"),
                                   QStringLiteral("| M (particles) | 2 | 3 |"),
                                   // The settings that differ (and not those that do not).
                                   QStringLiteral("| config: model.particles | 2 | 3 |"),
                                   QStringLiteral("| config: train.seed | 0 | 1 |"),
                                   // Where each run is.
                                   QStringLiteral("| alpha | %1 |").arg(m_alpha),
                                   QStringLiteral("| beta | %1 |").arg(m_beta),
                                   QStringLiteral("![comparison-figure.png](comparison-figure.png)")}) {
            QVERIFY2(markdown.contains(row), qPrintable(row + QStringLiteral("\n\n") + markdown));
        }
        QVERIFY(!markdown.contains(QStringLiteral("config: train.epochs")));

        // The figure next to it, at twice the export size, on white for print.
        const QImage figure(m_dir.filePath(QStringLiteral("out/comparison-figure.png")));
        QCOMPARE(figure.width(), 2 * RunComparisonView::kExportWidth);
        QCOMPARE(figure.pixelColor(2, 2), QColor(Qt::white));
        // The PDF twin, with the figure in it.
        QFile pdf(m_dir.filePath(QStringLiteral("out/comparison.pdf")));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QCOMPARE(pdf.read(5), QByteArray("%PDF-"));
        QVERIFY2(pdf.size() > 20000, qPrintable(QString::number(pdf.size())));
        QCOMPARE(QDir(m_dir.filePath(QStringLiteral("out"))).entryList(QDir::Files, QDir::Name),
                 (QStringList{QStringLiteral("comparison-figure.png"), QStringLiteral("comparison.md"),
                              QStringLiteral("comparison.pdf")}));
        if (const QString keep = qEnvironmentVariable("LBD_TEST_SCREENSHOTS"); !keep.isEmpty()) { // to look at
            QDir().mkpath(keep);
            for (const QString& name : QDir(m_dir.filePath(QStringLiteral("out"))).entryList(QDir::Files)) {
                QFile::remove(QDir(keep).filePath(name));
                QFile::copy(m_dir.filePath(QStringLiteral("out/") + name), QDir(keep).filePath(name));
            }
        }
    }

    void nothingComparedWritesNothing()
    {
        RunComparisonView view;
        ReportFiles files;
        QString error;
        QVERIFY(!writeComparisonReport(view, m_dir.filePath(QStringLiteral("none/comparison.md")), &files, &error));
        QVERIFY2(error.contains(QStringLiteral("compare")), qPrintable(error));
        QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("none"))));
    }
};

QTEST_MAIN(TestComparisonReport)
#include "test_comparisonreport.moc"
