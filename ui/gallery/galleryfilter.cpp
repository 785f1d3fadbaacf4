#include "ui/gallery/galleryfilter.h"

namespace lbd::ui {

bool galleryMatches(const GalleryData& data, int64_t image, const GalleryFilter& filter)
{
    const int64_t label = data.results->labels[size_t(image)];
    const int64_t decided = data.decided[size_t(image)];
    if (filter.classIndex >= 0 && label != filter.classIndex) {
        return false;
    }
    if (filter.region >= 0 && static_cast<int>(data.classRegion[size_t(label)]) != filter.region) {
        return false;
    }
    switch (filter.show) {
    case GalleryShow::Every: return true;
    case GalleryShow::WrongOnly: return decided != label;
    case GalleryShow::TailAsHead:
        return data.classRegion[size_t(label)] == lbd::Region::Tail && decided >= 0
               && decided < static_cast<int64_t>(data.classRegion.size())
               && data.classRegion[size_t(decided)] == lbd::Region::Head;
    case GalleryShow::Cell: return label == filter.cellTrue && decided == filter.cellDecided;
    }
    return true;
}

std::vector<int64_t> filterGallery(const GalleryData& data, const std::vector<int64_t>& ordered, const GalleryFilter& filter)
{
    std::vector<int64_t> out;
    out.reserve(ordered.size());
    for (const int64_t n : ordered) {
        if (galleryMatches(data, n, filter)) {
            out.push_back(n);
        }
    }
    return out;
}

} // namespace lbd::ui
