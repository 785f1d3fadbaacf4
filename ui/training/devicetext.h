#pragma once
// How the status bar names where a run trains: "CPU", "cuda:0", "2 GPUs (data-parallel)".
#include <QString>

#include <string>

namespace lbd::ui {

// `ranks` > 1: a data-parallel run of that many processes (one per GPU, or CPU processes).
QString deviceText(const std::string& device, int ranks = 1);

} // namespace lbd::ui
