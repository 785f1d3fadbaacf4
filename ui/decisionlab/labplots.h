#pragma once
// The Decision lab's three plots, each comparing the chosen decisions with one-hot argmax on the
// same test images: the False Head Rate curve (paper points marked), accuracy by region, and the
// risk-coverage curves (selective risk vs coverage, overall and tail-only, AURC in the legend,
// the defer point marked). Free functions over a ThrottledPlot so the page stays a page.
#include <QString>

#include "core/eval/evaluationreport.h"

namespace lbd::ui {

class ThrottledPlot;

// Axes, labels and ranges of the risk-coverage plot (once, when the plot is made).
void setUpRiskCoverageAxes(ThrottledPlot* plot);

void plotFhrComparison(ThrottledPlot* plot, const lbd::EvaluationReport& baseline, const lbd::EvaluationReport& lab);
void plotRegionComparison(ThrottledPlot* plot, const lbd::EvaluationReport& baseline, const lbd::EvaluationReport& lab,
                          const QString& labName);
// Graph 0: chosen rule, overall; 1: chosen rule, tail third; 2: one-hot argmax, overall; 3 (only
// with a defer report): the defer point (coverage, selective risk).
void plotRiskCoverage(ThrottledPlot* plot, const lbd::EvaluationReport& baseline, const lbd::EvaluationReport& lab);

} // namespace lbd::ui
