// One protocol truth (issue 35 item 4): for every built-in preset the experiment panel trains
// exactly the config `lbd train --preset X` resolves (same JSON), and the panel's protocol line and
// the status bar at Start name the same protocol, through the same function. A paper preset
// changed to hold out a validation split is an app run, and both say why. Offscreen.
#include "core/train/configjson.h"
#include "core/train/presets.h"
#include "core/util/device.h"
#include "datasets/catalogue.h"
#include "tests/ui/uitestsupport.h"
#include "ui/app/appsettings.h"
#include "ui/app/mainwindow.h"
#include "ui/app/sessionstate.h"
#include "ui/panels/experimentpanel.h"
#include "ui/style/decisionruletext.h"
#include "ui/training/trainingcontroller.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace lbd::ui;

namespace {

// The keys whose values differ, "data.val_fraction: 0.1 vs 0", for a readable failure.
void differences(const nlohmann::json& a, const nlohmann::json& b, const std::string& at, QStringList& out)
{
    if (a.is_object() && b.is_object()) {
        for (const auto& item : a.items()) {
            differences(item.value(), b.contains(item.key()) ? b.at(item.key()) : nlohmann::json(), at + "." + item.key(), out);
        }
        for (const auto& item : b.items()) {
            if (!a.contains(item.key())) {
                out << QString::fromStdString(at + "." + item.key() + ": missing vs " + item.value().dump());
            }
        }
    } else if (a != b) {
        out << QString::fromStdString(at + ": " + a.dump() + " vs " + b.dump());
    }
}

// What `lbd train --preset NAME` trains (app/cli/cmd_train.cpp: the preset's JSON, no overrides).
lbd::TrainConfig cliConfig(const std::string& name)
{
    nlohmann::json json = lbd::loadPresetJson(name);
    // A data set without a folder found here (CIFAR, ImageNet-LT) needs `--data-dir`, which the CLI
    // requires; the panel asks for it before Start (ui/panels/presetlibrary.cpp).
    const bool needsFolder = lbd::datasetEntry(json["data"].value("dataset", std::string())).requiresDirectory()
        && json["data"].value("data_dir", std::string()).empty();
    if (needsFolder) {
        json["data"]["data_dir"] = ".";
    }
    lbd::TrainConfig config = lbd::trainConfigFromJson(json, "preset");
    if (needsFolder) {
        config.data.directory.clear();
    }
    // "auto" is the device the engine resolves it to (core/util/device.h), which the panel's
    // device list shows and records: the same device trains.
    config.train.device = lbd::parseDevice(config.train.device).str();
    return config;
}

QString protocolLine(MainWindow& window)
{
    auto* label = window.experimentPanel()->findChild<QLabel*>(QStringLiteral("protocolLine"));
    return label ? label->text() : QStringLiteral("(no protocol line)");
}

} // namespace

