#pragma once
// Where a run came from, recorded in run.json's "provenance" so that two runs can be told apart
// later (`lbd diff`, the Runs page's comparison): the build (lbd version and commit), the command
// line, the machine (host, CPU, GPU, driver, CUDA, cuDNN, NCCL) and a fingerprint of the data.
// Every value is a string; what does not apply is "none" (no GPU), what cannot be known "unknown".
#include "datasets/datasetoptions.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace lbd {

// The keys of the provenance object, in the order they are written and compared.
const std::vector<std::string>& provenanceKeys();

// This process's provenance for a run on `data`; `data` may be null (the data unknown to the
// caller: its fingerprint is then "unknown").
nlohmann::json currentProvenance(const DatasetOptions* data);

// A cheap hash of the data set's identity, no pixel read: the names, sizes and modification
// times of its files (the built-in sets' folder, an image folder's every file, a list file and
// every image it lists), or the generator's parameters of a synthetic set. "fnv1a64:<16 hex>
// (<files> files, <bytes> bytes)"; the same files give the same text on any machine.
std::string dataFingerprint(const DatasetOptions& data);

} // namespace lbd
