#pragma once
// The seeded Rng lives with the readers that draw with it first (datasets/common/random.h).
#include "datasets/common/random.h"
