#pragma once
// The CUDA devices the GUI offers ("cuda:0 NVIDIA H100 80GB HBM3", one per device): the engine's
// list (lbd::buildInfo), unless a test has set another one. The one place the device choices read
// it, so that the choices of a machine with several GPUs can be tested on a machine with none.
#include <QStringList>

#include <optional>

namespace lbd::ui {

QStringList visibleGpus();
// Tests: `devices` replaces the engine's list until reset with std::nullopt.
void setVisibleGpusForTesting(std::optional<QStringList> devices);

} // namespace lbd::ui
