#pragma once
// Decision-only cells of a study. Post-hoc methods (logit adjustment, Menon et al., ICLR 2021, as
// the decision preset prior:tau) change only how a trained run decides, so their row of a table
// trains nothing: a level
//   {"label": "CE + post-hoc logit adjustment", "decide_from": "CE",
//    "decision": {"utility": "prior:tune", "rule": "expected"}}
// takes, for each seed, the finished run of the cell whose level in the same factor is "CE" and
// re-decides its cached test probabilities (core/study/redecidedrun.h). Its cell's config is the
// source cell's (what was trained); its runs are folders of their own with a report.json, so the
// summary reads them as any run. Torch-free: the spec side only.
#include "core/study/studyspec.h"

#include <nlohmann/json.hpp>

#include <string>

namespace lbd {

// The utility spelling that tunes tau of prior:tau on the source run's validation split.
inline constexpr const char* kPriorTuneUtility = "prior:tune";

// {"utility": ..., "rule": ...}: InputError naming `context` and the key. The utility is
// "prior:tune", "prior:<tau>", "onehot" or "tail:<c>" (a study carries no matrix file), the rule
// one that decides with the utility matrix.
StudyDecision studyDecisionFromJson(const nlohmann::json& json, const std::string& context);
nlohmann::json toJson(const StudyDecision& decision);

// A factor's decision-only levels: decide_from names another level of the same factor, one that
// trains (a decision-only source, itself included, so also any cycle, is refused). InputError
// naming `context`.levels[i].decide_from.
void checkDecisionLevels(const StudyFactor& factor, const std::string& context);

// After resolveStudy expanded the cells: each decision-only cell gets the index of its source cell
// (the same levels, with the source level in the decision-only level's factor) and that cell's
// config. InputError when a cell has decision-only levels in two factors, or "prior:tune" reads a
// source without a validation split.
void linkDecisionCells(ResolvedStudy& study);

// The index in study.runs of the run that run `run` re-decides (same seed, source cell); -1 for a
// run that trains.
int decisionSourceRun(const ResolvedStudy& study, int run);

// "prior:tune, rule expected": for notes and logs.
std::string describeDecision(const StudyDecision& decision);

} // namespace lbd
