// The Utility page: painting a cell and a drag stroke with the mouse, shift-drag and region
// blocks, presets, undo / redo (also by keyboard), CSV and JSON round trips through core's io,
// refused files (wrong size, non-finite) that leave the matrix alone, a 100-class matrix (zoom,
// tooltips, values only in big cells) and "Use for training" feeding the experiment panel's
// training utility by value. The shared decision settings: one rule and defer utility in sync
// across the Utility page, the Decision lab, Classify and the panel (the registry's names, order
// and tooltips on each), the lab's presets replacing a saved matrix only visibly (and undoably),
// the lab's c following the matrix, the training utility form and its warning.
#include "tests/ui/uitestsupport.h"
#include "ui/app/mainwindow.h"
#include "ui/pages/classifypage.h"
#include "ui/pages/decisionlabpage.h"
#include "ui/panels/experimentpanel.h"
#include "ui/panels/objectivesection.h"
#include "ui/widgets/decisioncontrols.h"
#include "ui/utility/utilitydocument.h"
#include "ui/utility/utilityeditorpage.h"
#include "ui/utility/utilityheatmap.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QUndoStack>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace lbd::ui;

namespace {

QStringList names(int n)
{
    QStringList list;
    for (int i = 0; i < n; ++i) {
        list << QStringLiteral("c%1").arg(i);
    }
    return list;
}

void writeText(const QString& path, const QByteArray& text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

// A document + page pair shown in a window of its own.
struct Editor {
    explicit Editor(int classes, std::vector<int64_t> counts = {})
    {
        document.setClassNames(names(classes));
        page = std::make_unique<UtilityEditorPage>(&document);
        page->setClassCounts(counts);
        page->resize(1100, 800);
        page->show();
    }
    UtilityDocument document;
    std::unique_ptr<UtilityEditorPage> page;
    QWidget* viewport() const { return page->heatmap()->viewport(); }
};

// Every cell equals `expected` except those listed, which equal `value`.
void expectOnly(const lbd::UtilityMatrix& actual, const lbd::UtilityMatrix& expected, const QSet<QPair<int, int>>& cells,
                double value)
{
    QCOMPARE(actual.classCount(), expected.classCount());
    for (int t = 0; t < actual.classCount(); ++t) {
        for (int d = 0; d < actual.classCount(); ++d) {
            const double want = cells.contains({t, d}) ? value : expected(t, d);
            if (actual(t, d) != want) {
                QFAIL(qPrintable(QStringLiteral("U[%1,%2] = %3, expected %4").arg(t).arg(d).arg(actual(t, d)).arg(want)));
            }
        }
    }
}


} // namespace

class TestUtilityEditor : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::isolateSettings(m_dir); }

    void clickPaintsExactlyOneCellAndUndoRestores()
    {
        Editor e(6);
        QVERIFY(QTest::qWaitForWindowExposed(e.page.get()));
        const lbd::UtilityMatrix before = e.document.matrix();
        QVERIFY(before.isOneHot());
        e.page->setPaintValue(-2.5);
        const QPoint at = e.page->heatmap()->cellCenter(4, 1);
        QTest::mouseClick(e.viewport(), Qt::LeftButton, Qt::NoModifier, at);
        expectOnly(e.document.matrix(), before, {{4, 1}}, -2.5);
        QCOMPARE(e.page->undoStack()->count(), 1);

        e.page->undoStack()->undo();
        QCOMPARE(e.document.matrix(), before);
        e.page->undoStack()->redo();
        expectOnly(e.document.matrix(), before, {{4, 1}}, -2.5);

        // Keyboard: Ctrl+Z undoes, Ctrl+Shift+Z redoes (the page's shortcuts).
        e.page->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(e.page.get()));
        e.page->heatmap()->setFocus();
        QTest::keyClick(e.page->heatmap(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(e.document.matrix(), before);
        QTest::keyClick(e.page->heatmap(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        expectOnly(e.document.matrix(), before, {{4, 1}}, -2.5);
    }

    void dragPaintsAStrokeAsOneUndoStep()
    {
        Editor e(6);
        QVERIFY(QTest::qWaitForWindowExposed(e.page.get()));
        const lbd::UtilityMatrix before = e.document.matrix();
        e.page->setPaintValue(0.75);
        UtilityHeatmap* map = e.page->heatmap();
        QTest::mousePress(e.viewport(), Qt::LeftButton, Qt::NoModifier, map->cellCenter(2, 0));
        QTest::mouseMove(e.viewport(), map->cellCenter(2, 1));
        QTest::mouseMove(e.viewport(), map->cellCenter(2, 3)); // skips column 2: filled in between
        // Nothing is committed before the button is released.
        QCOMPARE(e.document.matrix(), before);
        QTest::mouseRelease(e.viewport(), Qt::LeftButton, Qt::NoModifier, map->cellCenter(2, 3));
        expectOnly(e.document.matrix(), before, {{2, 0}, {2, 1}, {2, 2}, {2, 3}}, 0.75);
        QCOMPARE(e.page->undoStack()->count(), 1);
        e.page->undoStack()->undo();
        QCOMPARE(e.document.matrix(), before);
    }

    void blocksAreSelectedAndSet()
    {
        Editor e(6);
        QVERIFY(QTest::qWaitForWindowExposed(e.page.get()));
        const lbd::UtilityMatrix before = e.document.matrix();
        UtilityHeatmap* map = e.page->heatmap();
        // Shift-drag selects instead of painting.
        QTest::mousePress(e.viewport(), Qt::LeftButton, Qt::ShiftModifier, map->cellCenter(3, 0));
        QTest::mouseMove(e.viewport(), map->cellCenter(5, 1));
        QTest::mouseRelease(e.viewport(), Qt::LeftButton, Qt::ShiftModifier, map->cellCenter(5, 1));
        QCOMPARE(e.document.matrix(), before);
        QCOMPARE(map->selection(), QRect(QPoint(0, 3), QPoint(1, 5)));
        e.page->setPaintValue(-3);
        auto* set = e.page->findChild<QPushButton*>(QStringLiteral("setSelection"));
        QVERIFY(set && set->isEnabled());
        QTest::mouseClick(set, Qt::LeftButton);
        QSet<QPair<int, int>> block;
        for (int t = 3; t <= 5; ++t) {
            for (int d = 0; d <= 1; ++d) {
                block.insert({t, d});
            }
        }
        expectOnly(e.document.matrix(), before, block, -3);

        // The quick button: tail rows x head columns (thirds of 6: head 0-1, tail 4-5).
        e.page->undoStack()->undo();
        auto* tailHead = e.page->findChild<QPushButton*>(QStringLiteral("selectTailHead"));
        QVERIFY(tailHead);
        QTest::mouseClick(tailHead, Qt::LeftButton);
        QCOMPARE(map->selection(), QRect(QPoint(0, 4), QPoint(1, 5)));
        e.page->setPaintValue(-1.5);
        QVERIFY(e.page->setSelectionToValue());
        expectOnly(e.document.matrix(), before, {{4, 0}, {4, 1}, {5, 0}, {5, 1}}, -1.5);
        test::keepScreenshot(e.page.get(), QStringLiteral("utility-block"));

        // Select mode: a plain drag selects; a click on a row name selects the row.
        e.page->undoStack()->undo();
        auto* selectMode = e.page->findChild<QAbstractButton*>(QStringLiteral("selectMode"));
        QTest::mouseClick(selectMode, Qt::LeftButton);
        QTest::mousePress(e.viewport(), Qt::LeftButton, Qt::NoModifier, map->cellCenter(0, 2));
        QTest::mouseMove(e.viewport(), map->cellCenter(1, 4));
        QTest::mouseRelease(e.viewport(), Qt::LeftButton, Qt::NoModifier, map->cellCenter(1, 4));
        QCOMPARE(e.document.matrix(), before);
        QCOMPARE(map->selection(), QRect(QPoint(2, 0), QPoint(4, 1)));
        const QPoint rowName(10, map->cellCenter(3, 0).y());
        QTest::mouseClick(e.viewport(), Qt::LeftButton, Qt::NoModifier, rowName);
        QCOMPARE(map->selection(), QRect(0, 3, 6, 1));
    }

    void regionBlocksFollowTrainCounts()
    {
        // By training count: > 100 many, 20..100 medium, < 20 few.
        Editor e(5, {500, 150, 60, 10, 5});
        auto* scheme = e.page->findChild<QComboBox*>(QStringLiteral("regionScheme"));
        QVERIFY(scheme);
        scheme->setCurrentIndex(1);
        QCOMPARE(e.page->regionScheme(), lbd::RegionScheme::ByTrainCount);
        QVERIFY(e.page->selectRegionBlock(lbd::Region::Tail, lbd::Region::Head));
        QCOMPARE(e.page->heatmap()->selection(), QRect(QPoint(0, 3), QPoint(1, 4)));
        // Two classes under thirds have no head: refused with a message.
        Editor small(2);
        QVERIFY(!small.page->selectRegionBlock(lbd::Region::Tail, lbd::Region::Head));
        QVERIFY(small.page->messageIsError());
    }

    void presets()
    {
        Editor e(5);
        QVERIFY(e.page->applyTailSensitive(0.5));
        QCOMPARE(e.document.matrix(), lbd::UtilityMatrix::tailSensitive(5, 0.5));
        QVERIFY(e.document.description().startsWith(QStringLiteral("tail-sensitive")));
        QVERIFY(!e.page->applyTailSensitive(0.0));
        QVERIFY(e.page->messageIsError());
        QCOMPARE(e.document.matrix(), lbd::UtilityMatrix::tailSensitive(5, 0.5));
        QVERIFY(e.page->applyOneHot());
        QVERIFY(e.document.matrix().isOneHot());
        e.page->undoStack()->undo();
        QCOMPARE(e.document.matrix(), lbd::UtilityMatrix::tailSensitive(5, 0.5));
    }

    void csvAndJsonRoundTrip()
    {
        for (const QString& suffix : {QStringLiteral("csv"), QStringLiteral("json")}) {
            Editor e(5);
            QVERIFY(e.page->applyTailSensitive(2.0));
            e.page->setPaintValue(0.125);
            QTest::mouseClick(e.viewport(), Qt::LeftButton, Qt::NoModifier, e.page->heatmap()->cellCenter(0, 4));
            const lbd::UtilityMatrix edited = e.document.matrix();
            QCOMPARE(edited(0, 4), 0.125);

            const QString path = m_dir.filePath(QStringLiteral("roundtrip.") + suffix);
            QVERIFY2(e.page->exportFile(path), qPrintable(e.page->message()));
            QFile written(path);
            QVERIFY(written.open(QIODevice::ReadOnly));
            QVERIFY2(written.readAll().contains("c4"), "the class names are written with the matrix");

            QVERIFY(e.page->applyOneHot());
            const int steps = e.page->undoStack()->count();
            QVERIFY2(e.page->importFile(path), qPrintable(e.page->message()));
            QCOMPARE(e.document.matrix(), edited);
            QCOMPARE(e.page->undoStack()->count(), steps + 1);
            e.page->undoStack()->undo();
            QVERIFY(e.document.matrix().isOneHot());
        }
    }

    void refusedFilesLeaveTheMatrixUnchanged()
    {
        Editor e(4);
        QVERIFY(e.page->applyTailSensitive(1.0));
        const lbd::UtilityMatrix before = e.document.matrix();
        const int steps = e.page->undoStack()->count();

        const QString wrongSize = m_dir.filePath(QStringLiteral("three.csv"));
        writeText(wrongSize, "1,0,0\n0,1,0\n0,0,1\n");
        QVERIFY(!e.page->importFile(wrongSize));
        QVERIFY(e.page->messageIsError());
        QVERIFY2(e.page->message().contains(QStringLiteral("three.csv")), qPrintable(e.page->message()));

        const QString notFinite = m_dir.filePath(QStringLiteral("nan.csv"));
        writeText(notFinite, "1,0,0,0\n0,nan,0,0\n0,0,1,0\n0,0,0,1\n");
        QVERIFY(!e.page->importFile(notFinite));
        QVERIFY2(e.page->message().contains(QStringLiteral("nan.csv")), qPrintable(e.page->message()));

        const QString infinite = m_dir.filePath(QStringLiteral("inf.json"));
        writeText(infinite, R"({"matrix": [[1,0,0,0],[0,1,0,0],[0,0,1,1e999],[0,0,0,1]]})");
        QVERIFY(!e.page->importFile(infinite));
        QVERIFY2(e.page->message().contains(QStringLiteral("inf.json")), qPrintable(e.page->message()));

        const QString wrongJson = m_dir.filePath(QStringLiteral("wrong.json"));
        writeText(wrongJson, R"({"matrix": [[1,0],[0,1]]})");
        QVERIFY(!e.page->importFile(wrongJson));
        QVERIFY(!e.page->importFile(m_dir.filePath(QStringLiteral("missing.csv"))));
        QVERIFY(e.page->message().contains(QStringLiteral("missing.csv")));

        QCOMPARE(e.document.matrix(), before);
        QCOMPARE(e.page->undoStack()->count(), steps);

        // A non-finite value never reaches the document by an edit either.
        QVERIFY(!e.document.checkMatrix(lbd::UtilityMatrix(4, std::vector<double>(16, std::numeric_limits<double>::infinity()))).isEmpty());
        QVERIFY(!e.page->exportFile(m_dir.filePath(QStringLiteral("matrix.txt"))));
        QVERIFY(e.page->message().contains(QStringLiteral(".csv or .json")));
    }

    void hundredClasses()
    {
        Editor e(100);
        QVERIFY(QTest::qWaitForWindowExposed(e.page.get()));
        UtilityHeatmap* map = e.page->heatmap();
        map->fitToView();
        QVERIFY(map->cellSize() < UtilityHeatmap::kValueTextCellSize);
        QVERIFY(!map->valuesDrawn());
        while (map->cellSize() < UtilityHeatmap::kValueTextCellSize) {
            const int size = map->cellSize();
            map->zoomIn();
            QVERIFY(map->cellSize() > size);
        }
        QVERIFY(map->valuesDrawn());
        QCOMPARE(map->cellToolTip(99, 0).section(QLatin1Char('\n'), 0, 0), QStringLiteral("true c99, decide c0: 0"));
        QVERIFY(map->cellToolTip(99, 0).contains(QStringLiteral("false head")));
        QCOMPARE(map->cellToolTip(7, 7).section(QLatin1Char('\n'), 0, 0), QStringLiteral("true c7, decide c7: 1"));
        // A cell far outside the first view: it scrolls there and paints exactly it.
        const lbd::UtilityMatrix before = e.document.matrix();
        e.page->setPaintValue(-4);
        const QPoint at = map->cellCenter(98, 97);
        QCOMPARE(map->cellAt(at), std::optional<QPoint>(QPoint(97, 98)));
        QTest::mouseClick(e.viewport(), Qt::LeftButton, Qt::NoModifier, at);
        expectOnly(e.document.matrix(), before, {{98, 97}}, -4);
        // Tail rows x head columns of 100 classes: rows 66..99 x columns 0..32.
        QVERIFY(e.page->selectRegionBlock(lbd::Region::Tail, lbd::Region::Head));
        QCOMPARE(map->selection(), QRect(QPoint(0, 66), QPoint(32, 99)));
        e.page->setPaintValue(-0.5);
        QVERIFY(e.page->setSelectionToValue());
        QCOMPARE(e.document.matrix()(66, 0), -0.5);
        QCOMPARE(e.document.matrix()(99, 32), -0.5);
        QCOMPARE(e.document.matrix()(65, 0), 0.0);
        QCOMPARE(e.document.matrix()(99, 33), 0.0);
        QCOMPARE(e.document.matrix()(98, 97), -4.0);
        test::keepScreenshot(e.page.get(), QStringLiteral("utility-100-zoomed"));
        map->fitToView();
        test::keepScreenshot(e.page.get(), QStringLiteral("utility-100-fit"));
    }

    void useForTrainingSetsThePanelsUtility()
    {
        MainWindow window;
        window.setErrorReporter([](const QString& title, const QString& message) {
            QFAIL(qPrintable(title + QStringLiteral(": ") + message));
        });
        window.experimentPanel()->setConfig(test::tinyConfig(1));
        UtilityDocument* document = window.utilityDocument();
        QCOMPARE(document->classCount(), 4);
        UtilityEditorPage* editor = window.utilityEditorPage();
        QVERIFY(editor);
        QVERIFY(editor->applyTailSensitive(0.75));

        const QString path = editor->useForTraining();
        QVERIFY2(!path.isEmpty(), qPrintable(editor->message()));
        QCOMPARE(QFileInfo(path).absolutePath(), QDir(AppSettings::runsFolder()).filePath(QStringLiteral("utility")));
        QCOMPARE(lbd::loadUtilityMatrix(path.toStdString(), document->classNameList()), document->matrix());
        QCOMPARE(editor->savedStateText(), QStringLiteral("Saved to %1").arg(path));
        // The panel's TRAINING utility is a copy by value (the run never reads the file again).
        ExperimentPanel* panel = window.experimentPanel();
        lbd::UtilitySetting training = panel->config().objective.utility;
        QVERIFY(training.byValue());
        QCOMPARE(training.matrix, lbd::UtilityMatrix::tailSensitive(4, 0.75));
        QCOMPARE(training.classNames, document->classNameList());
        QVERIFY2(panel->validate().isEmpty(), qPrintable(panel->validationMessage()));

        // A copy: editing the Utility page afterwards changes decisions, not training, until Copy again.
        QVERIFY(editor->applyOneHot());
        QCOMPARE(panel->config().objective.utility.matrix, lbd::UtilityMatrix::tailSensitive(4, 0.75));
        QVERIFY(panel->config().decision.utility.matrix.isOneHot());
        QCOMPARE(editor->savedStateText(), QStringLiteral("Modified since saved to %1").arg(path));
        auto* copy = panel->findChild<QPushButton*>(QStringLiteral("copyTrainingMatrix"));
        QVERIFY(copy);
        QTest::mouseClick(copy, Qt::LeftButton);
        QVERIFY(panel->config().objective.utility.matrix.isOneHot());

        // A copied matrix of another data set is refused by the panel, naming the problem.
        lbd::TrainConfig other = test::tinyConfig(1);
        other.objective.utility = lbd::utilityFromMatrix(lbd::UtilityMatrix::tailSensitive(3, 1.0), {"a", "b", "c"});
        panel->setConfig(other);
        const QString error = panel->validate();
        QVERIFY2(error.contains(QStringLiteral("training utility")), qPrintable(error));
    }

    void trainingUtilityFormAndItsWarning()
    {
        MainWindow window;
        window.resize(1600, 940);
        window.show();
        ExperimentPanel* panel = window.experimentPanel();
        lbd::TrainConfig config = test::tinyConfig(1);
        config.objective.utility = lbd::utilityFromSpec("tail:2");
        config.objective.utilityForm = lbd::UtilityForm::Bounded;
        panel->setConfig(config);
        ObjectiveSection* objective = panel->objectiveSection();
        QVERIFY(objective->trainingWarningText().isEmpty()); // bounded: no warning
        auto* form = panel->findChild<QComboBox*>(QStringLiteral("utilityForm"));
        QVERIFY(form);
        // The forms with core's descriptions as tooltips, bounded first (the default).
        QCOMPARE(form->count(), int(lbd::allUtilityForms().size()));
        for (int i = 0; i < form->count(); ++i) {
            const auto f = lbd::allUtilityForms()[size_t(i)];
            QCOMPARE(form->itemData(i).toInt(), int(f));
            QCOMPARE(form->itemData(i, Qt::ToolTipRole).toString(), QString::fromStdString(lbd::utilityFormDescription(f)));
        }
        form->setCurrentIndex(form->findData(int(lbd::UtilityForm::Paper)));
        QCOMPARE(panel->config().objective.utilityForm, lbd::UtilityForm::Paper);
        QVERIFY2(objective->trainingWarningText().contains(QStringLiteral("unbounded")), qPrintable(objective->trainingWarningText()));
        auto* warning = panel->findChild<QLabel*>(QStringLiteral("trainingUtilityWarning"));
        QVERIFY(warning && !warning->isHidden());
        test::keepScreenshot(objective->parentWidget(), QStringLiteral("panel-objective-warning"));
        // Every page fits a 1618-pixel window with the panel (a 1600-pixel screen, as before the
        // Decision lab grew its controls row).
        QVERIFY2(window.minimumSizeHint().width() <= 1620, qPrintable(QString::number(window.minimumSizeHint().width())));
        test::keepScreenshot(panel->decisionControls()->parentWidget()->parentWidget(), QStringLiteral("panel-decisions"));
        // One-hot training utility: nothing to warn about, whatever the form.
        auto* preset = panel->findChild<QComboBox*>(QStringLiteral("utilityPreset"));
        preset->setCurrentIndex(0);
        QVERIFY(objective->trainingWarningText().isEmpty());
    }

    // The ratio scales the utility term (core's utilityScaleWarning): where the user picks the
    // effective number with a utility term on Fashion-MNIST-LT's counts, the panel says how much
    // stronger the term gets; back to linear, it says nothing.
    void discrepancyRatioWarnsOfTheUtilityTermsScale()
    {
        MainWindow window;
        ExperimentPanel* panel = window.experimentPanel();
        lbd::TrainConfig config = test::tinyConfig(1);
        config.objective.utility = lbd::utilityFromSpec("tail:1");
        panel->setConfig(config);
        ObjectiveSection* objective = panel->objectiveSection();
        objective->setClassCounts({6000, 3596, 2156, 1292, 774, 464, 278, 166, 100, 60});
        auto* ratio = panel->findChild<QComboBox*>(QStringLiteral("discrepancy"));
        QVERIFY(ratio);
        ratio->setCurrentIndex(ratio->findData(int(lbd::DiscrepancyKind::Linear)));
        QVERIFY2(objective->trainingWarningText().isEmpty(), qPrintable(objective->trainingWarningText()));
        ratio->setCurrentIndex(ratio->findData(int(lbd::DiscrepancyKind::EffectiveNumber)));
        QVERIFY2(objective->trainingWarningText().contains(QStringLiteral("239x the linear ratio's")),
                 qPrintable(objective->trainingWarningText()));
        // Summing like linear holds the term's strength: no warning, and the config says so.
        auto* asLinear = panel->findChild<QCheckBox*>(QStringLiteral("ratioAsLinear"));
        QVERIFY(asLinear && !asLinear->toolTip().isEmpty());
        asLinear->setChecked(true);
        QVERIFY2(objective->trainingWarningText().isEmpty(), qPrintable(objective->trainingWarningText()));
        QVERIFY(panel->config().objective.discrepancy.scale == lbd::RatioScale::AsLinear);
        panel->setConfig(panel->config()); // and a config that has it shows it
        QVERIFY(asLinear->isChecked());
        asLinear->setChecked(false);
        ratio->setCurrentIndex(ratio->findData(int(lbd::DiscrepancyKind::Linear)));
        QVERIFY(objective->trainingWarningText().isEmpty());
    }

    void ruleAndDeferAreOneSettingOnEveryPage()
    {
        MainWindow window;
        window.experimentPanel()->setConfig(test::tinyConfig(1));
        UtilityDocument* document = window.utilityDocument();
        QComboBox* boxes[4] = {window.utilityEditorPage()->decisionControls()->ruleBox(),
                               window.decisionLabPage()->ruleBox(), window.classifyPage()->decisionControls()->ruleBox(),
                               window.experimentPanel()->decisionControls()->ruleBox()};
        // The registry's rules, in its order, with its descriptions, on every page.
        for (QComboBox* box : boxes) {
            QCOMPARE(box->count(), int(lbd::decisionRules().size()));
            for (int i = 0; i < box->count(); ++i) {
                const lbd::DecisionRuleInfo& info = lbd::decisionRules()[size_t(i)];
                QCOMPARE(box->itemData(i).toInt(), int(info.rule));
                QCOMPARE(box->itemText(i), QString::fromStdString(info.title));
                QVERIFY(box->itemData(i, Qt::ToolTipRole).toString().contains(QString::fromStdString(info.description)));
            }
            QCOMPARE(box->currentData().toInt(), int(lbd::kDefaultDecisionRule));
        }
        // Changing it on any page changes it on all the others and in the next run's config.
        const lbd::DecisionRule order[4] = {lbd::DecisionRule::Argmax, lbd::DecisionRule::MeanLogit,
                                            lbd::DecisionRule::Eq7, lbd::DecisionRule::Expected};
        for (int page = 0; page < 4; ++page) {
            boxes[page]->setCurrentIndex(boxes[page]->findData(int(order[page])));
            QCOMPARE(document->rule(), order[page]);
            for (QComboBox* box : boxes) {
                QCOMPARE(box->currentData().toInt(), int(order[page]));
            }
            QCOMPARE(window.decisionLabPage()->rule(), order[page]);
            QCOMPARE(window.classifyPage()->rule(), order[page]);
            QCOMPARE(window.experimentPanel()->config().decision.rule, order[page]);
        }
        // The defer utility too: set on Classify, seen by the panel, the lab and the Utility page.
        DecisionControls* classify = window.classifyPage()->decisionControls();
        classify->deferSpin()->setValue(0.4);
        classify->deferBox()->setChecked(true);
        QCOMPARE(document->deferUtility(), std::optional<double>(0.4));
        QCOMPARE(window.experimentPanel()->config().decision.deferUtility, std::optional<double>(0.4));
        QVERIFY(window.decisionLabPage()->decisionControls()->deferBox()->isChecked());
        QCOMPARE(window.utilityEditorPage()->decisionControls()->deferSpin()->value(), 0.4);
        // A rule without a defer option keeps r but does not use it.
        window.decisionLabPage()->setRule(lbd::DecisionRule::MeanLogit);
        QVERIFY(!window.experimentPanel()->decisionControls()->deferBox()->isEnabled());
        QVERIFY(!window.experimentPanel()->config().decision.deferUtility);
        window.decisionLabPage()->setRule(lbd::DecisionRule::Argmax);
        QCOMPARE(window.experimentPanel()->config().decision.deferUtility, std::optional<double>(0.4));
        // The panel records the shared matrix by value with the class names.
        QVERIFY(window.utilityEditorPage()->applyTailSensitive(1.5));
        const lbd::UtilitySetting decision = window.experimentPanel()->config().decision.utility;
        QVERIFY(decision.byValue());
        QCOMPARE(decision.matrix, lbd::UtilityMatrix::tailSensitive(4, 1.5));
        QCOMPARE(decision.classNames, document->classNameList());

        // eq7 with a negative entry: the registry's warning on every page that chooses the rule.
        window.experimentPanel()->decisionControls()->ruleBox()->setCurrentIndex(
            window.experimentPanel()->decisionControls()->ruleBox()->findData(int(lbd::DecisionRule::Eq7)));
        for (DecisionControls* controls :
             {window.utilityEditorPage()->decisionControls(), window.decisionLabPage()->decisionControls(),
              window.classifyPage()->decisionControls(), window.experimentPanel()->decisionControls()}) {
            QVERIFY2(controls->warningText().contains(QStringLiteral("eq7")), qPrintable(controls->warningText()));
        }
        QVERIFY(window.utilityEditorPage()->applyOneHot()); // no negative entry: no warning
        QVERIFY(window.decisionLabPage()->decisionControls()->warningText().isEmpty());
    }

    void labPresetsDoNotReplaceASavedMatrixSilently()
    {
        MainWindow window;
        window.experimentPanel()->setConfig(test::tinyConfig(1));
        UtilityDocument* document = window.utilityDocument();
        UtilityEditorPage* editor = window.utilityEditorPage();
        DecisionLabPage* lab = window.decisionLabPage();
        // The user's tail-sensitive(2) matrix, saved to a file.
        QVERIFY(editor->applyTailSensitive(2.0));
        const QString file = m_dir.filePath(QStringLiteral("tail2.csv"));
        QVERIFY(editor->exportFile(file));
        QCOMPARE(editor->savedStateText(), QStringLiteral("Saved to %1").arg(file));
        // The lab's c shows the matrix's c, not a value of its own.
        QCOMPARE(lab->tailPenalty()->value(), 2.0);
        QVERIFY(lab->presetNotice().isEmpty());

        // The lab's One-hot preset replaces it: visibly on both pages, and undoably.
        QTest::mouseClick(lab->oneHotButton(), Qt::LeftButton);
        QVERIFY(document->matrix().isOneHot());
        QCOMPARE(editor->savedStateText(), QStringLiteral("Modified since saved to %1").arg(file));
        QVERIFY2(lab->presetNotice().contains(QStringLiteral("tail-sensitive (c = 2)")), qPrintable(lab->presetNotice()));
        QVERIFY2(lab->presetNotice().contains(QStringLiteral("Saved to")), qPrintable(lab->presetNotice()));
        QVERIFY(lab->undoPresetButton()->isVisible() || !lab->isVisible());
        QTest::mouseClick(lab->undoPresetButton(), Qt::LeftButton);
        QCOMPARE(document->matrix(), lbd::UtilityMatrix::tailSensitive(4, 2.0));
        QCOMPARE(editor->savedStateText(), QStringLiteral("Saved to %1").arg(file));
        QVERIFY(lab->presetNotice().isEmpty());

        // Its tail preset with another c: the same, and the undo step is the Utility page's too.
        lab->tailPenalty()->setValue(0.5);
        QTest::mouseClick(lab->tailButton(), Qt::LeftButton);
        QCOMPARE(document->matrix(), lbd::UtilityMatrix::tailSensitive(4, 0.5));
        QCOMPARE(editor->savedStateText(), QStringLiteral("Modified since saved to %1").arg(file));
        editor->undoAction()->trigger();
        QCOMPARE(document->matrix(), lbd::UtilityMatrix::tailSensitive(4, 2.0));
        // An edit on the Utility page moves the lab's c with it.
        QVERIFY(editor->applyTailSensitive(3.0));
        QCOMPARE(lab->tailPenalty()->value(), 3.0);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestUtilityEditor)
#include "test_utilityeditor.moc"
