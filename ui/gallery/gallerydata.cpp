#include "ui/gallery/gallerydata.h"

#include <QObject>

#include <algorithm>
#include <exception>
#include <numeric>

namespace lbd::ui {

std::shared_ptr<const GalleryData> loadGallery(const std::string& directory)
{
    auto data = std::make_shared<GalleryData>();
    auto results = std::make_shared<const lbd::RunResults>(lbd::loadRunResults(directory));
    data->results = results;
    data->uncertainty = lbd::imageUncertainties(*results);
    const auto& u = data->uncertainty;
    std::vector<int64_t> order(u.size());
    std::iota(order.begin(), order.end(), int64_t(0));
    data->byInformation = order;
    std::stable_sort(data->byInformation.begin(), data->byInformation.end(),
                     [&u](int64_t a, int64_t b) { return u[size_t(a)].epistemic > u[size_t(b)].epistemic; });
    // Vote disagreement takes few values (M + 1 at most): break its ties by mutual information.
    data->byVotes = data->byInformation;
    std::stable_sort(data->byVotes.begin(), data->byVotes.end(), [&u](int64_t a, int64_t b) {
        return u[size_t(a)].voteDisagreement > u[size_t(b)].voteDisagreement;
    });
    data->classRegion = lbd::classRegions(results->trainCounts, lbd::RegionScheme::ThirdsByIndex);
    try {
        data->images = std::make_shared<const lbd::TestImages>(lbd::loadTestImages(*results));
    } catch (const std::exception& error) {
        data->imageError = QString::fromUtf8(error.what());
    }
    return data;
}

QImage galleryImage(const lbd::TestImages& images, int64_t n)
{
    const std::vector<uint8_t> pixels = lbd::testImagePixels(images, n);
    const int w = int(images.width);
    const int h = int(images.height);
    const int c = int(images.channels);
    const QImage view(pixels.data(), w, h, w * c, c == 1 ? QImage::Format_Grayscale8 : QImage::Format_RGB888);
    return view.copy(); // own the pixels
}

QString galleryValueText(GallerySortKey key, const lbd::ImageUncertainty& u)
{
    return key == GallerySortKey::MutualInformation
               ? QObject::tr("MI %1 nats").arg(u.epistemic, 0, 'f', 3)
               : QObject::tr("votes %1% apart").arg(100.0 * u.voteDisagreement, 0, 'f', 0);
}


} // namespace lbd::ui
