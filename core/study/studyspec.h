#pragma once
// A study: one base config x factors (each a list of levels that patch the config) x seeds.
// Every (cell, seed) is an ordinary run folder, so every page and verb that reads runs reads a
// study's runs too. Torch-free: the GUI edits and shows these values directly.
//
// study.json:
//   {"name": "particles", "title": ..., "paper_table": "Table 7", "claim": "one sentence",
//    "description": ..., "preset": "fashion-mnist-lt"   (or "config": {a whole config}),
//    "set": {"train.eval_every": 20}                     (dotted keys or nested objects),
//    "factors": [{"name": "M", "key": "model.particles", "values": [1, 2, 3]},
//                {"name": "method", "levels": [{"label": "CE", "baseline": "ce"},
//                                              {"label": "LBD M=5", "set": {"model.particles": 5}}]}],
//    "seeds": [0, 1, 2],
//    "quick": {"preset": "quick-cpu", "set": {...}, "seeds": [0, 1]},   (the --quick scale)
//    "metrics": ["accuracy", "tail", ...],               (the table's columns; default: all)
//    "claims": [{"text": ..., "cell": "LBD", "against": "CE", "metric": "tail", "better": "higher"}]}
//                                                         (optional: verdicts, core/study/studyclaims.h)
// A level may train nothing: {"label": "CE + post-hoc logit adjustment", "decide_from": "CE",
// "decision": {"utility": "prior:tune"}} re-decides the finished runs of the cell whose level in
// this factor is "CE" (core/study/decisioncell.h).
// A seed sets data.seed and train.seed, as `lbd train --seed` does: the long-tailed draw and the
// training both change.
#include <nlohmann/json.hpp>

#include "core/study/studyclaims.h"
#include "core/train/protocol.h"

#include <optional>
#include <string>
#include <vector>

namespace lbd {

// What a decision-only level decides with: a utility ("prior:<tau>", "prior:tune" = tau chosen on
// the source run's validation split, "onehot", "tail:<c>") and a rule that uses it.
struct StudyDecision {
    std::string utility;
    std::string rule = "expected";
    bool operator==(const StudyDecision& other) const { return utility == other.utility && rule == other.rule; }
};

struct StudyLevel {
    std::string label;
    std::optional<std::string> baseline; // a method of the paper's comparisons (applied first)
    nlohmann::json set = nlohmann::json::object(); // nested config patch
    // A level that follows another protocol than the study's (the utility ablation's one-hot
    // level is a paper-standard run): applied before `set` (applyProtocolToJson).
    std::optional<Protocol> protocol;
    // A decision-only level: the label of the level of this factor whose runs it re-decides.
    std::optional<std::string> decideFrom;
    std::optional<StudyDecision> decision;
};

struct StudyFactor {
    std::string name;
    std::string key; // the config key of a "values" factor (empty for named levels)
    std::vector<StudyLevel> levels;
};

struct StudyScale {
    std::string preset;                          // empty: a whole "config" is given
    nlohmann::json config = nlohmann::json();    // null unless given
    nlohmann::json set = nlohmann::json::object();
    std::vector<int64_t> seeds;
};

struct StudySpec {
    std::string name;
    std::string title;
    std::string paperTable;
    std::string claim;
    std::string description;
    StudyScale full;
    std::optional<StudyScale> quick;
    std::vector<StudyFactor> factors;
    std::vector<std::string> metrics; // keys of studyMetrics(); empty: all
    // The protocol every cell follows unless its level names another (lbd-math.md section 8);
    // applied to the base config, at either scale. Built-in studies name one; a user's study may
    // leave its preset's own.
    std::optional<Protocol> protocol;
    // The paper's claims as paired comparisons of two cells (studyclaims.h); may be empty.
    std::vector<StudyClaim> claims;
};

// Throws InputError naming the key ("study.factors[1].levels[0].label must be a string").
StudySpec studySpecFromJson(const nlohmann::json& json, const std::string& source = "study");
nlohmann::json toJson(const StudySpec& spec);
StudySpec loadStudySpec(const std::string& path);

// Seeds of one study: 1..100 distinct integers in 0..2^31-1 (a seed becomes a folder name and an
// int seed of the run). One check for a study file, `lbd study --seeds` and the GUI.
inline constexpr size_t kMaxStudySeeds = 100;
inline constexpr int64_t kMaxStudySeed = 2147483647;
inline constexpr size_t kMaxStudyCells = 1000;
// Throws InputError naming `key` and the seed.
void checkStudySeeds(const std::vector<int64_t>& seeds, const std::string& key);
// "0,1,2" as seeds, digits only (no sign, no overflow clamped), then checkStudySeeds.
std::vector<int64_t> parseStudySeeds(const std::string& text, const std::string& key);

// "model.particles" = 3 as {"model": {"particles": 3}}; a nested object passes through.
nlohmann::json nestedPatch(const nlohmann::json& set, const std::string& context);

// How a study is run: its scale and what the user overrides (the run's study.json records it).
struct StudyOptions {
    bool quick = false;
    std::string preset;                              // replaces the scale's preset / config
    nlohmann::json set = nlohmann::json::object();   // applied after every level (lbd study --set)
    std::vector<int64_t> seeds;                      // replaces the scale's seeds
};
nlohmann::json toJson(const StudyOptions& options);
StudyOptions studyOptionsFromJson(const nlohmann::json& json, const std::string& source);

struct StudyCell {
    std::string id;                        // folder name: "ce", "m-3", "linear__rep-on"
    std::string label;                     // "CE", "M=3", "linear, repulsion on"
    std::vector<std::string> levelLabels;  // one per factor
    nlohmann::json config;                 // the whole config JSON, without the seed
    // A decision-only cell (decisioncell.h): the index of the cell whose finished runs it
    // re-decides (its config is that cell's), and how; -1 for a cell that trains.
    int decideFrom = -1;
    StudyDecision decision;
    bool decisionOnly() const { return decideFrom >= 0; }
};

struct StudyRunRef {
    int cell = 0;
    int64_t seed = 0;
    std::string directory; // relative to the study folder: "runs/<cell id>/seed-<seed>"
};

struct ResolvedStudy {
    StudySpec spec;
    StudyOptions options;
    std::vector<StudyCell> cells;    // the factors' cartesian product, first factor slowest
    std::vector<int64_t> seeds;
    std::vector<StudyRunRef> runs;   // cell-major, seeds inner
    // What the user's --set did to a cell's protocol ("LBD: protocol: app, not paper-standard
    // (...)"): printed before the study starts.
    std::vector<std::string> notes;
};

// Expands the cells, and checks every cell's config with the one config parser (an invalid
// level names the cell). Throws InputError.
ResolvedStudy resolveStudy(const StudySpec& spec, const StudyOptions& options);
// The config JSON of one run: the cell's config with the seed set.
nlohmann::json runConfigJson(const ResolvedStudy& study, const StudyRunRef& run);

// A built-in study by name (a file in resources/studies), or a study.json path.
StudySpec findStudySpec(const std::string& nameOrPath);
struct StudyInfo {
    std::string name;
    std::string title;
    std::string paperTable;
    std::string claim;
    std::string path;
};
std::vector<StudyInfo> listBuiltInStudies();

} // namespace lbd
