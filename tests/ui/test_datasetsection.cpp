// The experiment panel's data set section (ui/panels/datasetsection): its list is the catalogue
// (a format registered at run time included), the rows shown are those the entry's settings use,
// and the class-count chart previews from the entry's descriptor.
#include "datasets/catalogue.h"
#include "tests/datasets/dummydataset.h"
#include "ui/panels/datasetsection.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QtTest>

using namespace lbd::ui;

class TestDatasetSection : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { lbd::registerDataset(lbd::test::dummyDatasetEntry()); }

    void listsEveryCatalogueEntry()
    {
        DatasetSection section;
        auto* list = section.findChild<QComboBox*>(QStringLiteral("datasetKind"));
        QVERIFY(list != nullptr);
        const auto entries = lbd::datasetEntries();
        QCOMPARE(list->count(), int(entries.size()));
        for (int i = 0; i < list->count(); ++i) {
            QCOMPARE(list->itemData(i).toString().toStdString(), entries[size_t(i)]->name);
            QCOMPARE(list->itemText(i).toStdString(), entries[size_t(i)]->title);
        }
        QCOMPARE(list->itemText(list->count() - 1), QStringLiteral("Dummy flat images"));
    }

    void aRegisteredFormatIsChosenAndPreviewed()
    {
        DatasetSection section;
        lbd::DataSpec spec;
        spec.dataset = lbd::test::kDummyDataset;
        spec.longTail.imbalanceRatio = 4;
        section.load(spec);
        lbd::DataSpec applied;
        section.apply(applied);
        QCOMPARE(applied.dataset, std::string(lbd::test::kDummyDataset));
        QCOMPARE(section.classNames(), (QStringList{"dark", "mid", "light"}));
        QCOMPARE(section.trainCounts(), (std::vector<int64_t>{40, 20, 10}));
        // It reads no directory: the directory row is disabled.
        QVERIFY(!section.findChild<QLineEdit*>(QStringLiteral("datasetDirectory"))->isEnabled());
    }

    void rowsFollowTheEntrysSettings()
    {
        DatasetSection section;
        lbd::DataSpec spec;
        spec.dataset = "list";
        section.load(spec);
        QVERIFY(!section.findChild<QLineEdit*>(QStringLiteral("trainList"))->isHidden());
        QVERIFY(!section.findChild<QLineEdit*>(QStringLiteral("trainList"))->parentWidget()->isHidden());
        QVERIFY(!section.findChild<QSpinBox*>(QStringLiteral("imageSize"))->isHidden());
        QVERIFY(section.findChild<QSpinBox*>(QStringLiteral("syntheticClasses"))->parentWidget()->isHidden());
        QCOMPARE(section.findChild<QLineEdit*>(QStringLiteral("datasetDirectory"))->placeholderText(), QStringLiteral("required"));
        spec.dataset = "synthetic";
        section.load(spec);
        QVERIFY(section.findChild<QLineEdit*>(QStringLiteral("trainList"))->parentWidget()->isHidden());
        QVERIFY(section.findChild<QSpinBox*>(QStringLiteral("imageSize"))->isHidden());
        QVERIFY(!section.findChild<QSpinBox*>(QStringLiteral("syntheticClasses"))->parentWidget()->isHidden());
        spec.dataset = "fashion-mnist";
        section.load(spec);
        QCOMPARE(section.findChild<QLineEdit*>(QStringLiteral("datasetDirectory"))->placeholderText(),
                 QStringLiteral("default location"));
        QCOMPARE(section.classNames().front(), QStringLiteral("T-shirt/top"));
    }
};

QTEST_MAIN(TestDatasetSection)
#include "test_datasetsection.moc"
