// The model section's "Start from" (model.init_from, ui/panels/startfromrow.h): the tooltip says
// what is loaded and what is replaced; a file that does not fit the model is refused where it is
// chosen (the reason in the panel, the previous choice kept), one that fits is taken and reaches
// the config; an earlier run is chosen by its folder; Scratch clears it; a later change of the
// particle count that the file no longer fits is said at once.
#include "core/model/modelfactory.h"
#include "core/train/pythonexport.h"
#include "tests/ui/uitestsupport.h"
#include "ui/panels/objectivesection.h"
#include "ui/panels/startfromrow.h"

#include <QComboBox>
#include <QLabel>
#include <QSpinBox>
#include <QtTest>

using namespace lbd::ui;

class TestStartFrom : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_weights; // a 2-particle smallcnn run's weights.pt, in a run folder

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir(m_dir.path()).mkpath("run"));
        m_weights = m_dir.filePath("run/weights.pt");
        lbd::TrainConfig config = test::tinyConfig();
        lbd::ModelSpec spec = config.model;
        spec.inputChannels = 1;
        spec.numClasses = 4;
        spec.inputSize = 16;
        lbd::ParticleModel model = lbd::makeParticleModel(spec);
        lbd::exportPythonWeights(m_weights.toStdString(), *model, {"a", "b", "c", "d"}, spec, lbd::Normalization{{0.5f}, {0.25f}});
    }

    void tooltipSaysWhatIsLoadedAndReplaced()
    {
        ObjectiveSection section;
        auto* box = section.findChild<QComboBox*>(QStringLiteral("startFrom"));
        QVERIFY(box);
        const QString tip = box->toolTip();
        for (const char* fragment : {"torchvision ResNet-50", "copied into every particle", "fc is not loaded",
                                     "the cosine classifier is replaced", "summed over the colour channels", "weights.pt"}) {
            QVERIFY2(tip.contains(QLatin1String(fragment)), fragment);
        }
    }

    void incompatibleFileRefusedWhereChosen()
    {
        ObjectiveSection section;
        lbd::TrainConfig config = test::tinyConfig();
        config.model.arch = "resnet32";
        section.load(config);
        auto* row = section.findChild<StartFromRow*>();
        auto* box = section.findChild<QComboBox*>(QStringLiteral("startFrom"));
        QVERIFY(row && box);
        QSignalSpy changed(&section, &ObjectiveSection::changed);
        row->setChooser([this](StartFromRow::Choice) { return m_weights; });
        box->setCurrentIndex(StartFromRow::File);
        emit box->activated(StartFromRow::File); // what a user's choice sends
        QVERIFY2(row->message().contains(QStringLiteral("Refused")) && row->message().contains(QStringLiteral("model.arch is resnet32")),
                 qPrintable(row->message()));
        QVERIFY(section.findChild<QLabel*>(QStringLiteral("startFromStatus"))->isVisibleTo(&section));
        QCOMPARE(box->currentIndex(), int(StartFromRow::Scratch)); // the previous choice stays
        QCOMPARE(changed.count(), 0);
        lbd::TrainConfig out;
        section.apply(out);
        QVERIFY(out.model.initFrom.empty());

        // Not a torch.save file at all.
        QFile text(m_dir.filePath("notes.pt"));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("just text\n");
        text.close();
        QVERIFY(!row->choose(StartFromRow::File, text.fileName()));
        QVERIFY2(row->message().contains(QStringLiteral("not a zip archive")), qPrintable(row->message()));
    }

    void fittingFileAndRunAreTaken()
    {
        ObjectiveSection section;
        section.load(test::tinyConfig()); // smallcnn, 2 particles: the file's
        auto* row = section.findChild<StartFromRow*>();
        auto* box = section.findChild<QComboBox*>(QStringLiteral("startFrom"));
        QSignalSpy changed(&section, &ObjectiveSection::changed);
        QVERIFY2(row->choose(StartFromRow::File, m_weights), qPrintable(row->message()));
        QVERIFY(row->message().contains(QStringLiteral("an LBD run's weights")));
        QCOMPARE(changed.count(), 1);
        lbd::TrainConfig out;
        section.apply(out);
        QCOMPARE(QString::fromStdString(out.model.initFrom), m_weights);
        QCOMPARE(box->currentText(), QStringLiteral("weights.pt"));

        // An earlier run: its folder.
        row->setChooser([this](StartFromRow::Choice choice) { return choice == StartFromRow::Run ? m_dir.filePath("run") : QString(); });
        box->setCurrentIndex(StartFromRow::Run);
        emit box->activated(StartFromRow::Run);
        section.apply(out);
        QCOMPARE(QString::fromStdString(out.model.initFrom), m_dir.filePath("run"));
        QVERIFY(box->currentText().contains(QStringLiteral("run")));

        // The particle count changes: the file no longer fits, which is said at once.
        section.findChild<QSpinBox*>(QStringLiteral("particles"))->setValue(3);
        QVERIFY2(row->message().contains(QStringLiteral("Does not fit")) && row->message().contains(QStringLiteral("2 particles")),
                 qPrintable(row->message()));

        // Scratch clears it; a config's path comes back with load().
        box->setCurrentIndex(StartFromRow::Scratch);
        emit box->activated(StartFromRow::Scratch);
        section.apply(out);
        QVERIFY(out.model.initFrom.empty());
        lbd::TrainConfig saved = test::tinyConfig();
        saved.model.initFrom = m_weights.toStdString();
        section.load(saved);
        section.apply(out);
        QCOMPARE(QString::fromStdString(out.model.initFrom), m_weights);
    }
};

QTEST_MAIN(TestStartFrom)
#include "test_startfrom.moc"
