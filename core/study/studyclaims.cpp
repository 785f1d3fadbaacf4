#include "core/study/studyclaims.h"

#include "core/study/studyspec.h"
#include "core/study/studysummary.h"
#include "core/util/error.h"
#include "core/util/jsonread.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace lbd {
namespace {

using json = nlohmann::json;

void requireCell(const std::string& label, const std::string& key, const std::vector<std::string>& cells)
{
    if (cells.empty() || std::find(cells.begin(), cells.end(), label) != cells.end()) {
        return; // no labels: the study has too many cells, and resolveStudy refuses it by name
    }
    std::string known;
    for (const std::string& cell : cells) {
        known += (known.empty() ? "'" : ", '") + cell + "'";
    }
    throw InputError(key + ": no cell is labelled '" + label + "' (the cells: " + known + ")");
}

StudyClaim readClaim(const json& object, const std::string& context, const std::vector<std::string>& cells)
{
    JsonReader reader(object, context);
    for (const auto& item : object.items()) { // a misspelt key named before "... is missing"
        static const std::vector<std::string> known{"text", "cell", "against", "metric", "better", "margin", "paper"};
        if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
            throw InputError(reader.key(item.key()) + ": not a key of a claim (text, cell, against, metric, better, "
                             "margin, paper)");
        }
    }
    StudyClaim claim;
    for (const auto& [key, out] : {std::pair<const char*, std::string*>{"text", &claim.text}, {"cell", &claim.cell},
                                   {"against", &claim.against}, {"metric", &claim.metric}}) {
        if (!reader.has(key)) {
            throw InputError(reader.key(key) + " is missing");
        }
        reader.read(key, *out);
        if (out->empty()) {
            throw InputError(reader.key(key) + " must be a non-empty string");
        }
    }
    reader.read("paper", claim.paper);
    std::string better;
    reader.read("better", better);
    if (better != "higher" && better != "lower") {
        throw InputError(reader.key("better") + " must be \"higher\" or \"lower\" (the claimed sign of cell - against)");
    }
    claim.higher = better == "higher";
    reader.read("margin", claim.margin);
    if (claim.margin < 0) {
        throw InputError(reader.key("margin") + " must be 0 or more (in the metric's shown unit)");
    }
    try {
        studyMetric(claim.metric);
    } catch (const InputError& error) {
        throw InputError(reader.key("metric") + ": " + error.what());
    }
    requireCell(claim.cell, reader.key("cell"), cells);
    requireCell(claim.against, reader.key("against"), cells);
    if (claim.cell == claim.against) {
        throw InputError(reader.key("against") + ": a claim compares two different cells ('" + claim.cell + "' twice)");
    }
    reader.rejectUnknown();
    return claim;
}

} // namespace

bool StudyClaim::operator==(const StudyClaim& other) const
{
    return text == other.text && cell == other.cell && against == other.against && metric == other.metric
        && higher == other.higher && margin == other.margin && paper == other.paper;
}

std::vector<std::string> studyCellLabels(const std::vector<StudyFactor>& factors)
{
    std::vector<std::string> labels{""};
    for (const StudyFactor& factor : factors) {
        if (factor.levels.empty() || labels.size() * factor.levels.size() > kMaxStudyCells) {
            return {};
        }
        std::vector<std::string> next;
        for (const std::string& prefix : labels) {
            for (const StudyLevel& level : factor.levels) {
                next.push_back(prefix.empty() ? level.label : prefix + ", " + level.label);
            }
        }
        labels = std::move(next);
    }
    return labels;
}

std::vector<StudyClaim> studyClaimsFromJson(const json& claims, const std::string& context,
                                            const std::vector<StudyFactor>& factors)
{
    if (!claims.is_array()) {
        throw InputError(context + " must be a list of claims ({\"text\", \"cell\", \"against\", \"metric\", \"better\"})");
    }
    const std::vector<std::string> cells = studyCellLabels(factors);
    std::vector<StudyClaim> out;
    for (size_t i = 0; i < claims.size(); ++i) {
        out.push_back(readClaim(claims[i], context + "[" + std::to_string(i) + "]", cells));
    }
    return out;
}

json toJson(const std::vector<StudyClaim>& claims)
{
    json out = json::array();
    for (const StudyClaim& claim : claims) {
        json c = {{"text", claim.text}, {"cell", claim.cell}, {"against", claim.against}, {"metric", claim.metric},
                  {"better", claim.higher ? "higher" : "lower"}};
        if (claim.margin > 0) {
            c["margin"] = claim.margin;
        }
        if (!claim.paper.empty()) {
            c["paper"] = claim.paper;
        }
        out.push_back(c);
    }
    return out;
}

} // namespace lbd
