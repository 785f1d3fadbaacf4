// What a new user met on the pages after the first run (issue 26's smaller list), on a tiny run
// trained here: the FHR points named by their head (the Tail risk page's table and legend, the run
// report) with the markers at k/C of those heads; the Gallery cleared the moment another run
// starts and filled again when it ends; File > Export every plot writing only plots with data and
// naming the others, with the confusion matrix as shapes in the SVG; the Studies page on the quick
// scale without a GPU, with an estimated duration, showing a half-run study folder from an
// earlier session before Start; and Qt reading a PNG with a damaged colour profile without
// libpng's warning reaching the log.
#include "tests/ui/uitestsupport.h"

#include "core/eval/reportjson.h"
#include "core/study/studyfolder.h"
#include "core/train/trainer.h"
#include "core/util/jsonfile.h"
#include "ui/app/mainwindow.h"
#include "ui/app/userguide.h"
#include "ui/app/windowcommands.h"
#include "ui/engine/classifyjob.h"
#include "ui/pages/gallerypage.h"
#include "ui/pages/studiespage.h"
#include "ui/pages/tailriskpage.h"
#include "ui/panels/experimentpanel.h"
#include "ui/report/runreport.h"
#include "ui/study/studyrunmodel.h"
#include "ui/study/studysetuppanel.h"
#include "ui/study/studysummarymodel.h"
#include "ui/widgets/fhraxes.h"
#include "ui/widgets/plotexport.h"
#include "ui/widgets/throttledplot.h"

#include <nlohmann/json.hpp>

#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDirIterator>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTextBlock>
#include <QTextBrowser>

using namespace lbd::ui;

namespace {

QString readText(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

bool copyFolder(const QString& from, const QString& to)
{
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        const QString target = QDir(to).filePath(QDir(from).relativeFilePath(file));
        if (!QDir().mkpath(QFileInfo(target).path()) || !QFile::copy(file, target)) {
            return false;
        }
    }
    return true;
}

// Messages Qt logs while it is installed (libpng's warnings reach Qt's log as qt.gui.imageio).
QStringList g_messages;
void collect(QtMsgType, const QMessageLogContext&, const QString& message)
{
    g_messages << message;
}

} // namespace

class TestNewUserPages final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_run;
    lbd::EvaluationReport m_report;

