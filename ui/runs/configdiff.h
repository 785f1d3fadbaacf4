#pragma once
// What differs between compared runs' settings: each run's config.json flattened to
// "section.key" -> value (JSON text), and the keys whose value is not the same in every run (or
// is missing from some). The comparison table shows only those, so two runs that differ in the
// seed and the learning rate show two rows, not two hundred.
#include <QString>

#include <map>
#include <string>
#include <vector>

namespace lbd::ui {

using FlatConfig = std::map<std::string, std::string>; // "optimizer.learning_rate" -> "0.1"

// Empty when the folder has no readable config.json (the run's other rows say why).
FlatConfig readFlatConfig(const QString& runDirectory);

// Keys, sorted, whose value differs between the configs or is missing from one; empty for fewer
// than two configs.
std::vector<std::string> differingKeys(const std::vector<FlatConfig>& configs);

} // namespace lbd::ui
