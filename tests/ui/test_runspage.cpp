// The Runs page on real run folders: two tiny synthetic runs trained by the engine and a damaged
// folder. The page lists every run with the accuracy of its report.json, shows the damaged one
// with its problem, compares two runs (one graph per run and panel, with the right number of
// points), writes PNG / PDF / CSV files with the runs' numbers, exports a model that core reads
// back, and opens a run in the main window. A run decided by eq7 with tail:2 (its report flagged
// degenerate) is marked with its warnings and never bold as the best in the comparison; the best
// epoch is chosen by validation accuracy when the run has a validation split; empty regions
// read "–".
#include "tests/ui/uitestsupport.h"

#include "core/infer/runexport.h"
#include "core/train/runfolder.h"
#include "core/train/trainer.h"
#include "core/util/error.h"
#include "ui/app/mainwindow.h"
#include "ui/pages/runspage.h"
#include "ui/pages/trainingpage.h"
#include "ui/runs/runcomparisonview.h"
#include "ui/runs/runtablemodel.h"
#include "ui/widgets/throttledplot.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTableWidget>
#include <QTabWidget>

#include <fstream>

using namespace lbd::ui;

namespace {

QByteArray fileHead(const QString& path, int bytes)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(bytes) : QByteArray();
}

double reportAccuracy(const QString& runDirectory)
{
    const lbd::RunFolder folder(runDirectory.toStdString());
    return folder.readJson(lbd::RunFolder::kReport).at("evaluation").at("accuracy").at("accuracy").get<double>();
}

// RFC 4180 records (quoted fields with commas, doubled quotes, CRLF line ends).
QList<QStringList> parseCsv(const QString& text)
{
    QList<QStringList> records;
    QStringList record;
    QString field;
    bool quoted = false;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            record << field;
            field.clear();
        } else if (c == QLatin1Char('\n')) {
            record << field;
            records << record;
            record.clear();
            field.clear();
        } else if (c != QLatin1Char('\r')) {
            field += c;
        }
    }
    return records;
}

} // namespace

