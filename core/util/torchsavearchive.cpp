#include "core/util/torchsavearchive.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"

#include <caffe2/serialize/inline_container.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace lbd {
namespace {

// Python's storage classes (torch.FloatStorage, ...) are the names the unpicklers map to dtypes.
std::string storageType(torch::ScalarType type)
{
    switch (type) {
    case torch::kFloat32: return "FloatStorage";
    case torch::kFloat64: return "DoubleStorage";
    case torch::kFloat16: return "HalfStorage";
    case torch::kBFloat16: return "BFloat16Storage";
    case torch::kInt64: return "LongStorage";
    case torch::kInt32: return "IntStorage";
    case torch::kInt16: return "ShortStorage";
    case torch::kInt8: return "CharStorage";
    case torch::kUInt8: return "ByteStorage";
    case torch::kBool: return "BoolStorage";
    default: throw std::invalid_argument(std::string("TorchSaveArchive: no Python storage class for dtype ") + c10::toString(type));
    }
}

// torch.load compares this record with the reader's byte order and swaps if they differ.
const char* hostByteOrder()
{
    const uint16_t one = 1;
    return *reinterpret_cast<const unsigned char*>(&one) == 1 ? "little" : "big";
}

} // namespace

PickleValue TorchSaveArchive::add(const torch::Tensor& tensor)
{
    const torch::Tensor storage = tensor.detach().to(torch::kCPU).contiguous().clone();
    PickledTensor pickled;
    pickled.storageType = storageType(storage.scalar_type());
    pickled.key = std::to_string(m_storages.size());
    pickled.storageElements = storage.numel();
    pickled.sizes = storage.sizes().vec();
    pickled.strides = storage.strides().vec();
    m_storages.push_back(storage);
    return PickleValue::tensor(std::move(pickled));
}

void TorchSaveArchive::write(const std::string& path, const PickleValue& root) const
{
    const std::string pickle = plainPickle(root);
    // Serialised in memory, then written atomically: the file is complete or absent, and a
    // full disk is reported by writeFileAtomically with the file's name and the reason.
    std::string bytes;
    try {
        // The writer-function form names the archive "archive", as torch.save into a buffer
        // does; the file form would name it after a temporary file.
        caffe2::serialize::PyTorchStreamWriter writer([&bytes](const void* data, size_t size) -> size_t {
            bytes.append(static_cast<const char*>(data), size);
            return size;
        });
        writer.writeRecord("data.pkl", pickle.data(), pickle.size());
        const std::string order = hostByteOrder();
        writer.writeRecord("byteorder", order.data(), order.size());
        for (size_t i = 0; i < m_storages.size(); ++i) {
            const auto& storage = m_storages[i];
            writer.writeRecord("data/" + std::to_string(i), storage.data_ptr(), storage.nbytes());
        }
        writer.writeEndOfFile(); // also writes the version record
    } catch (const c10::Error& error) {
        throw RunError(path + ": cannot write file (" + error.what_without_backtrace() + ")");
    }
    writeFileAtomically(path, bytes);
}

c10::IValue readTorchSaveFile(const std::string& path, const std::string& what, int64_t maxBytes)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw InputError(path + ": file not found");
    }
    // What the file is, from its size and its first bytes, before it costs memory: a zip of at
    // most maxBytes (a 2 GiB sparse file of zeros was read whole, and copied, before it was refused).
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
        throw InputError(fileErrorMessage(path, ec.value()));
    }
    if (static_cast<int64_t>(size) > maxBytes) {
        throw InputError(path + ": " + std::to_string(size >> 20) + " MiB, larger than " + std::to_string(maxBytes >> 20)
                         + " MiB, the limit for " + what);
    }
    char magic[4] = {};
    if (size < 22 || !in.read(magic, 4) || std::string(magic, 4) != std::string("PK\x03\x04", 4)) {
        throw InputError(path + ": not " + what + " (not a zip archive, which torch.save writes)");
    }
    in.seekg(0);
    std::vector<char> bytes(static_cast<size_t>(size));
    if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) {
        throw InputError(path + ": could not be read whole (" + std::to_string(in.gcount()) + " of " + std::to_string(size)
                         + " bytes)");
    }
    try {
        return torch::pickle_load(bytes);
    } catch (const c10::Error& error) {
        throw InputError(path + ": not " + what + " (" + error.what_without_backtrace() + ")");
    }
}

} // namespace lbd
