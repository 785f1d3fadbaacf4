#include "core/train/epochmetricsjson.h"

#include "core/eval/reportjson.h"

#include "core/util/jsonread.h"

#include <nlohmann/json.hpp>

namespace lbd {

nlohmann::json toJson(const EpochMetrics& m)
{
    nlohmann::json json = {{"epoch", m.epoch},
                           {"epochs", m.epochs},
                           {"loss", m.objective.total},
                           {"weighted_ce", m.objective.weightedCe},
                           {"utility", m.objective.utility},
                           {"utility_weight", m.objective.utilityWeight},
                           {"repulsive", m.objective.repulsive},
                           {"anneal_weight", m.objective.annealWeight},
                           {"lr", m.learningRate},
                           {"train_accuracy", m.trainAccuracy},
                           {"images_per_second", m.imagesPerSecond},
                           {"epoch_seconds", m.epochSeconds},
                           {"elapsed_seconds", m.elapsedSeconds}};
    if (m.evaluation) {
        json["evaluation"] = reportToJson(*m.evaluation, ReportDetail::Summary);
    }
    if (m.argmaxEvaluation) {
        json["evaluation_argmax"] = reportToJson(*m.argmaxEvaluation, ReportDetail::Summary);
    }
    if (m.validationEvaluation) {
        json["evaluation_validation"] = reportToJson(*m.validationEvaluation, ReportDetail::Summary);
    }
    return json;
}

EpochMetrics epochMetricsFromJson(const nlohmann::json& json)
{
    EpochMetrics m;
    m.epoch = integerValue<int>(json.at("epoch"));
    m.epochs = integerValue<int>(json.at("epochs"));
    m.objective.total = json.at("loss").get<double>();
    m.objective.weightedCe = json.at("weighted_ce").get<double>();
    m.objective.utility = json.at("utility").get<double>();
    m.objective.utilityWeight = json.value("utility_weight", 0.0);
    m.objective.repulsive = json.at("repulsive").get<double>();
    m.objective.annealWeight = json.at("anneal_weight").get<double>();
    m.learningRate = json.at("lr").get<double>();
    m.trainAccuracy = json.at("train_accuracy").get<double>();
    m.imagesPerSecond = json.at("images_per_second").get<double>();
    m.epochSeconds = json.at("epoch_seconds").get<double>();
    m.elapsedSeconds = json.at("elapsed_seconds").get<double>();
    if (json.contains("evaluation")) {
        m.evaluation = reportFromJson(json.at("evaluation"));
    }
    if (json.contains("evaluation_argmax")) {
        m.argmaxEvaluation = reportFromJson(json.at("evaluation_argmax"));
    }
    if (json.contains("evaluation_validation")) {
        m.validationEvaluation = reportFromJson(json.at("evaluation_validation"));
    }
    return m;
}

} // namespace lbd
