#include "core/train/checkpoint.h"

#include "core/train/flatsgd.h"
#include "core/util/atomicfile.h"
#include "core/util/error.h"

namespace lbd {

void saveCheckpoint(const std::string& path, torch::nn::Module& model, FlatSgd& optimizer, const CheckpointState& state)
{
    torch::serialize::OutputArchive archive;
    // Parameters are views into the optimiser's flat buffer: clone so that each entry stores
    // only its own elements.
    for (const auto& item : model.named_parameters()) {
        archive.write("param/" + item.key(), item.value().detach().cpu().clone());
    }
    for (const auto& item : model.named_buffers()) {
        archive.write("buffer/" + item.key(), item.value().detach().cpu().clone(), /*is_buffer=*/true);
    }
    archive.write("optimizer/momentum", optimizer.momentumBuffer().detach().cpu().clone(), true);
    if (state.lossScaler.defined()) {
        archive.write("train/loss_scaler", state.lossScaler.detach().cpu().clone(), true);
    }
    archive.write("epoch", c10::IValue(static_cast<int64_t>(state.epoch)));
    archive.write("history", c10::IValue(state.historyJsonl));
    archive.write("config", c10::IValue(state.configJson));
    writeFileAtomically(path, [&](const std::string& temp) { archive.save_to(temp); });
}

CheckpointState loadCheckpoint(const std::string& path, torch::nn::Module& model, FlatSgd* optimizer)
{
    torch::serialize::InputArchive archive;
    try {
        archive.load_from(path);
    } catch (const c10::Error& error) {
        throw InputError(path + ": cannot read checkpoint (" + std::string(error.what_without_backtrace()) + ")");
    }
    CheckpointState state;
    try {
        torch::NoGradGuard noGrad;
        const auto restore = [&](const std::string& key, torch::Tensor& target) {
            torch::Tensor value;
            archive.read(key, value);
            if (value.sizes() != target.sizes()) {
                throw InputError(path + ": " + key + " has shape " + c10::str(value.sizes()) + ", the model expects "
                                 + c10::str(target.sizes()) + " (checkpoint of another model?)");
            }
            target.copy_(value);
        };
        for (auto& item : model.named_parameters()) {
            restore("param/" + item.key(), item.value());
        }
        for (auto& item : model.named_buffers()) {
            restore("buffer/" + item.key(), item.value());
        }
        if (optimizer) {
            restore("optimizer/momentum", optimizer->momentumBuffer());
        }
        torch::Tensor lossScaler;
        if (archive.try_read("train/loss_scaler", lossScaler, true)) {
            state.lossScaler = lossScaler;
        }
        c10::IValue value;
        archive.read("epoch", value);
        state.epoch = static_cast<int>(value.toInt());
        archive.read("history", value);
        state.historyJsonl = value.toStringRef();
        archive.read("config", value);
        state.configJson = value.toStringRef();
    } catch (const c10::Error& error) {
        throw InputError(path + ": incomplete or incompatible checkpoint (" + std::string(error.what_without_backtrace()) + ")");
    }
    return state;
}

} // namespace lbd
