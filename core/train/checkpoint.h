#pragma once
// Atomic checkpoints: named parameters and buffers of the model, the optimiser's momentum, the
// fp16 loss scaler, the epoch reached and the metric history, so that `--resume` continues
// exactly.
#include "core/util/error.h"

#include <torch/torch.h>

#include <string>

namespace lbd {

class FlatSgd;

struct CheckpointState {
    int epoch = 0;             // last finished epoch
    std::string historyJsonl;  // metrics.jsonl as of that epoch
    std::string configJson;
    // TrainStep::lossScalerState(); undefined in checkpoints written before it was saved, and
    // then the scaler starts afresh.
    torch::Tensor lossScaler;
};

void saveCheckpoint(const std::string& path, torch::nn::Module& model, FlatSgd& optimizer, const CheckpointState& state);

// A checkpoint whose tensors do not have the model's shapes (written for another model).
class CheckpointMismatch : public InputError {
public:
    using InputError::InputError;
};

// Loads into an already-built model and optimiser of the same shape. Throws InputError naming the
// file when it is missing, corrupt, refused (archivecheck.h: checked before it is parsed), or
// CheckpointMismatch when it was written for another model; and InputError naming the file and the
// entry when a value is outside what training writes (checked before the model is touched): epoch
// in 1..runEpochs (the run's train.epochs), one history line per epoch, the loss scaler's scale a
// power of two with whole counts, every floating tensor finite.
// `optimizer` may be null (inference: only the model is restored).
CheckpointState loadCheckpoint(const std::string& path, torch::nn::Module& model, FlatSgd* optimizer, int runEpochs);

} // namespace lbd
