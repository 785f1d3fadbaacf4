#pragma once
// Precompiled header for every translation unit of lbd_core and the tests:
// torch/torch.h costs ~25 s and ~1.5 GB per file without it.
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>
