#pragma once
// Per-class test accuracy against the class's training count (log x axis), one point per class
// coloured by its region, with a legend: where the long tail loses accuracy, class by class.
#include <cstdint>
#include <vector>

#include "core/data/regions.h"
#include "core/eval/evaluationreport.h"

namespace lbd::ui {

class ThrottledPlot;

// Titles and axes, once.
void setUpClassAccuracyPlot(ThrottledPlot* plot);
// One graph per region; classes without test images or without training images are left out
// (log x cannot show a count of 0).
void drawClassAccuracy(ThrottledPlot* plot, const std::vector<lbd::GroupAccuracy>& perClass,
                       const std::vector<int64_t>& trainCounts, const std::vector<lbd::Region>& regions);

} // namespace lbd::ui
