#pragma once
// Checks a torch archive (the zip that torch.save, TorchSaveArchive and LibTorch's
// torch::serialize::OutputArchive write) BEFORE anything parses it: its zip structure from our own
// reading of the central directory, the size and CRC-32 of every entry (a flipped byte is found
// here, not by an unpickler that trips over it), and the globals every pickle inside names (only
// the tensor-rebuild ones a file of tensors needs: a pickle naming os.system is refused, whichever
// command loads it). Every refusal is an InputError naming the file. Torch-free.
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

enum class ArchiveLayout {
    // torch.save / TorchSaveArchive / torch::pickle_save: dicts, lists, strings, numbers, tensors.
    TorchSave,
    // torch::serialize::OutputArchive (checkpoint.pt): the same, held by a TorchScript module
    // __torch__.Module whose code/ declares attributes and no methods.
    LibTorchModule,
};

struct ArchiveEntry {
    std::string name;      // "archive/data.pkl"
    uint64_t dataOffset = 0;
    uint64_t size = 0;       // of its contents
    uint64_t storedSize = 0; // in the file: the same unless deflated
    bool deflated = false;   // LibTorch deflates a module's code/ files; tensors and pickles are stored
    uint32_t crc32 = 0;      // of its contents
};

// Throws InputError "PATH: not WHAT (...)" when the file is missing, larger than maxBytes, not a
// zip of stored entries, or its directory does not fit the file; "PATH: damaged (...)" when an
// entry fails its CRC-32; "PATH: refused: ..." when a pickle names a global outside the layout's
// allowed set or a module's code defines a method. Reads the file once in 1 MiB pieces.
std::vector<ArchiveEntry> checkTorchArchive(const std::string& path, const std::string& what, int64_t maxBytes,
                                            ArchiveLayout layout);

// The globals a layout allows ("torch._utils._rebuild_tensor_v2", ...), for messages and tests.
const std::vector<std::string>& allowedArchiveGlobals(ArchiveLayout layout);

} // namespace lbd
