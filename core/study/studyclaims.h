#pragma once
// The paper's claims a study tests, machine-readable, so that a verdict can be computed from the
// runs (core/study/claimverdict.h) for the built-in studies and for a user's run of them on their
// own data alike. In study.json:
//   "claims": [{"text": "LBD is more accurate than CE on the tail classes",
//               "cell": "LBD", "against": "CE", "metric": "tail", "better": "higher",
//               "margin": 0,                       (optional, in the metric's shown unit)
//               "paper": "CIFAR-10-LT, 5 seeds: 82.33 vs 58.51 % (Table 2)"}]   (optional)
// "cell" and "against" are cell labels of the study ("LBD", "M=8", "linear, repulsion on");
// "better": "higher" claims cell - against > -margin, "lower" claims cell - against < margin (a
// margin turns "better" into "not worse by more than the margin": "at almost no accuracy cost").
// Torch-free.
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace lbd {

struct StudyFactor;

struct StudyClaim {
    std::string text;
    std::string cell;     // the cell the claim is about
    std::string against;  // the cell it is compared with, seed by seed
    std::string metric;   // a key of studyMetrics() ("tail", "ece_published")
    bool higher = true;   // the claimed sign of cell - against
    double margin = 0;    // >= 0, in the metric's shown unit (percentage points for a % metric)
    std::string paper;    // the paper's own figure, with its setting; empty when it has none
    bool operator==(const StudyClaim& other) const;
};

// "claims" of a study file: a list of objects as above. InputError naming `context`[i].key for a
// bad or unknown key, an unknown metric, or a cell label that is not one of the factors' cells.
std::vector<StudyClaim> studyClaimsFromJson(const nlohmann::json& claims, const std::string& context,
                                            const std::vector<StudyFactor>& factors);
nlohmann::json toJson(const std::vector<StudyClaim>& claims);

// The labels of the cells the factors make ("LBD"; "linear, repulsion on" for two factors), in
// the order resolveStudy makes them; empty when there would be more than kMaxStudyCells.
std::vector<std::string> studyCellLabels(const std::vector<StudyFactor>& factors);

} // namespace lbd
