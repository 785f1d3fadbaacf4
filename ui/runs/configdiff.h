#pragma once
// What differs between compared runs' settings and environments: each run's config.json flattened
// to "section.key" -> value (JSON text), run.json's provenance (build, command line, machine, data
// fingerprint), and the keys whose value is not the same in every run (or is missing from some).
// The comparison table shows only those, so two runs that differ in the seed and the learning
// rate show two rows, not two hundred. The reading and comparing is core's (core/train/rundiff.h),
// the same `lbd diff` prints.
#include "core/train/rundiff.h"

#include <QString>

#include <map>
#include <string>
#include <vector>

namespace lbd::ui {

using FlatConfig = lbd::FlatValues; // "optimizer.learning_rate" -> "0.1"

// Empty when the folder has no readable config.json (the run's other rows say why).
FlatConfig readFlatConfig(const QString& runDirectory);
// run.json's provenance and device; empty when the folder has no readable run.json.
FlatConfig readFlatEnvironment(const QString& runDirectory);

// Keys, sorted, whose value differs between the configs or is missing from one; empty for fewer
// than two configs.
using lbd::differingKeys;

} // namespace lbd::ui
