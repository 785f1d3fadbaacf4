#include "core/util/torchsavearchive.h"

#include "core/util/archivecheck.h"
#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/picklereader.h"

#include <caffe2/serialize/inline_container.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
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

namespace {

// What the file is, from its size and its first bytes, before it costs memory: a zip of at most
// maxBytes (a 2 GiB sparse file of zeros was read whole, and copied, before it was refused).
size_t checkTorchSaveFile(const std::string& path, const std::string& what, int64_t maxBytes)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw InputError(path + ": file not found");
    }
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
        throw InputError(path + ": not " + what + " (not a zip archive, which torch.save writes; files of torch.save's "
                         "legacy format, _use_new_zipfile_serialization=False, are not read)");
    }
    return static_cast<size_t>(size);
}

torch::ScalarType storageDtype(const std::string& type)
{
    static const std::pair<const char*, torch::ScalarType> kTypes[] = {
        {"FloatStorage", torch::kFloat32}, {"DoubleStorage", torch::kFloat64}, {"HalfStorage", torch::kFloat16},
        {"BFloat16Storage", torch::kBFloat16}, {"LongStorage", torch::kInt64}, {"IntStorage", torch::kInt32},
        {"ShortStorage", torch::kInt16}, {"CharStorage", torch::kInt8}, {"ByteStorage", torch::kUInt8},
        {"BoolStorage", torch::kBool}};
    for (const auto& [name, dtype] : kTypes) {
        if (type == name) {
            return dtype;
        }
    }
    throw std::invalid_argument("a storage of type torch." + type);
}

// The largest element index the view reads, or -1 for an empty view; nullopt when it overflows.
std::optional<int64_t> lastIndex(const PickledTensor& t)
{
    int64_t last = t.offset;
    for (size_t d = 0; d < t.sizes.size(); ++d) {
        if (t.sizes[d] == 0) {
            return -1;
        }
        int64_t extent = 0;
        if (t.sizes[d] < 0 || t.strides[d] < 0 || __builtin_mul_overflow(t.sizes[d] - 1, t.strides[d], &extent)
            || __builtin_add_overflow(last, extent, &last)) {
            return std::nullopt;
        }
    }
    return last;
}

} // namespace

struct TorchSaveReader::Zip {
    explicit Zip(const std::string& path) : reader(path) {}
    caffe2::serialize::PyTorchStreamReader reader;
};

TorchSaveReader::TorchSaveReader(const std::string& path, const std::string& what, int64_t maxBytes)
    : m_path(path), m_what(what)
{
    checkTorchSaveFile(path, what, maxBytes);
    // Sizes, CRC-32s and the pickle's globals, before LibTorch's zip reader or ours parses a byte.
    checkTorchArchive(path, what, maxBytes, ArchiveLayout::TorchSave);
    try {
        m_zip = std::make_unique<Zip>(path);
        if (m_zip->reader.hasRecord("byteorder")) {
            const auto [data, size] = m_zip->reader.getRecord("byteorder");
            if (std::string(static_cast<const char*>(data.get()), size) != hostByteOrder()) {
                throw InputError(path + ": written on a machine of the other byte order, which is not read here");
            }
        }
        const auto [data, size] = m_zip->reader.getRecord("data.pkl");
        if (size > (size_t(64) << 20)) { // ResNet-50's is 39 KB: the tensors are records of their own
            throw InputError(path + ": not " + what + " (its pickle is " + std::to_string(size >> 20) + " MiB)");
        }
        m_root = readPickle(std::string(static_cast<const char*>(data.get()), size));
    } catch (const c10::Error& error) {
        throw InputError(path + ": not " + what + " (" + error.what_without_backtrace() + ")");
    } catch (const std::runtime_error& error) {
        if (dynamic_cast<const InputError*>(&error)) {
            throw;
        }
        throw InputError(path + ": not " + what + " (" + error.what() + ")");
    }
}

TorchSaveReader::~TorchSaveReader() = default;

torch::Tensor TorchSaveReader::tensor(const PickledTensor& t, const std::string& name) const
{
    const auto bad = [&](const std::string& why) { return InputError(m_path + ": " + name + ": " + why); };
    torch::ScalarType dtype;
    try {
        dtype = storageDtype(t.storageType);
    } catch (const std::invalid_argument& error) {
        throw bad(error.what());
    }
    const std::string record = "data/" + t.key;
    try {
        if (!m_zip->reader.hasRecord(record)) {
            throw bad("its storage " + record + " is not in the archive");
        }
        const auto [data, size] = m_zip->reader.getRecord(record);
        const int64_t elementSize = static_cast<int64_t>(c10::elementSize(dtype));
        if (t.storageElements < 0 || static_cast<int64_t>(size) / elementSize != t.storageElements) {
            throw bad("its storage holds " + std::to_string(size) + " bytes, not " + std::to_string(t.storageElements)
                      + " elements of " + std::to_string(elementSize) + " bytes");
        }
        const auto last = lastIndex(t);
        if (t.offset < 0 || !last || *last >= t.storageElements) {
            throw bad("the tensor's view runs outside its storage of " + std::to_string(t.storageElements) + " elements");
        }
        const torch::Tensor storage = torch::from_blob(data.get(), {t.storageElements}, torch::TensorOptions().dtype(dtype));
        if (*last < 0) {
            return torch::empty(t.sizes, torch::TensorOptions().dtype(dtype));
        }
        return storage.as_strided(t.sizes, t.strides, t.offset).clone(torch::MemoryFormat::Contiguous);
    } catch (const c10::Error& error) {
        throw bad(error.what_without_backtrace());
    }
}

c10::IValue readTorchSaveFile(const std::string& path, const std::string& what, int64_t maxBytes)
{
    const size_t size = checkTorchSaveFile(path, what, maxBytes);
    checkTorchArchive(path, what, maxBytes, ArchiveLayout::TorchSave);
    std::ifstream in(path, std::ios::binary);
    std::vector<char> bytes(size);
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