private slots:
    void initTestCase()
    {
        test::isolateSettings(m_dir);
        m_run = m_dir.filePath(QStringLiteral("runs/tiny"));
        lbd::Trainer trainer(test::tinyConfig(2), m_run.toStdString(), false);
        QCOMPARE(trainer.run({}, nullptr).epochsCompleted, 2);
        const nlohmann::json report = lbd::readJsonFile(QDir(m_run).filePath(QStringLiteral("report.json")).toStdString());
        m_report = lbd::reportFromJson(report.at("evaluation"));
    }

    void fhrPointsAreNamedByTheirHead()
    {
        // 4 classes: the published code's int(4 r + 0.5) heads are 1, 2 and 3 classes.
        QCOMPARE(m_report.classCount, int64_t(4));
        QCOMPARE(m_report.fhrPoints.size(), size_t(3));
        QCOMPARE(fhrPointName(3, 10, 0.25), QStringLiteral("head = first 3 of 10 classes (r = 0.25, published-code convention)"));

        TailRiskPage page;
        lbd::EpochMetrics metrics;
        metrics.epoch = 2;
        metrics.evaluation = m_report;
        page.addEpoch(metrics);
        const QString summary = page.findChild<QLabel*>(QStringLiteral("tailRiskSummary"))->text();
        QVERIFY2(!summary.contains(QStringLiteral("tail ratio")), qPrintable(summary));
        for (const lbd::FhrPoint& point : m_report.fhrPoints) {
            QVERIFY2(summary.contains(fhrPointName(point.split.headClasses, 4, point.ratio).toHtmlEscaped()), qPrintable(summary));
        }
        // The markers sit at k/C of the heads the names give, with the heads in the legend.
        auto* plot = page.findChild<ThrottledPlot*>(QStringLiteral("fhrCurvePlot"));
        QCPGraph* markers = plot->graph(plot->graphCount() - 1);
        QCOMPARE(markers->name(), QStringLiteral("paper points: head = first 1, 2, 3 of 4 classes (latest)"));
        QCOMPARE(markers->data()->size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(markers->data()->at(i)->key, double(m_report.fhrPoints[size_t(i)].split.headClasses) / 4.0);
        }

        // The run report's FHR table names its rows the same way ("tail 25 %" read as a head of 1).
        ReportDocument document;
        QString error;
        QVERIFY2(buildRunReport(m_run, &document, &error), qPrintable(error));
        const ReportTable* fhr = nullptr;
        for (const ReportTable& table : document.tables) {
            if (table.title.startsWith(QStringLiteral("False Head Rate"))) {
                fhr = &table;
            }
        }
        QVERIFY(fhr);
        QCOMPARE(fhr->header.first(), QStringLiteral("Paper point"));
        QCOMPARE(fhr->rows.first().first(), fhrPointName(1, 4, 0.25));
        QCOMPARE(fhr->rows.at(2).first(), fhrPointName(3, 4, 0.75));
    }

    void galleryForgetsThePreviousRunWhenAnotherStarts()
    {
        MainWindow window;
        window.setErrorReporter([](const QString& title, const QString& message) {
            QFAIL(qPrintable(title + QStringLiteral(": ") + message));
        });
        GalleryPage* gallery = window.galleryPage();
        QSignalSpy loaded(gallery, &GalleryPage::loaded);
        QVERIFY(window.openRun(m_run));
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 30000);
        QVERIFY(gallery->hasRun());
        QVERIFY(gallery->shownCount() > 0);

        window.experimentPanel()->setConfig(test::tinyConfigOnTestDevice(2));
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QVERIFY(window.startTraining());
        // At once: no tile of the opened run, and the page says why it is empty.
        QVERIFY(!gallery->hasRun());
        QCOMPARE(gallery->shownCount(), 0);
        auto* empty = gallery->findChild<QLabel*>(QStringLiteral("galleryEmptyState"));
        QCOMPARE(qobject_cast<QStackedWidget*>(empty->parentWidget())->currentWidget(), empty);
        QVERIFY2(empty->text().contains(QStringLiteral("This run has no evaluation yet")), qPrintable(empty->text()));

        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        QTRY_VERIFY_WITH_TIMEOUT(loaded.size() == 2, 30000); // the new run's test images, once it has them
        QVERIFY(gallery->hasRun());
        QCOMPARE(gallery->matchingCount(), 48);
        QVERIFY(window.shownRun() != m_run);
    }

    void exportWritesOnlyPlotsWithDataAndTheMatrixAsShapes()
    {
        MainWindow window;
        window.resize(1400, 900);
        const QString before = m_dir.filePath(QStringLiteral("export-before"));
        QVERIFY(QDir().mkpath(before));
        // Before any run the run's plots are empty: not written, each named with the reason. (The
        // panel's class-weight plot has data from the preset's counts and is written.)
        const PlotExportSummary empty = exportPlotsTo(&window, before);
        QVERIFY(empty.skipped.size() + empty.written.size() / plotExportSuffixes().size()
                == window.findChildren<ThrottledPlot*>().size());
        for (const char* plot : {"confusionMatrixPlot", "fhrCurvePlot", "classAccuracyPlot"}) {
            const QString name = QString::fromLatin1(plot);
            QVERIFY2(empty.text(before).contains(name + QStringLiteral(" (no data yet")), qPrintable(empty.text(before)));
            QVERIFY(!QFileInfo::exists(QDir(before).filePath(name + QStringLiteral(".png"))));
        }
        QCOMPARE(QDir(before).entryList(QDir::Files).size(), empty.written.size());

        QVERIFY(window.openRun(m_run));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QString after = m_dir.filePath(QStringLiteral("export-after"));
        QVERIFY(QDir().mkpath(after));
        const PlotExportSummary summary = exportPlotsTo(&window, after);
        QVERIFY(summary.failed.isEmpty());
        QVERIFY(QFileInfo::exists(QDir(after).filePath(QStringLiteral("confusionMatrixPlot.pdf"))));
        QVERIFY(QFileInfo::exists(QDir(after).filePath(QStringLiteral("fhrCurvePlot.png"))));
        // Plots with nothing in them (the Gallery's distribution before a tile is clicked) are left out.
        bool distributionSkipped = false;
        for (const auto& [name, reason] : summary.skipped) {
            distributionSkipped |= name == QStringLiteral("galleryDistributionPlot");
            QVERIFY(!QFileInfo::exists(QDir(after).filePath(name + QStringLiteral(".png"))));
        }
        QVERIFY(distributionSkipped);

        if (!plotSvgAvailable()) {
            QSKIP("built without Qt Svg: no SVG to check");
        }
        // The matrix's cells are rectangles in the SVG, not a picture: at most the colour bar's
        // gradient strip is an image (the map used to be a second one).
        const QString svg = readText(QDir(after).filePath(QStringLiteral("confusionMatrixPlot.svg")));
        QVERIFY(!svg.isEmpty());
        QVERIFY2(svg.count(QStringLiteral("<image")) <= 1, qPrintable(QString::number(svg.count(QStringLiteral("<image")))));
        int cells = 0;
        for (const auto& row : m_report.confusion) {
            for (int64_t n : row) {
                cells += n > 0 ? 1 : 0;
            }
        }
        QVERIFY2(svg.count(QStringLiteral("<rect")) >= cells,
                 qPrintable(QStringLiteral("%1 rects for %2 cells").arg(svg.count(QStringLiteral("<rect"))).arg(cells)));
    }

    void studiesStartQuickWithAnEstimate()
    {
        StudiesPage page;
        StudySetupPanel* setup = page.setupPanel();
        auto* device = setup->findChild<QComboBox*>(QStringLiteral("studyDevice"));
        auto* quick = setup->findChild<QCheckBox*>(QStringLiteral("studyQuick"));
        // Without a GPU the quick scale is the default; with one, the paper's full scale.
        QCOMPARE(quick->isChecked(), device->count() == 1);
        quick->setChecked(true);
        device->setCurrentIndex(device->findData(QStringLiteral("cpu")));
        QString error;
        const auto quickStudy = setup->resolve(&error);
        QVERIFY2(quickStudy, qPrintable(error));
        auto* estimate = setup->findChild<QLabel*>(QStringLiteral("studyEstimate"));
        const QString quickText = estimate->text();
        QVERIFY2(quickText.startsWith(QStringLiteral("Estimated duration: about"))
                     && quickText.contains(QStringLiteral("for %1 runs").arg(quickStudy->runs.size())),
                 qPrintable(quickText));
        quick->setChecked(false); // the full scale: longer, and said so before Start
        const QString fullText = estimate->text();
        QVERIFY2(fullText.startsWith(QStringLiteral("Estimated duration")) && fullText != quickText, qPrintable(fullText));
    }

    void studiesShowAHalfRunFolderBeforeStart()
    {
        QString folder;
        lbd::ResolvedStudy study;
        {
            StudiesPage first; // the session that ran part of the study
            QString error;
            const auto chosen = first.setupPanel()->resolve(&error);
            QVERIFY2(chosen, qPrintable(error));
            study = *chosen;
            folder = first.setupPanel()->folderFor(study);
            QVERIFY(!lbd::isStudyFolder(folder.toStdString()));
            QCOMPARE(first.runModel()->rowCount(), int(study.runs.size())); // what Start would run, pending
            QCOMPARE(first.runModel()->count(lbd::StudyRunState::Pending), int(study.runs.size()));
        }
        lbd::prepareStudyFolder(study, folder.toStdString());
        // One run finished before the restart (a finished run folder stands in for it).
        QVERIFY(copyFolder(m_run, QDir(folder).filePath(QString::fromStdString(study.runs.front().directory))));

        StudiesPage page; // after the restart, nothing pressed
        QCOMPARE(page.studyFolder(), folder);
        QCOMPARE(page.runModel()->rowCount(), int(study.runs.size()));
        QCOMPARE(page.runModel()->state(0), lbd::StudyRunState::Finished);
        QCOMPARE(page.runModel()->count(lbd::StudyRunState::Finished), 1);
        QVERIFY2(page.lastMessage().contains(QStringLiteral("holds this study")), qPrintable(page.lastMessage()));
        QVERIFY(page.setupPanel()->continueButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(page.summaryModel()->rowCount() == int(study.cells.size()), 30000);
    }

    void qtReadsADamagedProfileQuietly()
    {
        // A PNG Qt wrote, with an iCCP chunk whose profile is cut short inserted after IHDR.
        QImage image(3, 2, QImage::Format_RGB32);
        image.fill(QColor(10, 120, 230));
        QByteArray png;
        {
            QBuffer buffer(&png);
            QVERIFY(buffer.open(QIODevice::WriteOnly) && image.save(&buffer, "PNG"));
        }
        const char iccp[] = "\x00\x00\x00\x14\x69\x43\x43\x50\x62\x61\x64\x00\x00\x78\x9c\x63"
                            "\x60\x50\xe7\x67\x18\x26\x00\x00\x2b\x59\x00\x37\x05\xe0\xf2\x24";
        png.insert(8 + 25, QByteArray(iccp, 32));
        const QString path = m_dir.filePath(QStringLiteral("damaged-profile.png"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(png) == png.size());
        file.close();

        g_messages.clear();
        const QtMessageHandler previous = qInstallMessageHandler(collect);
        QImage plain;
        const bool plainRead = plain.load(path); // as Classify read thumbnails before
        const QStringList plainMessages = g_messages;
        g_messages.clear();
        const QImage quiet = readImageQuietly(path, {});
        const QImage quietBytes = readImageQuietly(QStringLiteral("pasted"), png);
        const QStringList quietMessages = g_messages;
        qInstallMessageHandler(previous);

        QVERIFY(plainRead);
        QVERIFY2(plainMessages.join(QLatin1Char('\n')).contains(QStringLiteral("libpng warning")),
                 qPrintable(plainMessages.join(QLatin1Char('\n')))); // the damage is real
        QVERIFY2(quietMessages.isEmpty(), qPrintable(quietMessages.join(QLatin1Char('\n'))));
        QCOMPARE(quiet.pixel(1, 1), image.pixel(1, 1));
        QCOMPARE(quietBytes.size(), image.size());
    }

    void theGuideStartsWithTheFirstHourAndFitsItsWindow()
    {
        const QString path = UserGuide::path();
        QVERIFY(!path.isEmpty());
        const QString markdown = readText(path);
        // The first section a reader meets is the first hour, not the screenshot command.
        const qsizetype first = markdown.indexOf(QStringLiteral("\n## "));
        QVERIFY2(markdown.mid(first + 1).startsWith(QStringLiteral("## Your first hour")), qPrintable(markdown.mid(first, 80)));
        QVERIFY(markdown.indexOf(QStringLiteral("--screenshot ")) > markdown.indexOf(QStringLiteral("## Your first hour")));

        QWidget parent;
        QVERIFY(UserGuide::show(&parent));
        auto* guide = parent.findChild<QDialog*>(QStringLiteral("userGuide"));
        QVERIFY(guide);
        auto* text = guide->findChild<QTextBrowser*>(QStringLiteral("userGuideText"));
        QVERIFY(text);
        for (const int width : {900, 600}) {
            guide->resize(width, 600);
            QCoreApplication::processEvents();
            int images = 0;
            for (QTextBlock block = text->document()->begin(); block.isValid(); block = block.next()) {
                for (auto it = block.begin(); !it.atEnd(); ++it) {
                    if (it.fragment().charFormat().isImageFormat()) {
                        ++images;
                        const double drawn = it.fragment().charFormat().toImageFormat().width();
                        QVERIFY2(drawn > 0 && drawn <= text->viewport()->width(),
                                 qPrintable(QStringLiteral("%1 px wide in a %2 px window").arg(drawn).arg(text->viewport()->width())));
                    }
                }
            }
            QVERIFY(images >= 10); // every page's picture
            QCOMPARE(text->horizontalScrollBar()->maximum(), 0); // nothing runs off to the right
        }
        guide->close();
    }
};

QTEST_MAIN(TestNewUserPages)
#include "test_newuserpages.moc"
