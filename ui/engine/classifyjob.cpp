#include "ui/engine/classifyjob.h"

#include "core/infer/calibratedprediction.h"
#include "core/infer/predictor.h"
#include "datasets/common/pngchunks.h"

#include <QFile>

#include <exception>
#include <vector>

namespace lbd::ui {

QImage thumbnailOf(const QImage& image)
{
    return image.width() > kThumbnailSide || image.height() > kThumbnailSide
               ? image.scaled(kThumbnailSide, kThumbnailSide, Qt::KeepAspectRatio, Qt::SmoothTransformation)
               : image;
}

QImage readImageQuietly(const QString& path, const QByteArray& encoded)
{
    QByteArray bytes = encoded;
    if (bytes.isEmpty()) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            return {};
        }
        bytes = file.readAll();
    }
    const std::vector<uint8_t> clean =
        lbd::withoutAncillaryPngChunks(reinterpret_cast<const uint8_t*>(bytes.constData()), size_t(bytes.size()));
    QImage image;
    image.loadFromData(clean.data(), int(clean.size()));
    return image;
}

ClassifyResult runClassifyJob(const ClassifyJob& job)
{
    ClassifyResult result;
    try {
        lbd::Predictor& predictor = *job.predictor;
        // The worker owns the predictor between jobs: matrix, rule and r are set per job (r off
        // first: the predictor refuses a rule without a defer option while r is set).
        if (job.utility) {
            predictor.setUtility(*job.utility);
        }
        predictor.setDeferUtility(std::nullopt);
        predictor.setRule(job.rule);
        predictor.setDeferUtility(job.deferUtility);
        if (job.encoded.isEmpty()) {
            result.prediction = predictor.predictFile(job.source.toStdString(), job.classes);
        } else {
            const std::vector<uint8_t> bytes(job.encoded.begin(), job.encoded.end());
            result.prediction = predictor.predictBytes(bytes, job.source.toStdString(), job.classes);
        }
        if (job.temperature) {
            result.prediction = lbd::calibratedPrediction(result.prediction, *job.temperature, predictor.utility(), job.rule,
                                                          job.deferUtility);
            result.temperature = job.temperature;
        }
        result.ok = true;
        if (job.needThumbnail) {
            if (const QImage image = readImageQuietly(job.source, job.encoded); !image.isNull()) {
                result.thumbnail = thumbnailOf(image);
            }
        }
    } catch (const std::exception& e) {
        result.error = QString::fromUtf8(e.what());
    }
    return result;
}

std::shared_ptr<lbd::Predictor> openPredictor(const std::string& runDirectory)
{
    return std::make_shared<lbd::Predictor>(runDirectory, "cpu");
}

QStringList qStringList(const std::vector<std::string>& texts)
{
    QStringList list;
    for (const std::string& text : texts) {
        list << QString::fromStdString(text);
    }
    return list;
}

} // namespace lbd::ui
