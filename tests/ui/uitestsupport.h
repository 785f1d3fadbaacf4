#pragma once
// Shared set-up of the GUI tests: settings and runs folder in a temporary directory, and a tiny
// synthetic run that trains in seconds on two CPU cores.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtTest>
#include <QDirIterator>
#include <QEvent>
#include <QSettings>
#include <QTemporaryDir>
#include <QWidget>

#include "core/train/configjson.h"
#include "core/train/trainconfig.h"
#include "ui/app/appsettings.h"

#include <nlohmann/json.hpp>

#include <string>

namespace lbd::ui::test {

// Counts the paint events a widget receives, so a test waits for a paint, not for a delay.
class PaintCounter final : public QObject {
public:
    explicit PaintCounter(QWidget* widget) { widget->installEventFilter(this); }
    int count() const { return m_count; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        m_count += event->type() == QEvent::Paint ? 1 : 0;
        return QObject::eventFilter(watched, event);
    }

private:
    int m_count = 0;
};

// Call from initTestCase(): QSettings, core's settings file and the runs folder go into `dir`
// (and $LBD_RUNS_DIR, which would win over the chosen folder, is cleared).
inline void isolateSettings(const QTemporaryDir& dir)
{
    qputenv("LBD_CONFIG_DIR", dir.filePath(QStringLiteral("config")).toUtf8());
    qunsetenv("LBD_RUNS_DIR");
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.filePath(QStringLiteral("settings")));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath(QStringLiteral("settings")));
    QCoreApplication::setOrganizationName(QStringLiteral("LBDStudioTest"));
    QCoreApplication::setApplicationName(QStringLiteral("lbd-studio-test"));
    AppSettings::setRunsFolder(dir.filePath(QStringLiteral("runs")));
}

// The device the GUI tests that train from the panel (Start, the live pages, Stop, Continue) use:
// the CPU, or $LBD_TEST_DEVICE (tools/gpu/gui.sh cuda sets cuda:0 on the GPU machine). Fixture runs
// that other tests read stay on the CPU: their assertions rest on numbers checked on a CPU-trained
// tiny model (a model trained on a GPU decides a different handful of images).
inline std::string testDevice()
{
    const QByteArray device = qgetenv("LBD_TEST_DEVICE");
    return device.isEmpty() ? std::string("cpu") : device.toStdString();
}

// 4 classes of 16x16 shapes, 2 particles of the small CNN, evaluation every epoch, on the CPU.
inline lbd::TrainConfig tinyConfig(int epochs = 2, int64_t trainPerClass = 48)
{
    lbd::TrainConfig c;
    c.name = "tiny";
    c.data.dataset = "synthetic";
    c.data.synthetic.classes = 4;
    c.data.synthetic.trainPerClass = trainPerClass;
    c.data.synthetic.testPerClass = 12;
    c.data.synthetic.channels = 3;
    c.data.synthetic.size = 16;
    c.data.synthetic.seed = 1;
    c.data.channels = 3;
    c.data.longTail.imbalanceRatio = 4;
    c.augment.outputSize = 16;
    c.augment.padding = 2;
    c.model.arch = "smallcnn";
    c.model.particles = 2;
    c.objective.drwEpoch = 1;
    c.objective.tau = 2;
    c.optimizer.learningRate = 0.05;
    c.optimizer.warmupEpochs = 0;
    c.optimizer.decayEpochs.clear();
    c.optimizer.decayFactors.clear();
    c.train.epochs = epochs;
    c.train.batchSize = 16;
    c.train.evalEvery = 1;
    c.train.device = "cpu";
    c.train.threads = 1; // leave a core to the GUI thread on small CI machines
    c.objective.utility = lbd::utilityFromSpec("tail:1");
    c.decision.utility = lbd::utilityFromSpec("tail:1");
    return c;
}

// tinyConfig on the test device: for the tests that train from the panel.
inline lbd::TrainConfig tinyConfigOnTestDevice(int epochs = 2, int64_t trainPerClass = 48)
{
    lbd::TrainConfig c = tinyConfig(epochs, trainPerClass);
    c.train.device = testDevice();
    return c;
}

// Files under `dir` whose name contains `part` (checkpoints may live in a sub-folder).
inline QStringList filesMatching(const QString& dir, const QString& part)
{
    QStringList found;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (QFileInfo(path).fileName().contains(part)) {
            found << path;
        }
    }
    return found;
}

// Optional: LBD_TEST_SCREENSHOTS=<dir> keeps a picture of what a test saw.
inline void keepScreenshot(QWidget* widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("LBD_TEST_SCREENSHOTS");
    if (!dir.isEmpty()) {
        QDir().mkpath(dir);
        widget->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
    }
}

// Writes `text` to `path`, creating its folder.
inline void writeText(const QString& path, const std::string& text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text.data(), qint64(text.size()));
}

// The files that describe a run folder without its tensors (config.json, run.json, status.json),
// for a tiny config trained with `seed` as `lbd train --seed` leaves it: the seeds of the data, the
// synthetic images and the training all follow it.
inline void writeRunDescription(const QString& dir, const std::string& name, int seed, int particles,
                                const std::string& state = "finished", const std::string& message = {})
{
    lbd::TrainConfig config = tinyConfig();
    config.name = name;
    config.model.particles = particles;
    config.data.longTail.seed = seed;
    config.data.synthetic.seed = seed;
    config.train.seed = seed;
    writeText(dir + "/config.json", lbd::toJson(config).dump(2));
    writeText(dir + "/run.json", nlohmann::json{{"dataset", "synthetic"}, {"device", "cpu"}, {"created", "2025-01-01T00:00:00Z"},
                                                {"class_names", {"a", "b", "c", "d"}}}
                                     .dump());
    writeText(dir + "/status.json",
              nlohmann::json{{"state", state}, {"epochs_done", 2}, {"epochs", 2}, {"message", message}}.dump());
}

} // namespace lbd::ui::test
