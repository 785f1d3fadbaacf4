#include "core/train/checkpoint.h"

#include "core/train/flatsgd.h"
#include "core/train/trainconfig.h"
#include "core/util/archivecheck.h"
#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/jsonfile.h"
#include "core/util/jsonread.h"
#include "core/util/numbertext.h"
#include "core/util/torchsavearchive.h"

#include <algorithm>
#include <cmath>
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

// A tensor entry as read from the archive, and the tensor it is copied into (a handle sharing the
// parameter's storage, not a pointer: named_parameters() returns a temporary dictionary);
// undefined: read only for the checksum.
struct ReadTensor {
    std::string entry;
    torch::Tensor value;
    torch::Tensor target;
};

// The loss scaler's update (flatsgd.cpp, at::_amp_update_scale_): the scale starts at 2^16 and is
// only doubled or halved, the growth tracker counts up to this interval and restarts at 0.
constexpr int64_t kLossScalerGrowthInterval = 2000;
// A float counts whole steps exactly below 2^24.
constexpr double kExactFloatSteps = 16777216.0;

// What saveCheckpoint (TrainingSession::record) can have written, in one place, checked before
// anything is used: a checkpoint can carry a valid checksum and still hold values no training
// wrote (edited and re-summed, or written by another tool), and an epoch of 900 would resume past
// the run's end, a NaN weight would turn every prediction into NaN. `runEpochs`: the run's
// train.epochs, which no checkpoint passes (a resume's --epochs is written to config.json first).
void checkCheckpointValues(const CheckpointState& state, int64_t epoch, const std::string& path, int runEpochs,
                           const std::vector<ReadTensor>& tensors)
{
    const auto outside = [&](const std::string& entry, const std::string& value, const std::string& range,
                             const std::string& why) {
        throw InputError(path + ": entry " + entry + " = " + value.substr(0, 40) + " is outside " + range + " (" + why + ")");
    };
    if (epoch < 1 || epoch > runEpochs) {
        outside("epoch", std::to_string(epoch), "1.." + std::to_string(runEpochs), "the run's train.epochs");
    }
    // One metrics line per finished epoch, in order (metrics.jsonl is rewritten from them on resume).
    std::istringstream lines(state.historyJsonl);
    std::string line;
    int count = 0;
    while (std::getline(lines, line)) {
        if (line.empty()) {
            continue;
        }
        ++count;
        if (count > state.epoch) {
            break;
        }
        const std::string source = path + ": entry history, line " + std::to_string(count);
        const nlohmann::json metrics = parseJsonText(line, source);
        requireObject(metrics, source);
        const auto lineEpoch = metrics.find("epoch");
        if (lineEpoch != metrics.end() && !(lineEpoch->is_number_integer() && lineEpoch->get<int64_t>() == count)) {
            throw InputError(path + ": entry history: line " + std::to_string(count) + " is of epoch "
                             + lineEpoch->dump().substr(0, 40) + ", not " + std::to_string(count)
                             + " (one line per finished epoch, in order)");
        }
    }
    if (count != state.epoch) {
        throw InputError(path + ": entry history has "
                         + (count > state.epoch ? "more than " + std::to_string(state.epoch) : std::to_string(count))
                         + " lines, not " + std::to_string(state.epoch) + " (one per finished epoch up to its entry epoch)");
    }
    if (state.lossScaler.defined()) {
        const std::string entry = "train/loss_scaler";
        if (state.lossScaler.numel() != 3 || !state.lossScaler.is_floating_point()) {
            outside(entry, c10::str(state.lossScaler.sizes()) + " " + std::string(state.lossScaler.dtype().name()),
                    "[3] floats", "scale, growth tracker, skipped steps");
        }
        const torch::Tensor values = state.lossScaler.to(torch::kFloat64).contiguous();
        const double scale = values[0].item<double>();
        const double growth = values[1].item<double>();
        const double skipped = values[2].item<double>();
        int exponent = 0;
        if (!(std::isfinite(scale) && scale > 0 && std::frexp(scale, &exponent) == 0.5)) {
            outside(entry + "[0] (scale)", numberText(scale), "the positive powers of two", "2^16 doubled or halved");
        }
        if (!(growth >= 0 && growth < double(kLossScalerGrowthInterval) && growth == std::floor(growth))) {
            outside(entry + "[1] (growth tracker)", numberText(growth), "0.." + std::to_string(kLossScalerGrowthInterval - 1),
                    "steps since the scale last changed");
        }
        if (!(skipped >= 0 && skipped < kExactFloatSteps && skipped == std::floor(skipped))) {
            outside(entry + "[2] (skipped steps)", numberText(skipped), "0..16777215", "a count of optimiser steps");
        }
    }
    for (const ReadTensor& tensor : tensors) {
        if (tensor.value.is_floating_point() && !torch::isfinite(tensor.value).all().item<bool>()) {
            throw InputError(path + ": entry " + tensor.entry + " holds NaN or infinite values (training never checkpoints "
                                    "those: a diverged epoch is not saved)");
        }
    }
}

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

CheckpointState loadCheckpoint(const std::string& path, torch::nn::Module& model, FlatSgd* optimizer, int runEpochs)
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
        // Read and shape-checked first, copied into the model only once every value passed.
        std::vector<ReadTensor> read;
        const auto restore = [&](const std::string& key, torch::Tensor& target) {
            torch::Tensor value;
            archive.read(key, value);
            checksum.add(value);
            if (value.sizes() != target.sizes()) {
                throw CheckpointMismatch(path + ": " + key + " has shape " + c10::str(value.sizes()) + ", the model expects "
                                 + c10::str(target.sizes()) + " (checkpoint of another model?)");
            }
            read.push_back({key, value, target});
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
            read.push_back({"optimizer/momentum", momentum, torch::Tensor()});
        }
        torch::Tensor lossScaler;
        if (archive.try_read("train/loss_scaler", lossScaler, true)) {
            checksum.add(lossScaler);
            state.lossScaler = lossScaler;
        }
        c10::IValue value;
        archive.read("epoch", value);
        const int64_t epoch = value.toInt();
        state.epoch = static_cast<int>(std::clamp<int64_t>(epoch, -1, int64_t(kMaxEpochs) + 1)); // the check names `epoch`
        archive.read("history", value);
        state.historyJsonl = value.toStringRef();
        archive.read("config", value);
        state.configJson = value.toStringRef();
        checksum.add(state.historyJsonl);
        checksum.add(state.configJson);
        // Checkpoints written before the checksum have none: they load as before.
        c10::IValue stored;
        if (archive.try_read("checksum", stored) && stored.toInt() != (checksum.value() ^ epoch)) {
            throw InputError(path + ": damaged (its checksum does not match its contents); the run cannot continue from "
                                    "it (train again, or restore the file from a backup)");
        }
        checkCheckpointValues(state, epoch, path, runEpochs, read);
        for (const ReadTensor& tensor : read) {
            if (tensor.target.defined()) {
                torch::Tensor target = tensor.target;
                target.copy_(tensor.value);
            }
        }
    } catch (const c10::Error& error) {
        throw InputError(path + ": incomplete or incompatible checkpoint (" + std::string(error.what_without_backtrace()) + ")");
    }
    return state;
}

} // namespace lbd
