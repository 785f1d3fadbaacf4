#pragma once
// The False Head Rate plot's axes, the same on the Tail risk page and in the Decision lab: head
// fraction k/C on x (0..1), FHR in percent on y (0..100); and the names of the paper's three FHR
// points, which every page and the run report give the same way.
#include <QString>

#include <cstdint>

namespace lbd::ui {

class ThrottledPlot;

void setUpFhrAxes(ThrottledPlot* plot);

// One of the paper's FHR points named by what it measures. The published code puts the first
// int(C * r + 0.5) classes in the head, so r = 0.25 of 10 classes is a head of 3 (k/C = 0.3):
// "head = first 3 of 10 classes (r = 0.25, published-code convention)". Its marker on the FHR
// plots sits at k/C = headClasses / classCount, the same x as the curve's point.
QString fhrPointName(int64_t headClasses, int64_t classCount, double ratio);
// The short form for legends and narrow table cells: "head 3 of 10 (r = 0.25)".
QString fhrPointShortName(int64_t headClasses, int64_t classCount, double ratio);

} // namespace lbd::ui
