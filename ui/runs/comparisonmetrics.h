#pragma once
// Every metric the run comparison can plot against the epoch: the test evaluation's numbers
// (accuracy overall and by region, FHR, ECE, AURC, NLL, AUROC: the studies' catalogue,
// studyMetrics(), read from each metrics.jsonl line by the studies' own reportMetric), the
// validation accuracy, and the per-epoch training numbers (objective, weighted CE, training
// accuracy, learning rate, speed). Also the mean ± sample std curve of runs that differ only in
// their seed, with summarizeSample (the numbers a study's table prints).
#include <QString>
#include <QVector>

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lbd::ui {

struct ComparisonMetric {
    std::string key;  // "tail", "loss", ...
    QString title;    // "Tail accuracy"
    QString axis;     // "tail accuracy (%)"
    QString help;     // one sentence, for the picker's tooltip
    double scale = 1; // shown value = recorded value * scale (fractions as %)
    bool percent = false;
};

// In the order the pickers list them.
const std::vector<ComparisonMetric>& comparisonMetrics();
// nullptr for an unknown key.
const ComparisonMetric* comparisonMetric(const std::string& key);

struct MetricCurve {
    QVector<double> epochs;
    QVector<double> values; // scaled (per cent where the metric is a rate)
};
using MetricCurves = std::map<std::string, MetricCurve>; // only the metrics the run recorded

// The curves of every catalogue metric found in metrics.jsonl's lines (a later line of the same
// epoch, as a resumed run writes, replaces the earlier one).
MetricCurves metricCurves(const std::vector<nlohmann::json>& lines);

// Runs repeated with other seeds as one curve: at every epoch any member recorded, the mean and
// the sample std (NaN with one value) over the members that recorded it.
struct GroupCurve {
    QVector<double> epochs;
    QVector<double> mean;
    QVector<double> std;
    QVector<int> count;
};
GroupCurve groupCurve(const std::vector<const MetricCurve*>& members);

} // namespace lbd::ui
