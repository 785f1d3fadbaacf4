#include "ui/panels/durationestimate.h"

#include <QLocale>
#include <QSettings>

#include <cmath>

namespace lbd::ui {
namespace {

QString speedKey(const lbd::TrainConfig& config)
{
    // One speed per way of training: the device, the network and what changes its cost most.
    return QStringLiteral("speed/%1_%2_M%3_%4px_b%5")
        .arg(QString::fromStdString(config.train.device), QString::fromStdString(config.model.arch))
        .arg(config.model.particles)
        .arg(config.augment.outputSize)
        .arg(config.train.batchSize)
        .replace(QLatin1Char(':'), QLatin1Char('-'));
}

// Training images per second on the 2-core development CPU (AMD EPYC, LibTorch 1.13) for 3
// particles at 32x32: the quick-cpu preset's small CNN (docs/results/speed.md, 4,000-5,400) and
// ResNet-32 (the 200-epoch recipe took about 46 h there: issue 14).
double referenceCpuSpeed(const std::string& arch)
{
    if (arch == "smallcnn") {
        return 4700;
    }
    if (arch == "resnet32") {
        return 18;
    }
    return 0;
}

} // namespace

DurationEstimate DurationEstimator::estimate(const lbd::TrainConfig& config, int64_t trainImages)
{
    DurationEstimate result;
    const double recorded = QSettings().value(speedKey(config)).toDouble();
    if (recorded > 0) {
        result.imagesPerSecond = recorded;
        result.recorded = true;
    } else if (config.train.device == "cpu") {
        const double side = double(std::max<int64_t>(1, config.augment.outputSize));
        result.imagesPerSecond = referenceCpuSpeed(config.model.arch) * 3.0 / double(std::max<int64_t>(1, config.model.particles))
                                 * (32.0 * 32.0) / (side * side);
    }
    if (result.imagesPerSecond > 0 && trainImages > 0) {
        result.seconds = double(config.train.epochs) * double(trainImages) / result.imagesPerSecond;
    }
    return result;
}

void DurationEstimator::recordSpeed(const lbd::TrainConfig& config, double imagesPerSecond)
{
    if (imagesPerSecond > 0 && std::isfinite(imagesPerSecond)) {
        QSettings().setValue(speedKey(config), imagesPerSecond);
    }
}

QString DurationEstimator::formatDuration(double seconds)
{
    if (seconds < 90) {
        return QObject::tr("%1 s").arg(std::max(1.0, std::round(seconds)));
    }
    if (seconds < 90 * 60) {
        return QObject::tr("%1 min").arg(std::round(seconds / 60));
    }
    return QObject::tr("%1 h").arg(seconds / 3600, 0, 'f', seconds < 10 * 3600 ? 1 : 0);
}

QString DurationEstimator::shortText(const lbd::TrainConfig& config, int64_t trainImages)
{
    const DurationEstimate e = estimate(config, trainImages);
    return e.seconds < 0 ? QObject::tr("duration unknown") : QStringLiteral("~") + formatDuration(e.seconds);
}

QString DurationEstimator::text(const lbd::TrainConfig& config, int64_t trainImages)
{
    const DurationEstimate e = estimate(config, trainImages);
    const QString device = QString::fromStdString(config.train.device);
    if (e.seconds < 0) {
        return trainImages > 0 ? QObject::tr("Estimated duration: unknown until a run on %1 has recorded its speed (the "
                                             "progress bar shows the ETA after the first batches).")
                                     .arg(device)
                               : QString();
    }
    const QLocale locale;
    const QString basis = e.recorded ? QObject::tr("the speed recorded by the last such run on %1").arg(device)
                                     : QObject::tr("a reference speed of a 2-core CPU; yours may differ");
    return QObject::tr("Estimated duration: about %1 of training (%2 epochs x %3 images at ~%4 img/s, %5; "
                       "evaluations add to it).")
        .arg(formatDuration(e.seconds))
        .arg(config.train.epochs)
        .arg(locale.toString(qlonglong(trainImages)))
        .arg(locale.toString(e.imagesPerSecond, 'f', 0))
        .arg(basis);
}

} // namespace lbd::ui
