#pragma once
// A methods study folder made from committed run reports, for the claim-verdict tests: the
// paper-standard runs trained on GPUs on 2026-11-28 (docs/results/paper-studies/
// runs-2026-11-28-h200x4.tar.xz: LBD seeds 0-2; runs-2026-11-28-h200x2.tar.xz: CE and CE + post-hoc
// logit adjustment seeds 0-2), read out of the archives with tar. Only status.json and report.json
// of each run are copied: what the summary and the verdicts read.
#include <QString>

#include "core/study/studyspec.h"

namespace lbd::test {

// Writes the built-in methods study (full scale, seeds 0-2) into `studyDirectory` with those nine
// runs; the other cells stay missing. `sourceDirectory`: the repository (a test's LBD_SOURCE_DIR).
// `options` as `lbd study methods` takes them (--set data.dataset=folder ...: the study as a user
// runs it on their own folder; its runs here are still the committed ones). Returns an error
// message, empty on success.
QString makeMethodsClaimsStudy(const QString& studyDirectory, const QString& sourceDirectory,
                               const lbd::StudyOptions& options = {});

} // namespace lbd::test
