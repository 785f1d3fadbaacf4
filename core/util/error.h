#pragma once
// InputError / RunError live with the readers that throw them first (datasets/common/error.h).
#include "datasets/common/error.h"
