#pragma once
// Files in the layout of Python's torch.save: a zip (LibTorch's own writer,
// caffe2::serialize::PyTorchStreamWriter) holding <archive>/data.pkl, a plain pickle
// (plainpickle.h), the tensors' bytes as <archive>/data/<key>, <archive>/byteorder and
// <archive>/version. PyTorch 1.13 and 2.x read these with the default torch.load, also with
// weights_only=True; LibTorch reads them back with torch::pickle_load (readTorchSaveFile).
#include "core/util/plainpickle.h"

#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

namespace lbd {

class TorchSaveArchive {
public:
    // The pickle node for `tensor`: a contiguous CPU copy becomes storage data/<n> of this
    // archive (detached; dtypes with a Python storage class only, std::invalid_argument else).
    PickleValue add(const torch::Tensor& tensor);

    // Writes `root` and the storages added so far to `path` atomically. Throws RunError naming
    // the file when it cannot be written (as writeFileAtomically does).
    void write(const std::string& path, const PickleValue& root) const;

private:
    std::vector<torch::Tensor> m_storages;
};

// A torch.save file read with our own unpickler (picklereader.h): Python's
// torch.save(model.state_dict()) of PyTorch 1.13 and 2.x (zip format), which torch::pickle_load
// reads as None, and every file TorchSaveArchive writes. Tensors stay references until asked for.
class TorchSaveReader {
public:
    // Throws InputError naming the file and `what` it should be (as readTorchSaveFile).
    TorchSaveReader(const std::string& path, const std::string& what, int64_t maxBytes);
    ~TorchSaveReader();
    TorchSaveReader(const TorchSaveReader&) = delete;
    TorchSaveReader& operator=(const TorchSaveReader&) = delete;

    const PickleValue& root() const { return m_root; }
    // A CPU tensor with its own memory, checked against its storage's bytes (InputError naming
    // the file and `name`, the key it is read for, when the view runs outside its storage).
    torch::Tensor tensor(const PickledTensor& reference, const std::string& name) const;

private:
    std::string m_path;
    std::string m_what;
    PickleValue m_root;
    struct Zip;
    std::unique_ptr<Zip> m_zip;
};

// Tensor files a run keeps (test / validation probabilities, weights): far above a 1000-class
// run's, and checked from the file's size before a byte is read.
inline constexpr int64_t kMaxTensorFileBytes = int64_t(4) << 30;

// A file written by torch.save, TorchSaveArchive or torch::pickle_save, read with
// torch::pickle_load on the CPU. Throws InputError naming the file and `what` it should be
// ("not <what> (...)") when it is missing, larger than maxBytes, not a zip, or not such a file.
c10::IValue readTorchSaveFile(const std::string& path, const std::string& what, int64_t maxBytes = kMaxTensorFileBytes);

} // namespace lbd
