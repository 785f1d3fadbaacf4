#pragma once
// Everything the Disagreement gallery shows about one run, computed once off the GUI thread
// (loadGallery) and then only read: the cached test probabilities, every image's uncertainty,
// its decision under the run's own rule, its loss, the three sort orders, the class regions and
// the test images.
#include <QImage>
#include <QString>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/data/regions.h"
#include "core/infer/runresults.h"

namespace lbd::ui {

enum class GallerySortKey { MutualInformation = 0, VoteDisagreement = 1, TopLoss = 2 };

// Tiles are added to the view this many at a time as it scrolls.
inline constexpr int kGalleryTilesPerFetch = 200;

// Everything the gallery shows, computed once per run off the GUI thread and then only read.
struct GalleryData {
    std::shared_ptr<const lbd::RunResults> results;
    std::vector<lbd::ImageUncertainty> uncertainty; // per test image
    std::vector<int64_t> byInformation;             // image indices, mutual information decreasing
    std::vector<int64_t> byVotes;                   // vote disagreement decreasing (ties: MI decreasing)
    std::vector<int64_t> byLoss;                    // loss decreasing
    // Under the run's own decision matrix and rule, undeferred: the "decided" of the report's
    // confusion matrix, so a confusion cell lists exactly its images.
    std::vector<int64_t> decided;
    std::vector<double> loss;                       // -log max(pbar[true class], 1e-12), nats
    std::vector<lbd::Region> classRegion;           // thirds by class index
    std::shared_ptr<const lbd::TestImages> images;  // null when the data set could not be read
    QString imageError;

    QString className(int64_t c) const
    {
        return c >= 0 && c < results->classes ? QString::fromStdString(results->classNames[size_t(c)])
                                              : QString::number(c);
    }
};

// Throws (lbd::InputError naming the file) when the run's results cannot be read; test images
// that cannot be read leave GalleryData::images null and say why in imageError.
std::shared_ptr<const GalleryData> loadGallery(const std::string& directory);

// Test image n as a QImage that owns its pixels.
QImage galleryImage(const lbd::TestImages& images, int64_t n);

// One class the particles voted for on an image (their top-1), as a tile names it: "cat ×2".
struct GalleryVote {
    int64_t classIndex = 0;
    int count = 0;
    QString text;
};

// The particles' votes on `image` by class name, most votes first (ties: the first particle's first).
std::vector<GalleryVote> galleryVotes(const GalleryData& data, int64_t image);

// The sort key's value of one image (nats, or a share for vote disagreement) and as a tile shows it.
double galleryValue(GallerySortKey key, const GalleryData& data, int64_t image);
QString galleryValueText(GallerySortKey key, const GalleryData& data, int64_t image);
// The images of `key`'s order, largest value first.
const std::vector<int64_t>& galleryOrder(GallerySortKey key, const GalleryData& data);

} // namespace lbd::ui
