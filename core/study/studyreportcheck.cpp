#include "core/study/studyreportcheck.h"

#include "core/util/error.h"
#include "core/util/jsonread.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <initializer_list>
#include <limits>

namespace lbd {
namespace {

using json = nlohmann::json;

// Classes are at most 100,000 (README's limits), so a head size is 1..99,999.
constexpr int64_t kMaxHeadClasses = 99'999;

class ReportFields {
public:
    ReportFields(const json& report, const std::string& path) : m_report(report), m_path(path) {}

    // A number (or null: a metric undefined for this run) in [low, high] at `keys` under `root`,
    // when present.
    void number(const json& root, const std::string& prefix, std::initializer_list<const char*> keys, double low,
                double high) const
    {
        std::string name = prefix;
        const json* node = &root;
        for (const char* key : keys) {
            if (!node->is_object()) {
                throwWrongJsonType(m_path, name, "an object", *node);
            }
            const auto it = node->find(key);
            if (it == node->end()) {
                return;
            }
            name += (name.empty() ? "" : ".") + std::string(key);
            node = &*it;
        }
        if (node->is_null()) {
            return;
        }
        if (!node->is_number()) {
            throwWrongJsonType(m_path, name, "a number", *node);
        }
        const double value = node->get<double>();
        if (!std::isfinite(value) || value < low || value > high) {
            throw InputError(m_path + ": field " + name + " is " + node->dump() + ", outside " + range(low, high)
                             + ", the values its writer produces");
        }
    }

    // An array at `key` of `root` (absent: nothing to check).
    const json* array(const json& root, const std::string& name, const char* key) const
    {
        if (!root.is_object() || !root.contains(key)) {
            return nullptr;
        }
        const json& value = root.at(key);
        if (!value.is_array()) {
            throwWrongJsonType(m_path, name, "an array", value);
        }
        return &value;
    }

    void integer(const json& object, const std::string& name, const char* key, int64_t low, int64_t high) const
    {
        if (!object.contains(key)) {
            return;
        }
        const json& value = object.at(key);
        if (!value.is_number_integer()) {
            throwWrongJsonType(m_path, name + "." + key, "an integer", value);
        }
        const bool tooLarge = value.is_number_unsigned() && value.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max());
        const bool inRange = !tooLarge && value.get<int64_t>() >= low && value.get<int64_t>() <= high;
        if (!inRange) {
            throw InputError(m_path + ": field " + name + "." + key + " is " + value.dump() + ", outside "
                             + std::to_string(low) + ".." + std::to_string(high));
        }
    }

    void text(const json& object, const std::string& name, const char* key) const
    {
        if (object.contains(key) && !object.at(key).is_string()) {
            throwWrongJsonType(m_path, name + "." + key, "a string", object.at(key));
        }
    }

    void object(const json& value, const std::string& name) const
    {
        if (!value.is_object()) {
            throwWrongJsonType(m_path, name, "an object", value);
        }
    }

private:
    static std::string range(double low, double high)
    {
        const auto text = [](double v) {
            return std::isinf(v) ? std::string(v > 0 ? "inf" : "-inf") : json(v).dump();
        };
        return "[" + text(low) + ", " + text(high) + "]";
    }

    const json& m_report;
    const std::string& m_path;
};

} // namespace

void checkStudyReport(const json& report, const std::string& path)
{
    const ReportFields fields(report, path);
    constexpr double kInf = std::numeric_limits<double>::infinity();
    fields.object(report, "(the top level)");
    fields.number(report, "", {"train_seconds"}, 0, kInf);
    fields.text(report, "(the top level)", "utility");
    if (!report.contains("evaluation")) {
        return;
    }
    const json& e = report.at("evaluation");
    fields.object(e, "evaluation");
    // Shares of images: accuracies, rates, calibration errors, areas under curves.
    const std::initializer_list<const char*> shares[] = {
        {"accuracy", "accuracy"}, {"fhr", "curve_mean"},   {"calibration", "ece"}, {"auroc", "confidence"},
        {"published", "ece"},     {"published", "auroc"},  {"published", "accuracy"}, {"risk_coverage", "all", "aurc"}};
    for (const auto& keys : shares) {
        fields.number(e, "evaluation", keys, 0, 1);
    }
    fields.number(e, "evaluation", {"nll"}, 0, kInf);
    if (e.contains("regions")) {
        fields.object(e.at("regions"), "evaluation.regions");
        if (const json* thirds = fields.array(e.at("regions"), "evaluation.regions.thirds", "thirds")) {
            for (size_t k = 0; k < thirds->size(); ++k) {
                const std::string name = "evaluation.regions.thirds[" + std::to_string(k) + "]";
                fields.object((*thirds)[k], name);
                fields.text((*thirds)[k], name, "region");
                fields.number((*thirds)[k], name, {"accuracy"}, 0, 1);
            }
        }
    }
    if (!e.contains("fhr")) {
        return;
    }
    fields.object(e.at("fhr"), "evaluation.fhr");
    for (const char* list : {"points", "curve"}) {
        const std::string listName = std::string("evaluation.fhr.") + list;
        if (const json* entries = fields.array(e.at("fhr"), listName, list)) {
            for (size_t k = 0; k < entries->size(); ++k) {
                const std::string name = listName + "[" + std::to_string(k) + "]";
                fields.object((*entries)[k], name);
                fields.number((*entries)[k], name, {"rate"}, 0, 1);
                fields.integer((*entries)[k], name, "head_classes", 1, kMaxHeadClasses);
            }
        }
    }
}

} // namespace lbd
