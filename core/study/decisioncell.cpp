#include "core/study/decisioncell.h"

#include "core/eval/decisionrule.h"
#include "core/lbd/priorutility.h"
#include "core/lbd/utilitymatrix.h"
#include "core/util/error.h"
#include "core/util/jsonread.h"

#include <algorithm>
#include <set>

namespace lbd {
namespace {

using json = nlohmann::json;

bool knownUtility(const std::string& utility)
{
    return utility == kPriorTuneUtility || utility == "onehot" || priorTauOf(utility) || tailPenaltyOf(utility);
}

// Tuning reads val_probabilities.pt, which only a run trained with a validation split has.
bool hasValidationSplit(const json& config)
{
    const json data = config.is_object() ? config.value("data", json::object()) : json::object();
    const json fraction = data.is_object() ? data.value("val_fraction", json(0.0)) : json(0.0);
    const json list = data.is_object() ? data.value("val_list", json("")) : json("");
    return (fraction.is_number() && fraction.get<double>() > 0) || (list.is_string() && !list.get<std::string>().empty());
}

} // namespace

StudyDecision studyDecisionFromJson(const json& object, const std::string& context)
{
    JsonReader reader(object, context);
    StudyDecision decision;
    reader.read("utility", decision.utility);
    if (!knownUtility(decision.utility)) {
        throw InputError(context + ".utility '" + decision.utility + "' is not a decision utility of a study: use "
                         + kPriorTuneUtility + " (tau tuned on validation), prior:<tau> (0 to 10), onehot or tail:<c>");
    }
    if (reader.has("rule")) {
        reader.read("rule", decision.rule);
    }
    DecisionRule rule;
    try {
        rule = parseDecisionRule(decision.rule);
    } catch (const InputError& error) {
        throw InputError(context + ".rule: " + error.what());
    }
    if (!decisionRuleInfo(rule).usesUtility) {
        throw InputError(context + ".rule '" + decision.rule + "' ignores the utility matrix: use expected");
    }
    if (isPriorUtilitySpec(decision.utility)) {
        checkPriorUtilityRule(rule, context + ".rule '" + decision.rule + "' with utility " + decision.utility);
    }
    decision.rule = decisionRuleName(rule);
    reader.rejectUnknown();
    return decision;
}

json toJson(const StudyDecision& decision)
{
    return {{"utility", decision.utility}, {"rule", decision.rule}};
}

std::string describeDecision(const StudyDecision& decision)
{
    return decision.utility + ", rule " + decision.rule;
}

void checkDecisionLevels(const StudyFactor& factor, const std::string& context)
{
    std::set<std::string> trains;
    for (const StudyLevel& level : factor.levels) {
        if (!level.decideFrom) {
            trains.insert(level.label);
        }
    }
    for (size_t i = 0; i < factor.levels.size(); ++i) {
        const StudyLevel& level = factor.levels[i];
        if (!level.decideFrom) {
            continue;
        }
        const std::string key = context + ".levels[" + std::to_string(i) + "].decide_from";
        const bool exists = std::any_of(factor.levels.begin(), factor.levels.end(),
                                        [&](const StudyLevel& other) { return other.label == *level.decideFrom; });
        if (!exists) {
            throw InputError(key + " '" + *level.decideFrom + "' names no level of factor '" + factor.name + "'");
        }
        if (trains.count(*level.decideFrom) == 0) {
            throw InputError(key + " '" + *level.decideFrom + "' is a decision-only level itself: name a level that trains");
        }
    }
}

void linkDecisionCells(ResolvedStudy& study)
{
    const std::vector<StudyFactor>& factors = study.spec.factors;
    for (StudyCell& cell : study.cells) {
        int factor = -1;
        for (size_t f = 0; f < factors.size(); ++f) {
            const auto level = std::find_if(factors[f].levels.begin(), factors[f].levels.end(),
                                            [&](const StudyLevel& l) { return l.label == cell.levelLabels[f]; });
            if (level == factors[f].levels.end() || !level->decideFrom) {
                continue;
            }
            if (factor >= 0) {
                throw InputError("study '" + study.spec.name + "', cell '" + cell.label + "': decision-only levels of two "
                                 "factors ('" + factors[factor].name + "' and '" + factors[f].name + "'): one cell re-decides one trained cell");
            }
            factor = static_cast<int>(f);
            std::vector<std::string> source = cell.levelLabels;
            source[f] = *level->decideFrom;
            for (size_t c = 0; c < study.cells.size(); ++c) {
                if (study.cells[c].levelLabels == source) {
                    cell.decideFrom = static_cast<int>(c);
                }
            }
            cell.decision = *level->decision;
        }
    }
    for (StudyCell& cell : study.cells) {
        if (!cell.decisionOnly()) {
            continue;
        }
        const StudyCell& source = study.cells[cell.decideFrom];
        cell.config = source.config; // what was trained; the name stays the source run's own
        if (cell.decision.utility == kPriorTuneUtility && !hasValidationSplit(source.config)) {
            throw InputError("study '" + study.spec.name + "', cell '" + cell.label + "': decision.utility " + kPriorTuneUtility
                             + " tunes tau on the validation split, but cell '" + source.label
                             + "' trains without one (set data.val_fraction, or use prior:1)");
        }
    }
}

int decisionSourceRun(const ResolvedStudy& study, int run)
{
    const StudyRunRef& ref = study.runs.at(run);
    const StudyCell& cell = study.cells.at(ref.cell);
    if (!cell.decisionOnly()) {
        return -1;
    }
    for (int i = 0; i < static_cast<int>(study.runs.size()); ++i) {
        if (study.runs[i].cell == cell.decideFrom && study.runs[i].seed == ref.seed) {
            return i;
        }
    }
    return -1;
}

} // namespace lbd
