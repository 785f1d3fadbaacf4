#include "core/data/regions.h"

#include "core/util/error.h"

namespace lbd {

std::vector<Region> classRegions(const std::vector<int64_t>& trainCounts, RegionScheme scheme)
{
    const auto classCount = static_cast<int64_t>(trainCounts.size());
    std::vector<Region> regions(trainCounts.size(), Region::Tail);
    if (scheme == RegionScheme::ThirdsByIndex) {
        const int64_t third = classCount / 3;
        for (int64_t c = 0; c < classCount; ++c) {
            regions[c] = c < third ? Region::Head : (c < 2 * third ? Region::Medium : Region::Tail);
        }
    } else {
        for (int64_t c = 0; c < classCount; ++c) {
            const int64_t n = trainCounts[c];
            regions[c] = n > 100 ? Region::Head : (n >= 20 ? Region::Medium : Region::Tail);
        }
    }
    return regions;
}

std::string regionName(Region region, RegionScheme scheme)
{
    static const char* thirds[] = {"head", "med", "tail"};
    static const char* counts[] = {"many", "medium", "few"};
    const auto index = static_cast<int>(region);
    return scheme == RegionScheme::ThirdsByIndex ? thirds[index] : counts[index];
}

std::string schemeName(RegionScheme scheme)
{
    return scheme == RegionScheme::ThirdsByIndex ? "thirds" : "counts";
}

RegionScheme parseRegionScheme(const std::string& text)
{
    if (text == "thirds") {
        return RegionScheme::ThirdsByIndex;
    }
    if (text == "counts") {
        return RegionScheme::ByTrainCount;
    }
    throw InputError("region scheme '" + text + "' is not known (use 'thirds' or 'counts')");
}

} // namespace lbd
