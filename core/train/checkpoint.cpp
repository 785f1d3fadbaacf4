#include "core/train/checkpoint.h"

#include "core/train/flatsgd.h"
#include "core/util/archivecheck.h"
#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/torchsavearchive.h"

#include <sstream>

namespace lbd {
namespace {

// FNV-1a over every tensor's bytes and the text entries, in archive order: a flipped byte
// anywhere in the data is found when the checkpoint is read back (a zip's own CRCs are not
// checked by LibTorch's reader).
class Checksum {
public:
    void add(const void* data, size_t size)
    {
        const auto* bytes = static_cast<const uint8_t*>(data);
        for (size_t i = 0; i < size; ++i) {
            m_hash = (m_hash ^ bytes[i]) * 0x100000001b3ULL;
        }
    }
    void add(const torch::Tensor& tensor)
    {
        const torch::Tensor cpu = tensor.contiguous();
        add(cpu.data_ptr(), static_cast<size_t>(cpu.numel()) * cpu.element_size());
    }
    void add(const std::string& text) { add(text.data(), text.size()); }
    int64_t value() const { return static_cast<int64_t>(m_hash); }

private:
    uint64_t m_hash = 0xcbf29ce484222325ULL;
};

} // namespace

void saveCheckpoint(const std::string& path, torch::nn::Module& model, FlatSgd& optimizer, const CheckpointState& state)
{
    torch::serialize::OutputArchive archive;
    Checksum checksum;
    const auto write = [&](const std::string& key, const torch::Tensor& value, bool buffer) {
        // Parameters are views into the optimiser's flat buffer: clone so that each entry
        // stores only its own elements.
        const torch::Tensor copy = value.detach().cpu().clone();
        checksum.add(copy);
        archive.write(key, copy, buffer);
    };
    for (const auto& item : model.named_parameters()) {
        write("param/" + item.key(), item.value(), false);
    }
    for (const auto& item : model.named_buffers()) {
        write("buffer/" + item.key(), item.value(), true);
    }
    write("optimizer/momentum", optimizer.momentumBuffer(), true);
    if (state.lossScaler.defined()) {
        write("train/loss_scaler", state.lossScaler, true);
    }
    checksum.add(state.historyJsonl);
    checksum.add(state.configJson);
    archive.write("epoch", c10::IValue(static_cast<int64_t>(state.epoch)));
    archive.write("history", c10::IValue(state.historyJsonl));
    archive.write("config", c10::IValue(state.configJson));
    archive.write("checksum", c10::IValue(checksum.value() ^ static_cast<int64_t>(state.epoch)));
    // Serialised in memory first: LibTorch's file writer can fail inside a destructor (a full
    // disk ended the process with std::terminate); the atomic writer reports it and cleans up.
    std::ostringstream bytes;
    try {
        archive.save_to(bytes);
    } catch (const c10::Error& error) {
        throw RunError(path + ": cannot serialise the checkpoint (" + std::string(error.what_without_backtrace()) + ")");
    }
    writeFileAtomically(path, bytes.str());
}

CheckpointState loadCheckpoint(const std::string& path, torch::nn::Module& model, FlatSgd* optimizer)
{
    // The zip's sizes and CRC-32s and the pickles' globals are checked before LibTorch parses a
    // byte: its unpickler refused a poisoned pickle (os.system) with an error that named no file.
    checkTorchArchive(path, "a checkpoint", kMaxTensorFileBytes, ArchiveLayout::LibTorchModule);
    torch::serialize::InputArchive archive;
    try {
        archive.load_from(path);
    } catch (const c10::Error& error) {
        throw InputError(path + ": cannot read checkpoint (" + std::string(error.what_without_backtrace()) + ")");
    } catch (const std::exception& error) { // TorchScript's ErrorReport is not a c10::Error
        throw InputError(path + ": cannot read checkpoint (" + std::string(error.what()) + ")");
    }
    CheckpointState state;
    Checksum checksum;
    try {
        torch::NoGradGuard noGrad;
        const auto restore = [&](const std::string& key, torch::Tensor& target) {
            torch::Tensor value;
            archive.read(key, value);
            checksum.add(value);
            if (value.sizes() != target.sizes()) {
                throw CheckpointMismatch(path + ": " + key + " has shape " + c10::str(value.sizes()) + ", the model expects "
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
        } else {
            torch::Tensor momentum; // not restored for inference, but part of the checksum
            archive.read("optimizer/momentum", momentum, true);
            checksum.add(momentum);
        }
        torch::Tensor lossScaler;
        if (archive.try_read("train/loss_scaler", lossScaler, true)) {
            checksum.add(lossScaler);
            state.lossScaler = lossScaler;
        }
        c10::IValue value;
        archive.read("epoch", value);
        state.epoch = static_cast<int>(value.toInt());
        archive.read("history", value);
        state.historyJsonl = value.toStringRef();
        archive.read("config", value);
        state.configJson = value.toStringRef();
        checksum.add(state.historyJsonl);
        checksum.add(state.configJson);
        // Checkpoints written before the checksum have none: they load as before.
        c10::IValue stored;
        if (archive.try_read("checksum", stored) && stored.toInt() != (checksum.value() ^ static_cast<int64_t>(state.epoch))) {
            throw InputError(path + ": damaged (its checksum does not match its contents); the run cannot continue from "
                                    "it (train again, or restore the file from a backup)");
        }
    } catch (const c10::Error& error) {
        throw InputError(path + ": incomplete or incompatible checkpoint (" + std::string(error.what_without_backtrace()) + ")");
    }
    return state;
}

} // namespace lbd
