#include "ui/gallery/gallerydata.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <exception>
#include <numeric>

namespace lbd::ui {
namespace {

// The floor of the report's NLL (core/eval/metrics), so a tile's loss and the report's mean agree.
constexpr double kProbabilityFloor = 1e-12;

std::vector<double> trueClassLosses(const lbd::RunResults& r)
{
    std::vector<double> loss(size_t(r.images), 0.0);
    for (int64_t n = 0; n < r.images; ++n) {
        const int64_t label = r.labels[size_t(n)];
        double mean = 0.0;
        for (int64_t j = 0; j < r.particles; ++j) {
            mean += r.distribution(j, n)[label];
        }
        mean /= double(std::max<int64_t>(1, r.particles));
        loss[size_t(n)] = -std::log(std::max(mean, kProbabilityFloor));
    }
    return loss;
}

} // namespace

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
    data->decided = lbd::decidedClasses(*results, results->decisions.decisionUtility, results->decisions.rule);
    data->loss = trueClassLosses(*results);
    data->byLoss = order;
    std::stable_sort(data->byLoss.begin(), data->byLoss.end(),
                     [&data](int64_t a, int64_t b) { return data->loss[size_t(a)] > data->loss[size_t(b)]; });
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

double galleryValue(GallerySortKey key, const GalleryData& data, int64_t image)
{
    switch (key) {
    case GallerySortKey::MutualInformation: return data.uncertainty[size_t(image)].epistemic;
    case GallerySortKey::VoteDisagreement: return data.uncertainty[size_t(image)].voteDisagreement;
    case GallerySortKey::TopLoss: return data.loss[size_t(image)];
    }
    return 0.0;
}

QString galleryValueText(GallerySortKey key, const GalleryData& data, int64_t image)
{
    const double value = galleryValue(key, data, image);
    switch (key) {
    case GallerySortKey::MutualInformation: return QObject::tr("MI %1 nats").arg(value, 0, 'f', 3);
    case GallerySortKey::VoteDisagreement: return QObject::tr("votes %1% apart").arg(100.0 * value, 0, 'f', 0);
    case GallerySortKey::TopLoss: return QObject::tr("loss %1 nats").arg(value, 0, 'f', 2);
    }
    return {};
}

const std::vector<int64_t>& galleryOrder(GallerySortKey key, const GalleryData& data)
{
    switch (key) {
    case GallerySortKey::VoteDisagreement: return data.byVotes;
    case GallerySortKey::TopLoss: return data.byLoss;
    case GallerySortKey::MutualInformation: break;
    }
    return data.byInformation;
}


std::vector<GalleryVote> galleryVotes(const GalleryData& data, int64_t image)
{
    std::vector<GalleryVote> votes;
    for (const int64_t vote : data.uncertainty[size_t(image)].particleTop1) {
        const auto it = std::find_if(votes.begin(), votes.end(), [vote](const GalleryVote& v) { return v.classIndex == vote; });
        if (it == votes.end()) {
            votes.push_back({vote, 1, {}});
        } else {
            ++it->count;
        }
    }
    std::stable_sort(votes.begin(), votes.end(), [](const GalleryVote& a, const GalleryVote& b) { return a.count > b.count; });
    for (GalleryVote& vote : votes) {
        vote.text = vote.count > 1 ? QStringLiteral("%1 \u00d7%2").arg(data.className(vote.classIndex)).arg(vote.count)
                                   : data.className(vote.classIndex);
    }
    return votes;
}

} // namespace lbd::ui
