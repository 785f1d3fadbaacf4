#pragma once
// One Classify request, run on the Classify page's one-thread pool: the run's predictor decides
// the image under the shared matrix, rule and defer utility, and a thumbnail is made for the list.
// Value types in and out; the predictor is only ever used by that one worker thread (it keeps
// the matrix, rule and r it was last given, so two threads must not share it).
#include <QByteArray>
#include <QImage>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/eval/decisionrule.h"
#include "core/infer/prediction.h"
#include "core/lbd/utilitymatrix.h"

namespace lbd {
class Predictor;
}

namespace lbd::ui {

struct ClassifyJob {
    std::shared_ptr<lbd::Predictor> predictor;
    std::optional<lbd::UtilityMatrix> utility; // nothing: the predictor's current (the run's) matrix
    lbd::DecisionRule rule = lbd::kDefaultDecisionRule;
    std::optional<double> deferUtility;
    // Calibrated: pbar = softmax(log pbar / T) before the decision (core/infer/calibratedprediction.h).
    std::optional<double> temperature;
    QString source;      // a file, or the label of `encoded`
    QByteArray encoded;  // PNG bytes of a pasted image (empty for files)
    bool needThumbnail = false;
    int classes = 0;     // top-k = every class
};

struct ClassifyResult {
    bool ok = false;
    lbd::Prediction prediction;
    std::optional<double> temperature; // the T the prediction was calibrated with
    QString error;
    QImage thumbnail;
};

// The largest side of a list thumbnail.
inline constexpr int kThumbnailSide = 320;
QImage thumbnailOf(const QImage& image);
// The image of a file (`encoded` empty) or of encoded bytes, read by Qt without the PNG chunks
// whose damage libpng reports on stderr (datasets/common/pngchunks.h); null when unreadable.
QImage readImageQuietly(const QString& path, const QByteArray& encoded);

// Never throws: a failure (an unreadable file, a refused setting) is ClassifyResult::error.
ClassifyResult runClassifyJob(const ClassifyJob& job);

// Opens the run's predictor on the CPU; throws (lbd::InputError naming the file) when the run
// cannot be opened.
std::shared_ptr<lbd::Predictor> openPredictor(const std::string& runDirectory);

QStringList qStringList(const std::vector<std::string>& texts);

} // namespace lbd::ui
