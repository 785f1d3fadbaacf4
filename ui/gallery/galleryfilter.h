#pragma once
// Which of a run's test images the gallery shows: a true class, a true region, and one of "every
// image", "wrong only", "tail decided as head" or one confusion cell (true class t decided as d).
// "Decided" is the run's own rule, as in the report's confusion matrix (GalleryData::decided).
#include <cstdint>
#include <vector>

#include "ui/gallery/gallerydata.h"

namespace lbd::ui {

enum class GalleryShow {
    Every = 0,
    WrongOnly = 1,  // decided != true class
    TailAsHead = 2, // true class in the tail third, decided as a head-third class
    Cell = 3,       // true class cellTrue decided as cellDecided
};

struct GalleryFilter {
    int classIndex = -1; // true class; -1 = every class
    int region = -1;     // lbd::Region of the true class (thirds by index); -1 = every region
    GalleryShow show = GalleryShow::Every;
    int64_t cellTrue = -1;
    int64_t cellDecided = -1;
};

bool galleryMatches(const GalleryData& data, int64_t image, const GalleryFilter& filter);

// The images of `ordered` that pass `filter`, in the same order.
std::vector<int64_t> filterGallery(const GalleryData& data, const std::vector<int64_t>& ordered, const GalleryFilter& filter);

} // namespace lbd::ui
