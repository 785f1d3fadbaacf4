// The Studies page running tiny CPU studies through the real event loop: a study of two working
// cells and one that cannot load its data, two seeds each, fills the live grid, ends with the
// working runs finished and the broken ones failed, shows n = 2/2 for the working cells with the
// failure listed under the table, draws one bar per working cell at the mean results/summary.json
// holds, and saves the table (core's Markdown / CSV / LaTeX) and the plots. Double-clicking a
// finished run asks to open it; a failed one does not. Stop during a 40-epoch study leaves every
// run stopped; Continue finishes them. An opened study folder becomes the setup panel's choice
// (its header, scale, seeds and folder), for a built-in study and for one of the user's own.
#include "tests/ui/uitestsupport.h"

#include "core/study/studysummary.h"
#include "core/train/configjson.h"
#include "tests/support/tinyconfig.h"
#include "ui/pages/studiespage.h"
#include "ui/panels/datasetcatalog.h"
#include "ui/panels/durationestimate.h"
#include "ui/study/studyplots.h"
#include "ui/study/studyrunmodel.h"
#include "ui/study/studysetuppanel.h"
#include "ui/study/studysummarymodel.h"

#include <nlohmann/json.hpp>
#include <qcustomplot.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

#include <fstream>
#include <numeric>
#include <utility>

using namespace lbd::ui;

namespace {

// The core tests' tiny config (tests/support/tinyconfig.h) on one thread: a run trains in about a second.
QJsonObject tinyConfigJson()
{
    lbd::TrainConfig config = lbd::test::tinyConfig();
    config.train.threads = 1;
    return QJsonDocument::fromJson(QByteArray::fromStdString(lbd::toJson(config).dump())).object();
}

// `levels` of one factor "method" over the tiny config, seeds 0 and 1.
QByteArray tinyStudy(const QString& name, int epochs, const char* levels)
{
    QJsonObject config = tinyConfigJson();
    QJsonObject train = config.value(QStringLiteral("train")).toObject();
    train[QStringLiteral("epochs")] = epochs;
    config[QStringLiteral("train")] = train;
    const QJsonObject factor{{QStringLiteral("name"), QStringLiteral("method")},
                             {QStringLiteral("levels"), QJsonDocument::fromJson(levels).array()}};
    const QJsonObject study{{QStringLiteral("name"), name},
                            {QStringLiteral("title"), QStringLiteral("Tiny study")},
                            {QStringLiteral("paper_table"), QStringLiteral("Table T")},
                            {QStringLiteral("claim"), QStringLiteral("A tiny claim.")},
                            {QStringLiteral("config"), config},
                            {QStringLiteral("seeds"), QJsonArray{0, 1}},
                            {QStringLiteral("factors"), QJsonArray{factor}}};
    return QJsonDocument(study).toJson();
}

bool writeFile(const QString& path, const QByteArray& data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(data) == data.size();
}

QString readText(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

int rowOfCell(StudySummaryModel* model, const QString& label)
{
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, StudySummaryModel::Cell).data().toString() == label) {
            return row;
        }
    }
    return -1;
}

} // namespace

class TestStudies final : public QObject {
    Q_OBJECT

    QTemporaryDir m_temp;

