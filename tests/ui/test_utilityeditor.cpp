// The Utility page: painting a cell and a drag stroke with the mouse, shift-drag and region
// blocks, presets, undo / redo (also by keyboard), CSV and JSON round trips through core's io,
// refused files (wrong size, non-finite) that leave the matrix alone, a 100-class matrix (zoom,
// tooltips, values only in big cells) and "Use for training" feeding the experiment panel.
#include "tests/ui/uitestsupport.h"
#include "ui/mainwindow.h"
#include "ui/panels/experimentpanel.h"
#include "ui/utility/utilitydocument.h"
#include "ui/utility/utilityeditorpage.h"
#include "ui/utility/utilityheatmap.h"

#include <QAbstractButton>
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
        QCOMPARE(QString::fromStdString(window.experimentPanel()->config().objective.utility.spec), path);
        QVERIFY2(window.experimentPanel()->validate().isEmpty(), qPrintable(window.experimentPanel()->validationMessage()));

        // A file that does not fit the data set is refused by the panel, naming it.
        const QString bad = m_dir.filePath(QStringLiteral("bad-utility.csv"));
        writeText(bad, "1,0\n0,1\n");
        window.experimentPanel()->setUtilityFile(bad);
        const QString error = window.experimentPanel()->validate();
        QVERIFY2(error.contains(QStringLiteral("bad-utility.csv")), qPrintable(error));
        window.experimentPanel()->setUtilityFile(path);
        QVERIFY(window.experimentPanel()->validate().isEmpty());
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestUtilityEditor)
#include "test_utilityeditor.moc"
