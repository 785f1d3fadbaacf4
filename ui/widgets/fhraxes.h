#pragma once
// The False Head Rate plot's axes, the same on the Tail risk page and in the Decision lab: head
// fraction k/C on x (0..1), FHR in percent on y (0..100).
class QString;

namespace lbd::ui {

class ThrottledPlot;

void setUpFhrAxes(ThrottledPlot* plot);

} // namespace lbd::ui
