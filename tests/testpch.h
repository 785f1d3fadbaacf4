#pragma once
// Torch must precede any Qt header (Qt's `slots` macro breaks torch's headers).
#include <torch/torch.h>

#include <QtTest>
