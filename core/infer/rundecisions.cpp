#include "core/infer/rundecisions.h"

#include "core/lbd/utilitymatrix.h"
#include "core/lbd/utilitysetting.h"
#include "core/util/error.h"

namespace lbd {
namespace {

UtilityMatrix openOrOneHot(const UtilitySetting& setting, const std::vector<std::string>& classNames,
                           const std::string& what, std::vector<std::string>& notes)
{
    // A matrix stored by value (every run since matrices travel with the run) is the run's own:
    // one that does not fit its classes is a damaged config, an error, never replaced.
    if (setting.byValue() || !isUtilityFileSpec(setting.spec)) {
        return resolveUtility(setting, classNames, what);
    }
    try {
        return resolveUtility(setting, classNames, what);
    } catch (const InputError& error) {
        // Only a run from before by-value matrices names a file; its file is the user's and may
        // have been edited, moved or deleted since.
        notes.push_back(std::string(error.what()) + "; one-hot is used in its place (this run folder predates "
                                                    "matrices stored with the run and names the file " + setting.spec + ")");
        return UtilityMatrix::oneHot(static_cast<int64_t>(classNames.size()));
    }
}

} // namespace

RunDecisions openRunDecisions(const TrainConfig& config, const std::vector<std::string>& classNames,
                              const std::string& configPath)
{
    RunDecisions decisions;
    decisions.trainingUtility =
        openOrOneHot(config.objective.utility, classNames, configPath + ": objective.utility", decisions.notes);
    decisions.decisionUtility =
        openOrOneHot(config.decision.utility, classNames, configPath + ": decision.utility", decisions.notes);
    decisions.rule = config.decision.rule;
    decisions.deferUtility = config.decision.deferUtility;
    decisions.trainingDescription = config.objective.utility.describe();
    decisions.decisionDescription = config.decision.utility.describe();
    return decisions;
}

} // namespace lbd
