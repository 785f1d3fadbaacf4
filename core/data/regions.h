#pragma once
// Class regions (lbd-math.md section 2). Classes are indexed head to tail.
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

enum class RegionScheme {
    ThirdsByIndex, // the paper: head = first floor(C/3), med = next floor(C/3), tail = rest
    ByTrainCount,  // ImageNet-LT: many (> 100 images), medium (20..100), few (< 20)
};

// Head / Medium / Tail under thirds; Many / Medium / Few under counts.
enum class Region : int { Head = 0, Medium = 1, Tail = 2 };
constexpr int kRegionCount = 3;

std::vector<Region> classRegions(const std::vector<int64_t>& trainCounts, RegionScheme scheme);
std::string regionName(Region region, RegionScheme scheme); // "head", "med", "tail" / "many", "medium", "few"
std::string schemeName(RegionScheme scheme);                 // "thirds", "counts"
RegionScheme parseRegionScheme(const std::string& text);     // throws InputError

} // namespace lbd
