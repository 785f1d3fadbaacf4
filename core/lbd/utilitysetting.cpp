#include "core/lbd/utilitysetting.h"

#include "core/lbd/utilityjson.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace lbd {

std::string UtilitySetting::describe() const
{
    if (!byValue()) {
        return spec;
    }
    if (matrix.isOneHot()) {
        return "onehot";
    }
    if (const auto penalty = tailPenaltyOf(matrix)) {
        return tailSpec(*penalty);
    }
    return origin.empty() ? std::string("custom matrix") : "matrix from " + std::filesystem::path(origin).filename().string();
}

UtilitySetting utilityFromSpec(const std::string& spec)
{
    UtilitySetting setting;
    setting.spec = spec;
    return setting;
}

UtilitySetting utilityFromMatrix(const UtilityMatrix& matrix, const std::vector<std::string>& classNames,
                                 const std::string& origin)
{
    UtilitySetting setting;
    setting.spec.clear();
    setting.matrix = matrix;
    setting.classNames = classNames;
    setting.origin = origin;
    return setting;
}

UtilityMatrix resolveUtility(const UtilitySetting& setting, const std::vector<std::string>& classNames,
                             const std::string& context)
{
    if (!setting.byValue()) {
        try {
            return parseUtilitySpec(setting.spec, classNames);
        } catch (const InputError& error) {
            throw InputError(context + ": " + error.what());
        }
    }
    // The io parser checks the size, the values and the names, and reorders: one set of rules.
    nlohmann::json document = {{"matrix", nlohmann::json::array()}};
    for (int64_t t = 0; t < setting.matrix.classCount(); ++t) {
        nlohmann::json row = nlohmann::json::array();
        for (int64_t d = 0; d < setting.matrix.classCount(); ++d) {
            row.push_back(setting.matrix(t, d));
        }
        document["matrix"].push_back(std::move(row));
    }
    if (!setting.classNames.empty()) {
        document["classes"] = setting.classNames;
    }
    return parseUtilityJson(document.dump(), classNames, context);
}

UtilitySetting utilityByValue(const UtilitySetting& setting, const std::vector<std::string>& classNames,
                              const std::string& context)
{
    if (setting.byValue() || !isUtilityFileSpec(setting.spec)) {
        resolveUtility(setting, classNames, context); // still checked against the data set
        return setting;
    }
    return utilityFromMatrix(resolveUtility(setting, classNames, context), classNames, setting.spec);
}

nlohmann::json toJson(const UtilitySetting& setting)
{
    if (!setting.byValue()) {
        return setting.spec;
    }
    nlohmann::json rows = nlohmann::json::array();
    for (int64_t t = 0; t < setting.matrix.classCount(); ++t) {
        nlohmann::json row = nlohmann::json::array();
        for (int64_t d = 0; d < setting.matrix.classCount(); ++d) {
            row.push_back(setting.matrix(t, d));
        }
        rows.push_back(std::move(row));
    }
    nlohmann::json json = {{"matrix", std::move(rows)}};
    if (!setting.classNames.empty()) {
        json["classes"] = setting.classNames;
    }
    if (!setting.origin.empty()) {
        json["origin"] = setting.origin;
    }
    return json;
}

UtilitySetting utilitySettingFromJson(const nlohmann::json& json, const std::string& context)
{
    if (json.is_string()) {
        return utilityFromSpec(json.get<std::string>());
    }
    if (!json.is_object() || !json.contains("matrix")) {
        throw InputError(context + ": expected \"onehot\", \"tail:<c>\", a .csv / .json file name, or an object with a "
                                   "\"matrix\" (and optionally \"classes\" and \"origin\")");
    }
    for (const auto& item : json.items()) {
        if (item.key() != "matrix" && item.key() != "classes" && item.key() != "origin") {
            throw InputError(context + ": unknown key '" + item.key() + "' (use matrix, classes, origin)");
        }
    }
    // Empty class names: any square matrix, checked against the data set when resolved.
    const UtilityMatrix matrix = utilityFromJsonDocument(json, {}, context);
    std::vector<std::string> names;
    if (json.contains("classes")) {
        names = json.at("classes").get<std::vector<std::string>>();
    }
    std::string origin;
    if (json.contains("origin")) {
        if (!json.at("origin").is_string()) {
            throw InputError(context + ": \"origin\" must be a string");
        }
        origin = json.at("origin").get<std::string>();
    }
    return utilityFromMatrix(matrix, names, origin);
}

} // namespace lbd
