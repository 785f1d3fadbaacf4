#include "ui/runs/comparisonmetrics.h"

#include "core/study/studysummary.h"

#include <QObject>

#include <cmath>
#include <optional>

namespace lbd::ui {
namespace {

using nlohmann::json;

std::optional<double> number(const json& line, const char* key)
{
    const auto it = line.find(key);
    if (it == line.end() || !it->is_number()) {
        return std::nullopt;
    }
    return it->get<double>();
}

// The per-epoch numbers outside the evaluation, as metrics.jsonl names them.
struct EpochField {
    const char* key;
    const char* field;
};
constexpr EpochField kEpochFields[] = {{"loss", "loss"},
                                       {"weighted_ce", "weighted_ce"},
                                       {"train_accuracy", "train_accuracy"},
                                       {"lr", "lr"},
                                       {"images_per_second", "images_per_second"}};

std::optional<double> lineValue(const json& line, const std::string& key)
{
    for (const EpochField& field : kEpochFields) {
        if (key == field.key) {
            return number(line, field.field);
        }
    }
    if (key == "val_accuracy") {
        const auto validation = line.find("evaluation_validation");
        if (validation == line.end() || !validation->is_object()) {
            return std::nullopt;
        }
        return lbd::reportMetric(json{{"evaluation", *validation}}, "accuracy");
    }
    if (!line.contains("evaluation")) {
        return std::nullopt;
    }
    return lbd::reportMetric(line, key); // the evaluation has report.json's form
}

} // namespace

const std::vector<ComparisonMetric>& comparisonMetrics()
{
    static const std::vector<ComparisonMetric> metrics = [] {
        std::vector<ComparisonMetric> list;
        for (const lbd::StudyMetric& metric : lbd::studyMetrics()) {
            if (metric.key == "train_seconds") {
                continue; // one number per run, not per epoch
            }
            const QString title = QString::fromStdString(metric.title);
            const bool percent = metric.unit == "%";
            list.push_back({metric.key, title,
                            percent ? QObject::tr("%1 (%)").arg(title) : title,
                            QObject::tr("Test split, at every evaluation: %1").arg(QString::fromStdString(metric.help)),
                            metric.scale, percent});
        }
        list.push_back({"val_accuracy", QObject::tr("Validation accuracy"), QObject::tr("validation accuracy (%)"),
                        QObject::tr("Accuracy on the run's validation split at every evaluation (runs without one have no curve)."),
                        100, true});
        list.push_back({"loss", QObject::tr("Training objective"), QObject::tr("objective L (epoch mean)"),
                        QObject::tr("The training objective L, mean over each epoch."), 1, false});
        list.push_back({"weighted_ce", QObject::tr("Weighted CE"), QObject::tr("weighted CE (epoch mean)"),
                        QObject::tr("The discrepancy-weighted cross-entropy part of the objective, mean over each epoch."), 1, false});
        list.push_back({"train_accuracy", QObject::tr("Training accuracy"), QObject::tr("training accuracy (%)"),
                        QObject::tr("Accuracy on the augmented training batches of each epoch."), 100, true});
        list.push_back({"lr", QObject::tr("Learning rate"), QObject::tr("learning rate"),
                        QObject::tr("The SGD learning rate at the end of each epoch."), 1, false});
        list.push_back({"images_per_second", QObject::tr("Images per second"), QObject::tr("training images / s"),
                        QObject::tr("Training speed of each epoch."), 1, false});
        return list;
    }();
    return metrics;
}

const ComparisonMetric* comparisonMetric(const std::string& key)
{
    for (const ComparisonMetric& metric : comparisonMetrics()) {
        if (metric.key == key) {
            return &metric;
        }
    }
    return nullptr;
}

MetricCurves metricCurves(const std::vector<json>& lines)
{
    std::map<std::string, std::map<int, double>> byEpoch;
    for (const json& line : lines) {
        const auto epoch = line.find("epoch");
        if (!line.is_object() || epoch == line.end() || !epoch->is_number_integer()) {
            continue;
        }
        for (const ComparisonMetric& metric : comparisonMetrics()) {
            if (const auto value = lineValue(line, metric.key); value && std::isfinite(*value)) {
                byEpoch[metric.key][epoch->get<int>()] = *value * metric.scale;
            }
        }
    }
    MetricCurves curves;
    for (const auto& [key, points] : byEpoch) {
        MetricCurve& curve = curves[key];
        for (const auto& [epoch, value] : points) {
            curve.epochs << epoch;
            curve.values << value;
        }
    }
    return curves;
}

GroupCurve groupCurve(const std::vector<const MetricCurve*>& members)
{
    std::map<double, std::vector<double>> byEpoch;
    for (const MetricCurve* member : members) {
        for (int i = 0; member && i < member->epochs.size(); ++i) {
            byEpoch[member->epochs[i]].push_back(member->values[i]);
        }
    }
    GroupCurve curve;
    for (const auto& [epoch, values] : byEpoch) {
        const lbd::SampleSummary sample = lbd::summarizeSample(values);
        curve.epochs << epoch;
        curve.mean << sample.mean;
        curve.std << sample.std;
        curve.count << sample.n;
    }
    return curve;
}

} // namespace lbd::ui