    // A page with the study file selected and its folder under the temporary directory.
    void prepare(StudiesPage& page, const QString& name, const QByteArray& study)
    {
        const QString file = m_temp.filePath(name + QStringLiteral(".json"));
        QVERIFY(writeFile(file, study));
        QString error;
        QVERIFY2(page.setupPanel()->addStudyFile(file, &error), qPrintable(error));
        page.setupPanel()->setFolderOverride(m_temp.filePath(QStringLiteral("studies/") + name));
        page.resize(1400, 900);
        page.show();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_temp.isValid());
        test::isolateSettings(m_temp);
    }

    void seedsAreValidated()
    {
        QCOMPARE(*StudySetupPanel::parseSeeds(QStringLiteral("0, 1,2")), (std::vector<int64_t>{0, 1, 2}));
        QVERIFY(StudySetupPanel::parseSeeds(QStringLiteral(""))->empty()); // the study's own seeds
        QVERIFY(!StudySetupPanel::parseSeeds(QStringLiteral("0,,1")));
        StudiesPage page;
        page.setupPanel()->setSeedsText(QStringLiteral("1,"));
        QVERIFY(!page.startStudy());
        QVERIFY(page.lastMessage().contains(QStringLiteral("Seeds")));
        QVERIFY(!page.isRunning());
    }

    void theEstimateCountsParallelAndFusedRuns()
    {
        // Speeds recorded so that one run of the tiny study (2 levels x 2 seeds = 4 runs, 3 epochs)
        // takes 30 s on the CPU and 60 s on "cuda:0": the figures below are 4 x those.
        StudiesPage page;
        prepare(page, QStringLiteral("estimate"), tinyStudy(QStringLiteral("estimate"), 3, R"([{"label": "LBD"}, {"label": "LBD, lr 0.02", "set": {"optimizer.lr": 0.02}}])"));
        StudySetupPanel* setup = page.setupPanel();
        lbd::TrainConfig config = lbd::test::tinyConfig();
        const std::vector<int64_t> counts = datasetPreview(config.data).trainCounts;
        const double images = 3.0 * double(std::accumulate(counts.begin(), counts.end(), int64_t(0)));
        QVERIFY(images > 0);
        DurationEstimator::recordSpeed(config, images / 30.0);
        config.train.device = "cuda:0";
        DurationEstimator::recordSpeed(config, images / 60.0);
        auto* device = setup->findChild<QComboBox*>(QStringLiteral("studyDevice"));
        auto* parallel = setup->findChild<QSpinBox*>(QStringLiteral("studyParallel"));
        auto* fuse = setup->findChild<QSpinBox*>(QStringLiteral("studyFuse"));
        QVERIFY(device && parallel && fuse);
        if (device->findData(QStringLiteral("cuda:0")) < 0) {
            device->addItem(QStringLiteral("cuda:0 (a GPU for the test)"), QStringLiteral("cuda:0"));
        }
        device->setCurrentIndex(device->findData(QStringLiteral("cpu")));
        const QString alone = setup->estimateText();
        QVERIFY2(alone.startsWith(QStringLiteral("Estimated duration: about 2 min of training for 4 runs, one at a time")),
                 qPrintable(alone));
        fuse->setValue(0); // auto: off on the CPU
        QCOMPARE(setup->estimateText(), alone);
        // On the CPU runs at once or fused share the cores: the same 2 min, and said so.
        for (const auto& [runs, group] : {std::pair{2, 1}, std::pair{1, 2}}) {
            parallel->setValue(runs);
            fuse->setValue(group);
            const QString shared = setup->estimateText();
            QVERIFY2(shared.startsWith(QStringLiteral("Estimated duration: about 2 min of training for 4 runs"))
                         && shared.contains(QStringLiteral("share the CPU's cores")),
                     qPrintable(shared));
        }
        // On a GPU, 2 at once: between 4 min (one at a time) and 2 min.
        device->setCurrentIndex(device->findData(QStringLiteral("cuda:0")));
        parallel->setValue(2);
        fuse->setValue(1);
        const QString gpu = setup->estimateText();
        QVERIFY2(gpu.startsWith(QStringLiteral("Estimated duration: about 4 min of training for 4 runs one at a time"))
                     && gpu.contains(QStringLiteral("2 at once on one GPU take between that and 2 min")),
                 qPrintable(gpu));
        // Fused on a GPU (a group size or auto): the one measured figure, 0.78x one run alone
        // (4 min / 0.78 = 5.1 min), beside the one-at-a-time estimate.
        for (const int group : {0, 3}) {
            fuse->setValue(group);
            const QString fused = setup->estimateText();
            QVERIFY2(fused.startsWith(QStringLiteral("Estimated duration: about 5 min of training for 4 fused runs"))
                         && fused.contains(QStringLiteral("slower there than one at a time (about 4 min)")),
                     qPrintable(fused));
            const auto* label = setup->findChild<QLabel*>(QStringLiteral("studyEstimate"));
            QCOMPARE(label->text(), fused); // the label follows the boxes
        }
        parallel->setValue(1);
        fuse->setValue(1);
    }

    void tinyStudyFillsGridTableAndPlots()
    {
        StudiesPage page;
        prepare(page, QStringLiteral("tiny"), tinyStudy(QStringLiteral("tiny"), 2, R"([
            {"label": "CE", "baseline": "ce"}, {"label": "LBD"},
            {"label": "broken", "set": {"data.dataset": "folder", "data.data_dir": "/nonexistent-lbd-data"}}])"));
        QSignalSpy done(&page, &StudiesPage::studyFinished);
        QVERIFY2(page.startStudy(), qPrintable(page.lastMessage()));
        QVERIFY(page.isRunning());
        QCOMPARE(page.runModel()->rowCount(), 6); // the grid lists every run at once
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 600000);
        QVERIFY(!page.isRunning());

        StudyRunModel* runs = page.runModel();
        QCOMPARE(runs->count(lbd::StudyRunState::Finished), 4);
        QCOMPARE(runs->count(lbd::StudyRunState::Failed), 2);
        for (int row = 0; row < runs->rowCount(); ++row) {
            const bool broken = runs->index(row, StudyRunModel::Cell).data().toString() == QStringLiteral("broken");
            QCOMPARE(runs->state(row), broken ? lbd::StudyRunState::Failed : lbd::StudyRunState::Finished);
            QVERIFY(runs->index(row, StudyRunModel::State).data().toString().contains(broken ? "failed" : "finished"));
        }

        StudySummaryModel* table = page.summaryModel();
        QCOMPARE(table->rowCount(), 3);
        QCOMPARE(table->index(rowOfCell(table, "CE"), StudySummaryModel::Runs).data().toString(), QStringLiteral("2/2"));
        QCOMPARE(table->index(rowOfCell(table, "LBD"), StudySummaryModel::Runs).data().toString(), QStringLiteral("2/2"));
        QCOMPARE(table->index(rowOfCell(table, "broken"), StudySummaryModel::Runs).data().toString(), QStringLiteral("0/2"));
        QVERIFY(page.problemsLabel()->isVisible());
        QVERIFY2(page.problemsLabel()->text().contains(QStringLiteral("broken")), qPrintable(page.problemsLabel()->text()));

        // One bar per cell with finished runs, at the mean of results/summary.json (in per cent).
        const QString folder = page.studyFolder();
        const auto summary = nlohmann::json::parse(readText(folder + "/results/summary.json").toStdString());
        QCustomPlot* plot = page.plots()->barPlot();
        QCPBars* bars = nullptr;
        for (int i = 0; i < plot->plottableCount(); ++i) {
            bars = bars ? bars : qobject_cast<QCPBars*>(plot->plottable(i));
        }
        QVERIFY(bars);
        QCOMPARE(bars->data()->size(), 2);
        for (size_t cell = 0; cell < 2; ++cell) {
            const double mean = summary.at("cells").at(cell).at("metrics").at("accuracy").at("mean").get<double>();
            QVERIFY(std::abs(bars->data()->at(int(cell))->value - 100 * mean) < 1e-9);
        }
        QVERIFY(!page.plots()->hasFactorPlot()); // "method" has named levels, no numbers

        // "Zoom bars": the value axis spans the seeds' values instead of starting at 0, and the
        // title says so; unticked, from 0 again.
        const auto titleOf = [plot] {
            auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
            return title ? title->text() : QString();
        };
        QCOMPARE(plot->yAxis->range().lower, 0.0);
        QVERIFY(!titleOf().contains(QStringLiteral("not from 0")));
        auto* zoom = page.plots()->findChild<QCheckBox*>(QStringLiteral("studyZoomBars"));
        QVERIFY(zoom);
        zoom->setChecked(true);
        double lowest = 100, highest = 0;
        for (size_t cell = 0; cell < 2; ++cell) {
            for (const auto& value : summary.at("cells").at(cell).at("metrics").at("accuracy").at("values")) {
                lowest = std::min(lowest, 100 * value.get<double>());
                highest = std::max(highest, 100 * value.get<double>());
            }
        }
        const QCPRange zoomed = plot->yAxis->range();
        QVERIFY2(zoomed.lower != 0.0 && zoomed.lower < lowest && zoomed.upper > highest,
                 qPrintable(QStringLiteral("%1 .. %2 for values %3 .. %4").arg(zoomed.lower).arg(zoomed.upper).arg(lowest).arg(highest)));
        QVERIFY2(titleOf().contains(QStringLiteral("not from 0")), qPrintable(titleOf()));
        zoom->setChecked(false);
        QCOMPARE(plot->yAxis->range().lower, 0.0);

        // Exports: core's own table writers, and the plot files.
        for (const QString suffix : {QStringLiteral("md"), QStringLiteral("csv"), QStringLiteral("tex")}) {
            const QString path = m_temp.filePath(QStringLiteral("table.") + suffix);
            QVERIFY(page.saveTable(path));
            const std::string expected = suffix == "md"    ? lbd::markdownTable(table->summary())
                                         : suffix == "csv" ? lbd::csvTable(table->summary())
                                                           : lbd::latexTable(table->summary());
            QCOMPARE(readText(path), QString::fromStdString(expected));
        }
        QString error;
        QVERIFY2(page.plots()->saveCurrent(m_temp.filePath("bars.png"), false, &error), qPrintable(error));
        QVERIFY2(page.plots()->saveCurrent(m_temp.filePath("bars.pdf"), true, &error), qPrintable(error));
        QVERIFY(QFileInfo(m_temp.filePath("bars.png")).size() > 1000);
        QVERIFY(QFileInfo(m_temp.filePath("bars.pdf")).size() > 1000);

        // Double-click: a finished run asks to be opened, a failed one does not.
        QSignalSpy open(&page, &StudiesPage::openRequested);
        QTableView* grid = page.runTable();
        for (int row : {0, runs->rowCount() - 1}) { // CE seed 0 (finished), broken seed 1 (failed)
            const QPoint point = grid->visualRect(runs->index(row, 0)).center();
            QTest::mouseClick(grid->viewport(), Qt::LeftButton, {}, point);
            QTest::mouseDClick(grid->viewport(), Qt::LeftButton, {}, point);
        }
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.first().first().toString(), runs->runDirectory(0));
        test::keepScreenshot(&page, QStringLiteral("studies-tiny"));

        // Opening the folder again shows the same table (as after a restart).
        StudiesPage reopened;
        QSignalSpy refreshed(&reopened, &StudiesPage::summaryRefreshed);
        QVERIFY(reopened.openStudyFolder(folder));
        QTRY_COMPARE_WITH_TIMEOUT(refreshed.count(), 1, 20000);
        QCOMPARE(reopened.runModel()->count(lbd::StudyRunState::Finished), 4);
        QCOMPARE(reopened.summaryModel()->index(0, StudySummaryModel::Runs).data().toString(), QStringLiteral("2/2"));
        // The header describes the opened study (its own study.json, now in the list), not the
        // built-in study the new page had selected, and Start would run in the opened folder.
        StudySetupPanel* setup = reopened.setupPanel();
        const auto* info = setup->findChild<QLabel*>(QStringLiteral("studyInfo"));
        QVERIFY(info);
        QVERIFY2(info->text().contains(QStringLiteral("Table T")) && info->text().contains(QStringLiteral("= 6 runs")),
                 qPrintable(info->text()));
        QVERIFY2(setup->studyCombo()->currentText().contains(QStringLiteral("Tiny study")),
                 qPrintable(setup->studyCombo()->currentText()));
        QString resolveError;
        const auto chosen = setup->resolve(&resolveError);
        QVERIFY2(chosen, qPrintable(resolveError));
        QCOMPARE(setup->folderFor(*chosen), QDir::cleanPath(folder));
    }

    void openedBuiltInStudyBecomesTheChoice()
    {
        // A folder of the built-in particle study at its quick scale (nothing trained yet).
        const QString folder = m_temp.filePath(QStringLiteral("opened-particles"));
        QVERIFY(QDir().mkpath(folder));
        const lbd::StudyInfo particles = [] {
            for (const lbd::StudyInfo& info : lbd::listBuiltInStudies()) {
                if (info.name == "particles") {
                    return info;
                }
            }
            return lbd::StudyInfo{};
        }();
        QVERIFY(!particles.path.empty());
        lbd::StudyOptions options;
        options.quick = true;
        options.seeds = {0, 3};
        QVERIFY(writeFile(QDir(folder).filePath(QStringLiteral("study_options.json")),
                          QByteArray::fromStdString(lbd::toJson(options).dump())));
        QVERIFY(QFile::copy(QString::fromStdString(particles.path), QDir(folder).filePath(QStringLiteral("study.json"))));

        StudiesPage page; // selects the first built-in study, not the particle one
        StudySetupPanel* setup = page.setupPanel();
        QVERIFY(setup->studyCombo()->currentData().toString() != QStringLiteral("particles"));
        const int entries = setup->studyCombo()->count();
        // A damaged study folder: a message naming the file, and the panel's choice unchanged.
        const QString damaged = m_temp.filePath(QStringLiteral("damaged-study"));
        QVERIFY(QDir().mkpath(damaged));
        QVERIFY(writeFile(QDir(damaged).filePath(QStringLiteral("study.json")), "{\"name\": "));
        QVERIFY(writeFile(QDir(damaged).filePath(QStringLiteral("study_options.json")), "{}"));
        const QString before = setup->studyCombo()->currentData().toString();
        QVERIFY(!page.openStudyFolder(damaged));
        QVERIFY2(page.lastMessage().contains(QStringLiteral("study.json")), qPrintable(page.lastMessage()));
        QCOMPARE(setup->studyCombo()->currentData().toString(), before);
        QCOMPARE(setup->studyCombo()->count(), entries);

        QVERIFY2(page.openStudyFolder(folder), qPrintable(page.lastMessage()));
        QCOMPARE(setup->studyCombo()->currentData().toString(), QStringLiteral("particles"));
        QCOMPARE(setup->studyCombo()->count(), entries); // its built-in entry, not a copy
        QVERIFY(setup->findChild<QCheckBox*>(QStringLiteral("studyQuick"))->isChecked());
        QCOMPARE(setup->seedsEdit()->text(), QStringLiteral("0,3"));
        const QString info = setup->findChild<QLabel*>(QStringLiteral("studyInfo"))->text();
        QVERIFY2(info.contains(QStringLiteral("Figure 3")) && info.contains(QStringLiteral("2 seed(s)")), qPrintable(info));
        QString error;
        auto chosen = setup->resolve(&error);
        QVERIFY2(chosen, qPrintable(error));
        QCOMPARE(setup->folderFor(*chosen), QDir::cleanPath(folder));

        // A folder chosen by hand wins over the opened one.
        const QString chosenFolder = m_temp.filePath(QStringLiteral("chosen-by-hand"));
        setup->setFolderOverride(chosenFolder);
        QCOMPARE(setup->folderFor(*chosen), QDir::cleanPath(chosenFolder));
        setup->setFolderOverride(QString());
        QVERIFY2(page.openStudyFolder(folder), qPrintable(page.lastMessage()));
        QCOMPARE(setup->folderFor(*chosen), QDir::cleanPath(folder));

        // Choosing another study by hand: its own description and its own folder again.
        setup->studyCombo()->setCurrentIndex(0);
        QVERIFY(!setup->findChild<QLabel*>(QStringLiteral("studyInfo"))->text().contains(QStringLiteral("Figure 3")));
        chosen = setup->resolve(&error);
        QVERIFY2(chosen, qPrintable(error));
        QVERIFY(setup->folderFor(*chosen) != QDir::cleanPath(folder));
    }

    void stopThenContinue()
    {
        StudiesPage page;
        // Long enough that Stop lands mid-run wherever it trains; on the CPU, as the page picks the
        // first GPU where there is one and a tiny run on an H200 (2026-11-27) could end before the
        // click: Stop and Continue are the page's logic, not the device's.
        prepare(page, QStringLiteral("long"), tinyStudy(QStringLiteral("long"), 200, R"([{"label": "LBD"}])"));
        page.setupPanel()->setParallel(2);
        auto* device = page.setupPanel()->findChild<QComboBox*>(QStringLiteral("studyDevice"));
        QVERIFY(device);
        device->setCurrentIndex(device->findData(QStringLiteral("cpu")));
        QCOMPARE(device->currentData().toString(), QStringLiteral("cpu"));
        QSignalSpy done(&page, &StudiesPage::studyFinished);
        QVERIFY2(page.startStudy(), qPrintable(page.lastMessage()));
        StudyRunModel* runs = page.runModel();
        // Both runs train at once; stop once each has finished an epoch.
        const auto epochOf = [runs](int row) {
            return runs->index(row, StudyRunModel::Epoch).data().toString().section(QStringLiteral(" / "), 0, 0).toInt();
        };
        QTRY_VERIFY_WITH_TIMEOUT(runs->count(lbd::StudyRunState::Running) == 2 && epochOf(0) >= 1 && epochOf(1) >= 1,
                                 300000);
        QVERIFY(page.setupPanel()->stopButton()->isEnabled());
        QTest::mouseClick(page.setupPanel()->stopButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 120000);
        QCOMPARE(runs->count(lbd::StudyRunState::Stopped), 2);
        QCOMPARE(runs->count(lbd::StudyRunState::Finished), 0);
        QVERIFY(page.setupPanel()->continueButton()->isEnabled());

        QTest::mouseClick(page.setupPanel()->continueButton(), Qt::LeftButton);
        QVERIFY(page.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 900000);
        QCOMPARE(runs->count(lbd::StudyRunState::Finished), 2);
        QCOMPARE(page.summaryModel()->index(0, StudySummaryModel::Runs).data().toString(), QStringLiteral("2/2"));
    }
};

QTEST_MAIN(TestStudies)
#include "test_studies.moc"