class TestRunsPage : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        test::isolateSettings(m_dir);
        m_runsRoot = AppSettings::runsFolder();
        QVERIFY(QDir().mkpath(m_runsRoot));

        // Two real runs: "alpha" 2 epochs evaluated every epoch; "beta, tail" 3 epochs evaluated
        // at epochs 2 and 3 (a comma in the name to exercise CSV quoting).
        lbd::TrainConfig alpha = test::tinyConfig(2);
        alpha.name = "alpha";
        m_alpha = train(alpha);
        lbd::TrainConfig beta = test::tinyConfig(3);
        beta.name = "beta, tail";
        beta.train.evalEvery = 2;
        beta.decision.utility = lbd::utilityFromSpec("onehot");
        m_beta = train(beta);
        QVERIFY(!m_alpha.isEmpty() && !m_beta.isEmpty());

        // A damaged copy of alpha: run.json is not JSON and metrics.jsonl has a broken line.
        m_broken = QDir(m_runsRoot).filePath(QStringLiteral("broken-run"));
        QVERIFY(QDir().mkpath(m_broken));
        for (const char* file : {"config.json", "status.json", "report.json"}) {
            QVERIFY(QFile::copy(QDir(m_alpha).filePath(QString::fromLatin1(file)), QDir(m_broken).filePath(QString::fromLatin1(file))));
        }
        writeText(QDir(m_broken).filePath(QStringLiteral("run.json")), "{\"class_names\": [\"a\", ");
        writeText(QDir(m_broken).filePath(QStringLiteral("metrics.jsonl")), "{\"epoch\": 1,\n");
        // A folder that is not a run is not listed.
        QVERIFY(QDir().mkpath(QDir(m_runsRoot).filePath(QStringLiteral("notes"))));
        writeText(QDir(m_runsRoot).filePath(QStringLiteral("notes/readme.txt")), "not a run");
    }

    void listsEveryRunWithItsReportAccuracy()
    {
        RunsPage page;
        QVERIFY(refreshed(page));
        QCOMPARE(page.runCount(), 3);
        QCOMPARE(page.table()->model()->rowCount(), 3);
        for (const QString& run : {m_alpha, m_beta}) {
            const int row = page.rowOf(run);
            QVERIFY2(row >= 0, qPrintable(run));
            const lbd::RunSummary& summary = page.runs()[static_cast<size_t>(row)];
            QCOMPARE(summary.state, std::string("finished"));
            QVERIFY(!summary.damaged());
            QVERIFY(summary.accuracy.has_value());
            QCOMPARE(*summary.accuracy, reportAccuracy(run));
            QVERIFY(summary.tailAccuracy && summary.headAccuracy && summary.fhrPointsMean && summary.ece);
            QCOMPARE(summary.particles, 2);
            QCOMPARE(summary.classCount, 4);
            QVERIFY(summary.hasCheckpoint);
            // The table shows it in percent.
            const QString shown =
                page.table()->model()->data(page.table()->model()->index(proxyRow(page, run), RunTableModel::Accuracy)).toString();
            QCOMPARE(shown, QStringLiteral("%1 %").arg(100.0 * reportAccuracy(run), 0, 'f', 2));
        }
        QCOMPARE(page.runs()[static_cast<size_t>(page.rowOf(m_alpha))].epochsDone, 2);
        QCOMPARE(page.runs()[static_cast<size_t>(page.rowOf(m_beta))].epochs, 3);
        QCOMPARE(page.runs()[static_cast<size_t>(page.rowOf(m_beta))].name, std::string("beta, tail"));

        // Sorting by accuracy orders the rows by the numbers, not by their text.
        page.table()->sortByColumn(RunTableModel::Accuracy, Qt::AscendingOrder);
        QAbstractItemModel* view = page.table()->model();
        for (int row = 1; row < view->rowCount(); ++row) {
            QVERIFY(view->data(view->index(row - 1, RunTableModel::Accuracy), RunTableModel::SortRole).toDouble()
                    <= view->data(view->index(row, RunTableModel::Accuracy), RunTableModel::SortRole).toDouble());
        }
    }

    void damagedFolderIsListedWithItsProblem()
    {
        RunsPage page;
        QVERIFY(refreshed(page));
        const int row = page.rowOf(m_broken);
        QVERIFY(row >= 0);
        const lbd::RunSummary& broken = page.runs()[static_cast<size_t>(row)];
        QVERIFY(broken.damaged());
        QVERIFY(!broken.hasCheckpoint);
        QAbstractItemModel* view = page.table()->model();
        const int shownRow = proxyRow(page, m_broken);
        QVERIFY(view->data(view->index(shownRow, RunTableModel::Status)).toString().startsWith(QStringLiteral("damaged")));
        const QString problem = view->data(view->index(shownRow, RunTableModel::Problems)).toString();
        QVERIFY2(problem.startsWith(QStringLiteral("run.json: not valid JSON")), qPrintable(problem));
        QVERIFY(page.lastMessage().contains(QStringLiteral("1 damaged")));

        // Model export is refused for it (no checkpoint), inline, without a crash.
        page.selectRuns({m_broken});
        QVERIFY(!page.findChild<QPushButton*>(QStringLiteral("exportModelButton"))->isEnabled());
        QSignalSpy failed(&page, &RunsPage::modelExportFailed);
        page.exportModel(m_broken, QDir(m_dir.path()).filePath(QStringLiteral("broken.pt")));
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("checkpoint.pt")),
                 qPrintable(failed.first().first().toString()));
        QVERIFY(page.lastMessage().startsWith(QStringLiteral("The model was not exported")));

        // Compared with a good run, it gets an (empty) graph and the reason.
        QSignalSpy ready(&page, &RunsPage::comparisonReady);
        QVERIFY(page.compare({m_alpha, m_broken}));
        QTRY_COMPARE(ready.size(), 1);
        QCOMPARE(page.comparison()->accuracyRect()->graphs().size(), 2);
        QCOMPARE(page.comparison()->lossRect()->graphs().at(1)->dataCount(), 0);
        QVERIFY(page.lastMessage().contains(QStringLiteral("metrics.jsonl")));
    }

    void compareOverlaysOneGraphPerRun()
    {
        RunsPage page;
        page.show();
        QVERIFY(refreshed(page));
        page.selectRuns({m_alpha, m_beta});
        auto* compare = page.findChild<QPushButton*>(QStringLiteral("compareRunsButton"));
        QVERIFY(compare->isEnabled());
        QSignalSpy ready(&page, &RunsPage::comparisonReady);
        QTest::mouseClick(compare, Qt::LeftButton);
        QTRY_COMPARE(ready.size(), 1);

        RunComparisonView* comparison = page.comparison();
        QCOMPARE(static_cast<int>(comparison->runs().size()), 2);
        const QString names[2] = {QStringLiteral("alpha"), QStringLiteral("beta, tail")};
        // alpha: evaluations at epochs 1, 2; beta: at 2, 3; training objective at every epoch.
        const int evaluations[2] = {2, 2};
        const int epochs[2] = {2, 3};
        const QString dirs[2] = {m_alpha, m_beta};
        QCOMPARE(comparison->accuracyRect()->graphs().size(), 2);
        QCOMPARE(comparison->tailRect()->graphs().size(), 2);
        QCOMPARE(comparison->lossRect()->graphs().size(), 2);
        for (int i = 0; i < 2; ++i) {
            QCPGraph* accuracy = comparison->accuracyRect()->graphs().at(i);
            QCOMPARE(accuracy->name(), names[i]);
            QCOMPARE(accuracy->dataCount(), evaluations[i]);
            QCOMPARE(comparison->tailRect()->graphs().at(i)->dataCount(), evaluations[i]);
            QCOMPARE(comparison->lossRect()->graphs().at(i)->dataCount(), epochs[i]);
            // The last evaluation is the final report.
            const auto last = accuracy->data()->at(accuracy->dataCount() - 1);
            QCOMPARE(last->key, double(epochs[i]));
            QVERIFY(qAbs(last->value - 100.0 * reportAccuracy(dirs[i])) < 1e-9);
        }
        QCOMPARE(comparison->accuracyRect()->graphs().at(1)->data()->at(0)->key, 2.0);
        // One legend entry per run, axes labelled.
        QCOMPARE(comparison->plot()->legend->itemCount(), 2);
        QVERIFY(comparison->accuracyRect()->axis(QCPAxis::atLeft)->label().contains(QStringLiteral("%")));
        QVERIFY(!comparison->lossRect()->axis(QCPAxis::atBottom)->label().isEmpty());
        // The table has the runs side by side.
        QCOMPARE(comparison->table()->columnCount(), 2);
        QCOMPARE(comparison->table()->horizontalHeaderItem(1)->text(), names[1]);

        // Report files.
        const QString png = QDir(m_dir.path()).filePath(QStringLiteral("comparison.png"));
        const QString pdf = QDir(m_dir.path()).filePath(QStringLiteral("comparison.pdf"));
        QVERIFY2(page.savePlotsPng(png), qPrintable(page.lastMessage()));
        QVERIFY2(page.savePlotsPdf(pdf), qPrintable(page.lastMessage()));
        QVERIFY(QFileInfo(png).size() > 1000);
        QVERIFY(QFileInfo(pdf).size() > 1000);
        QCOMPARE(fileHead(png, 8), QByteArray("\x89PNG\r\n\x1a\n"));
        QCOMPARE(fileHead(pdf, 5), QByteArray("%PDF-"));
        QImage image(png);
        QCOMPARE(image.width(), RunComparisonView::kExportWidth);

        // A single run is not a comparison.
        QVERIFY(!page.compare({m_alpha}));
        QVERIFY(page.lastMessage().contains(QStringLiteral("two or more")));
    }

    void aFlaggedRunIsNeverTheBest()
    {
        // gamma: decided by eq7 with tail:2, which its report flags (the registry's eq7 warning);
        // trained with a validation split, so its best epoch is chosen on validation. Kept out of
        // the runs folder so the other tests' counts stay.
        lbd::TrainConfig gamma = test::tinyConfig(2);
        gamma.name = "gamma";
        gamma.decision.utility = lbd::utilityFromSpec("tail:2");
        gamma.decision.rule = lbd::DecisionRule::Eq7;
        gamma.data.longTail.validationFraction = 0.2; // 87 images left to train: no batch of one
        const QString gammaDir = QDir(m_dir.path()).filePath(QStringLiteral("other-runs/gamma"));
        {
            lbd::Trainer trainer(gamma, gammaDir.toStdString());
            QCOMPARE(trainer.run({}).epochsCompleted, 2);
        }
        const lbd::RunSummary flagged = lbd::readRunSummary(gammaDir.toStdString());
        QVERIFY(!flagged.warnings.empty());

        // The table marks it, with the warnings as the tooltip, and records both utilities.
        RunTableModel model;
        const lbd::RunSummary clean = lbd::readRunSummary(m_beta.toStdString()); // one-hot decisions
        QVERIFY(clean.warnings.empty());
        model.setRuns({flagged, clean});
        QVERIFY(model.data(model.index(0, RunTableModel::Warnings)).toString().contains(QStringLiteral("\u26a0")));
        QVERIFY(model.data(model.index(1, RunTableModel::Warnings)).toString().isEmpty());
        const QString tip = model.data(model.index(0, RunTableModel::Warnings), Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QString::fromStdString(flagged.warnings.front())), qPrintable(tip));
        QCOMPARE(model.data(model.index(0, RunTableModel::Decision)).toString(), QStringLiteral("tail:2, eq7"));
        // A run that follows a paper protocol says so beside its rule (lbd-math.md section 8).
        lbd::RunSummary paper = clean;
        paper.protocol = "paper-standard";
        paper.decisionRule = "mean-logit";
        QVERIFY(RunTableModel::decisionText(paper).endsWith(QStringLiteral("mean-logit (paper-standard)")));
        QVERIFY(!RunTableModel::decisionText(clean).contains(QStringLiteral("paper")));
        QCOMPARE(model.data(model.index(0, RunTableModel::TrainingUtility)).toString(), QStringLiteral("tail:1 (bounded)"));

        RunsPage page;
        QVERIFY(refreshed(page));
        QSignalSpy ready(&page, &RunsPage::comparisonReady);
        // beta (unflagged), alpha (its tail:1 decisions give up the head class on this tiny run:
        // flagged too) and gamma.
        const bool alphaFlagged = !lbd::readRunSummary(m_alpha.toStdString()).warnings.empty();
        QVERIFY(page.compare({m_beta, m_alpha, gammaDir}));
        QTRY_COMPARE(ready.size(), 1);
        QTableWidget* table = page.comparison()->table();
        QCOMPARE(table->columnCount(), 3);
        QVERIFY(table->horizontalHeaderItem(2)->text().startsWith(QStringLiteral("\u26a0")));
        QVERIFY(table->horizontalHeaderItem(2)->toolTip().contains(QString::fromStdString(flagged.warnings.front())));
        const auto rowNamed = [table](const QString& title) {
            for (int r = 0; r < table->rowCount(); ++r) {
                if (table->verticalHeaderItem(r)->text() == title) {
                    return r;
                }
            }
            return -1;
        };
        const auto bold = [table](int row, int column) { return table->item(row, column)->font().bold(); };
        for (int r = 0; r < table->rowCount(); ++r) {
            QVERIFY2(!bold(r, 2), qPrintable(table->verticalHeaderItem(r)->text()));
            QVERIFY2(!alphaFlagged || !bold(r, 1), qPrintable(table->verticalHeaderItem(r)->text()));
        }
        // On these tiny runs the flagged one happens to be best at nothing, so also compare two
        // runs whose numbers are set: the flagged one (like a collapsed rule's 0 % FHR) is better
        // on every ranked row and bold on none; the clean one is bold.
        ComparedRun good;
        good.summary.name = "clean";
        good.summary.classCount = 4;
        good.summary.accuracy = 0.80;
        good.summary.tailAccuracy = 0.60;
        good.summary.fhrPointsMean = 0.30;
        ComparedRun collapsed = good;
        collapsed.summary.name = "collapsed";
        collapsed.summary.accuracy = 0.90;
        collapsed.summary.tailAccuracy = 1.0;
        collapsed.summary.fhrPointsMean = 0.0;
        collapsed.summary.warnings = {"decisions piled into a few classes"};
        RunComparisonView view;
        view.setRuns({good, collapsed});
        QTableWidget* set = view.table();
        for (const QString& title : {QStringLiteral("Accuracy"), QStringLiteral("Tail accuracy"), QStringLiteral("FHR 3-point mean")}) {
            int row = -1;
            for (int r = 0; r < set->rowCount(); ++r) {
                row = set->verticalHeaderItem(r)->text() == title ? r : row;
            }
            QVERIFY2(row >= 0, qPrintable(title));
            QVERIFY2(set->item(row, 0)->font().bold(), qPrintable(title));
            QVERIFY2(!set->item(row, 1)->font().bold(), qPrintable(title));
        }
        QVERIFY(rowNamed(QStringLiteral("FHR curve mean")) >= 0);
        QCOMPARE(rowNamed(QStringLiteral("FHR avg")), -1);
        // Best epoch: by validation accuracy for gamma, flagged as test-selected for alpha.
        const int best = rowNamed(QStringLiteral("Best accuracy (epoch)"));
        QVERIFY2(table->item(best, 2)->text().contains(QStringLiteral("by validation")),
                 qPrintable(table->item(best, 2)->text()));
        QVERIFY2(table->item(best, 0)->text().contains(QStringLiteral("test-selected")), qPrintable(table->item(best, 0)->text()));
        test::keepScreenshot(page.comparison(), QStringLiteral("runs-flagged-comparison"));
    }

    void emptyRegionsReadAsADash()
    {
        // Two classes: thirds by index leave head and med without classes. RunSummary gives 0.0
        // for them; the table must not show "0.00 %".
        lbd::RunSummary two;
        two.directory = "/nowhere/two";
        two.classCount = 2;
        two.accuracy = 0.9;
        two.headAccuracy = 0.0;
        two.mediumAccuracy = 0.0;
        two.tailAccuracy = 0.9;
        RunTableModel model;
        model.setRuns({two});
        QCOMPARE(model.data(model.index(0, RunTableModel::HeadAccuracy)).toString(), QStringLiteral("\u2013"));
        QCOMPARE(model.data(model.index(0, RunTableModel::MediumAccuracy)).toString(), QStringLiteral("\u2013"));
        QCOMPARE(model.data(model.index(0, RunTableModel::TailAccuracy)).toString(), QStringLiteral("90.00 %"));
        const QList<QStringList> csv = parseCsv(runsToCsv({two}));
        QCOMPARE(csv[1][csv[0].indexOf(QStringLiteral("head_accuracy"))], QString());
    }

    void csvHoldsBothRunsNumbers()
    {
        RunsPage page;
        QVERIFY(refreshed(page));
        page.selectRuns({m_alpha, m_beta});
        const QString path = QDir(m_dir.path()).filePath(QStringLiteral("runs.csv"));
        QVERIFY2(page.saveMetricsCsv(path), qPrintable(page.lastMessage()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QStringList> records = parseCsv(QString::fromUtf8(file.readAll()));
        QCOMPARE(records.size(), 3); // header + the two selected runs
        const QStringList header = records.first();
        const int nameColumn = static_cast<int>(header.indexOf(QStringLiteral("name")));
        const int accuracyColumn = static_cast<int>(header.indexOf(QStringLiteral("accuracy")));
        const int directoryColumn = static_cast<int>(header.indexOf(QStringLiteral("directory")));
        QVERIFY(nameColumn >= 0 && accuracyColumn >= 0 && directoryColumn >= 0);
        QStringList names;
        for (int i = 1; i < records.size(); ++i) {
            QCOMPARE(records[i].size(), header.size()); // the quoted comma did not split the row
            names << records[i][nameColumn];
            const QString directory = records[i][directoryColumn];
            QVERIFY(qAbs(records[i][accuracyColumn].toDouble() - reportAccuracy(directory)) < 1e-9);
        }
        names.sort();
        QCOMPARE(names, QStringList({QStringLiteral("alpha"), QStringLiteral("beta, tail")}));
        QCOMPARE(csvField(QStringLiteral("say \"hi\", then\nleave")), QStringLiteral("\"say \"\"hi\"\", then\nleave\""));

        // Nothing selected: every listed run.
        page.selectRuns({});
        QVERIFY(page.saveMetricsCsv(path));
        file.close();
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(parseCsv(QString::fromUtf8(file.readAll())).size(), 4);
    }

    void exportedModelReadsBackThroughCore()
    {
        RunsPage page;
        QVERIFY(refreshed(page));
        page.selectRuns({m_alpha});
        QVERIFY(page.findChild<QPushButton*>(QStringLiteral("exportModelButton"))->isEnabled());
        const QString out = QDir(m_dir.path()).filePath(QStringLiteral("alpha-model.pt"));
        QSignalSpy exported(&page, &RunsPage::modelExported);
        QSignalSpy failed(&page, &RunsPage::modelExportFailed);
        page.exportModel(m_alpha, out);
        QVERIFY(page.isExporting());
        QTRY_VERIFY_WITH_TIMEOUT(!exported.isEmpty() || !failed.isEmpty(), 60000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QCOMPARE(exported.first().first().toString(), out);
        QCOMPARE(fileHead(out, 2), QByteArray("PK")); // torch's pickle zip archive
        const lbd::ExportedModel model = lbd::readExportedModel(out.toStdString());
        QCOMPARE(model.arch, std::string("smallcnn"));
        QCOMPARE(model.particles, int64_t(2));
        QCOMPARE(model.classNames.size(), size_t(4));
        QVERIFY(model.tensorCount > 0 && model.parameterCount > 0);
        // The same content as the run's own weights.pt.
        const lbd::ExportedModel own = lbd::readExportedModel(QDir(m_alpha).filePath(QStringLiteral("weights.pt")).toStdString());
        QCOMPARE(model.tensorCount, own.tensorCount);
        QCOMPARE(model.parameterCount, own.parameterCount);
        QVERIFY(page.lastMessage().contains(QStringLiteral("torch.load")));
        // Not an export: a clear error.
        bool refused = false;
        try {
            lbd::readExportedModel(QDir(m_alpha).filePath(QStringLiteral("config.json")).toStdString());
        } catch (const lbd::InputError& error) {
            refused = QString::fromUtf8(error.what()).contains(QStringLiteral("not an exported model"));
        }
        QVERIFY(refused);
    }

    void mainWindowOpensARunFromThePage()
    {
        MainWindow window;
        QStringList errors;
        window.setErrorReporter([&errors](const QString& title, const QString& message) { errors << title + QStringLiteral(": ") + message; });
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        RunsPage* page = window.runsPage();
        QVERIFY(page);
        QCOMPARE(window.pages()->tabText(window.pages()->indexOf(page)), QStringLiteral("Runs"));
        QSignalSpy refreshedSpy(page, &RunsPage::runsRefreshed);
        window.pages()->setCurrentWidget(page); // showing the page lists the runs
        QTRY_VERIFY(!refreshedSpy.isEmpty());
        QCOMPARE(page->runCount(), 3);

        QSignalSpy shown(&window, &MainWindow::runShown);
        page->selectRuns({m_beta});
        QTest::mouseClick(page->findChild<QPushButton*>(QStringLiteral("openRunButton")), Qt::LeftButton);
        QCOMPARE(shown.size(), 1);
        QCOMPARE(shown.first().first().toString(), m_beta);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget*>(window.trainingPage()));
        QTRY_VERIFY(window.trainingPage()->pointCount() > 0); // the recorded epochs were replayed
        // The shown run is bold in the table.
        QAbstractItemModel* view = page->table()->model();
        QTRY_VERIFY(view->data(view->index(proxyRow(*page, m_beta), RunTableModel::Name), Qt::FontRole).value<QFont>().bold());

        // Opening the damaged folder reports an error and crashes nothing.
        page->selectRuns({m_broken});
        QTest::mouseClick(page->findChild<QPushButton*>(QStringLiteral("openRunButton")), Qt::LeftButton);
        QCOMPARE(errors.size(), 1);
        QVERIFY(page->lastMessage().contains(QStringLiteral("was not opened")));
    }

    void aNewRunFolderIsListedWithoutRefresh()
    {
        RunsPage page;
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(refreshed(page));
        QCOMPARE(page.runCount(), 3);
        // A run the main window has just created: an empty folder, listed as "created".
        const QString fresh = QDir(m_runsRoot).filePath(QStringLiteral("fresh-run"));
        QVERIFY(QDir().mkpath(fresh));
        QTRY_COMPARE_WITH_TIMEOUT(page.runCount(), 4, 10000);
        const lbd::RunSummary& summary = page.runs()[static_cast<size_t>(page.rowOf(fresh))];
        QCOMPARE(summary.state, std::string("created"));
        QVERIFY(!summary.damaged());
        QVERIFY(QDir(fresh).removeRecursively());
        QTRY_COMPARE_WITH_TIMEOUT(page.runCount(), 3, 10000);
    }

private:
    static bool refreshed(RunsPage& page)
    {
        QSignalSpy spy(&page, &RunsPage::runsRefreshed);
        page.refresh();
        return spy.wait(30000);
    }

    static int proxyRow(RunsPage& page, const QString& directory)
    {
        QAbstractItemModel* view = page.table()->model();
        for (int row = 0; row < view->rowCount(); ++row) {
            if (view->data(view->index(row, 0), RunTableModel::DirectoryRole).toString() == directory) {
                return row;
            }
        }
        return -1;
    }

    static void writeText(const QString& path, const char* text)
    {
        std::ofstream(path.toStdString()) << text;
    }

    QString train(const lbd::TrainConfig& config)
    {
        const std::string directory = lbd::newRunDirectory(m_runsRoot.toStdString(), config.name);
        try {
            lbd::Trainer trainer(config, directory);
            const lbd::TrainingResult result = trainer.run({});
            if (result.epochsCompleted != config.train.epochs) {
                return {};
            }
        } catch (const std::exception& error) {
            qWarning("training failed: %s", error.what());
            return {};
        }
        return QString::fromStdString(directory);
    }

    QTemporaryDir m_dir;
    QString m_runsRoot;
    QString m_alpha;
    QString m_beta;
    QString m_broken;
};

QTEST_MAIN(TestRunsPage)
#include "test_runspage.moc"