class TestProtocolLabel : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateSettings(m_dir); }

    void everyPresetTrainsWhatTheCommandLineTrains()
    {
        const auto presets = lbd::listPresets();
        QVERIFY(presets.size() >= 9);
        for (const auto& preset : presets) {
            MainWindow window;
            ExperimentPanel* panel = window.experimentPanel();
            QVERIFY2(panel->selectPreset(QString::fromStdString(preset.name)), preset.name.c_str());
            const lbd::TrainConfig gui = panel->config();
            lbd::TrainConfig cli;
            try {
                cli = cliConfig(preset.name);
            } catch (const std::exception& error) {
                QFAIL(qPrintable(QString::fromStdString(preset.name) + QStringLiteral(": ") + QString::fromUtf8(error.what())));
            }
            QStringList diff;
            differences(lbd::toJson(gui), lbd::toJson(cli), preset.name, diff);
            QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QStringLiteral("\n"))));
            QCOMPARE(gui.protocol, cli.protocol);
            // The protocol line is the status bar's text of these settings.
            const QString text = panel->protocolText();
            QCOMPARE(protocolLine(window), QStringLiteral("Protocol: %1.").arg(text));
            QCOMPARE(text, runDecisionText(cli));
            if (cli.protocol != lbd::Protocol::App) {
                QVERIFY2(text.startsWith(QStringLiteral("protocol ") + QString::fromStdString(lbd::protocolName(cli.protocol))),
                         qPrintable(text));
            }
            QVERIFY2(!panel->validationMessage().contains(QStringLiteral("Settings changed")), qPrintable(panel->validationMessage()));
        }
    }

    // The issue's case: a session that decided by expected utility, then `lbd-studio --preset
    // fashion-mnist-lt --epochs 30`. The preset's rule and split win, the line and the status bar
    // at Start say paper-standard, and the run holds out nothing (the CLI's 14,886 images).
    void theIssuesSessionStartsPaperStandard()
    {
        AppSettings::setDecisions(QString(), QStringLiteral("expected"), std::nullopt);
        AppSettings::setLastPreset(QStringLiteral("fashion-mnist-lt"), true);
        MainWindow window;
        window.setErrorReporter([](const QString&, const QString& message) { QFAIL(qPrintable(message)); });
        SessionState::restore(window);
        ExperimentPanel* panel = window.experimentPanel();
        QVERIFY(panel->selectPreset(QStringLiteral("fashion-mnist-lt")));
        lbd::TrainConfig config = panel->config(); // app/studio/main.cpp's --epochs
        config.train.epochs = 30;
        panel->setConfig(config);
        const lbd::TrainConfig started = panel->config();
        QCOMPARE(started.protocol, lbd::Protocol::PaperStandard);
        QCOMPARE(started.data.longTail.validationFraction, 0.0);
        QCOMPARE(started.decision.rule, lbd::DecisionRule::MeanLogit);
        QVERIFY2(protocolLine(window).startsWith(QStringLiteral("Protocol: protocol paper-standard")), qPrintable(protocolLine(window)));

        // Held-out validation images make it an app run: the panel and the status bar say so alike.
        auto* validation = panel->findChild<QDoubleSpinBox*>(QStringLiteral("validationFraction"));
        QVERIFY(validation);
        validation->setValue(10.0);
        panel->validate();
        QCOMPARE(panel->config().protocol, lbd::Protocol::App);
        const QString text = panel->protocolText();
        QVERIFY2(text.startsWith(QStringLiteral("protocol app, not paper-standard (")) && text.contains(QStringLiteral("data.val_fraction is 0.1")),
                 qPrintable(text));
        QCOMPARE(protocolLine(window), QStringLiteral("Protocol: %1.").arg(text));
        QVERIFY2(panel->validationMessage().isEmpty(), qPrintable(panel->validationMessage())); // a warning, not an error

        // Start: the status bar names the same protocol (stopped at once; nothing needs to train).
        lbd::TrainConfig quick = panel->config();
        quick.data.dataset = "synthetic";
        quick.data.synthetic = test::tinyConfig().data.synthetic;
        quick.data.channels = 3;
        quick.model.arch = "smallcnn";
        quick.augment.outputSize = 16;
        quick.augment.padding = 2;
        quick.train.device = "cpu";
        quick.train.epochs = 1;
        lbd::TrainConfig named = quick;
        named.protocol = lbd::Protocol::PaperStandard;
        panel->setConfig(named); // loaded as paper-standard, with the 10 % hold-out: an app run
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QVERIFY(window.startTraining());
        auto* status = window.findChild<QLabel*>(QStringLiteral("runFolderLabel"));
        QVERIFY(status);
        const QString line = panel->protocolText();
        QVERIFY2(status->text().endsWith(QStringLiteral("(%1)").arg(line)), qPrintable(status->text() + QStringLiteral(" / ") + line));
        QVERIFY2(line.startsWith(QStringLiteral("protocol app, not paper-standard")), qPrintable(line));
        window.stopTraining();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    }
};

QTEST_MAIN(TestProtocolLabel)
#include "test_protocollabel.moc"
