#include "core/util/archivecheck.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/pickleglobals.h"

#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <new>
#include <stdexcept>

namespace lbd {
namespace {

// Far above a 1000-class ResNet-50 checkpoint's ~330 entries.
constexpr uint64_t kMaxEntries = 100'000;
// ResNet-50's state-dict pickle is 39 KB: the tensors are entries of their own.
constexpr uint64_t kMaxPickleBytes = uint64_t(64) << 20;
constexpr uint64_t kMaxCodeBytes = uint64_t(4) << 20;
constexpr uint64_t kMaxNameBytes = 4096;

uint64_t little(const std::string& bytes, size_t at, size_t count)
{
    uint64_t value = 0;
    for (size_t k = 0; k < count; ++k) {
        value |= uint64_t(static_cast<unsigned char>(bytes[at + k])) << (8 * k);
    }
    return value;
}

bool endsWith(const std::string& text, const std::string& tail)
{
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

class ArchiveFile {
public:
    ArchiveFile(std::string path, std::string what) : m_path(std::move(path)), m_what(std::move(what)) {}

    [[noreturn]] void damaged(const std::string& why) const
    {
        throw InputError(m_path + ": not " + m_what + " (damaged zip archive: " + why + ")");
    }

    void open(int64_t maxBytes)
    {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(m_path, ec)) {
            throw InputError(m_path + ": file not found");
        }
        m_size = std::filesystem::file_size(m_path, ec);
        if (ec) {
            throw InputError(fileErrorMessage(m_path, ec.value()));
        }
        if (static_cast<int64_t>(m_size) > maxBytes) {
            throw InputError(m_path + ": " + std::to_string(m_size >> 20) + " MiB, larger than "
                             + std::to_string(maxBytes >> 20) + " MiB, the limit for " + m_what);
        }
        m_in.open(m_path, std::ios::binary);
        if (!m_in || m_size < 22 || read(0, 4) != std::string("PK\x03\x04", 4)) {
            throw InputError(m_path + ": not " + m_what + " (not a zip archive, which torch.save writes)");
        }
    }

    std::string read(uint64_t at, uint64_t count)
    {
        if (at > m_size || count > m_size - at) {
            damaged("a record at byte " + std::to_string(at) + " runs past the end of the file");
        }
        std::string bytes(static_cast<size_t>(count), '\0');
        m_in.clear();
        m_in.seekg(static_cast<std::streamoff>(at));
        if (!m_in.read(bytes.data(), static_cast<std::streamsize>(count))) {
            throw InputError(m_path + ": could not be read (at byte " + std::to_string(at) + ")");
        }
        return bytes;
    }

    // An entry's bytes (at most its declared size, which the callers bound): stored ones as they
    // are, deflated ones inflated.
    std::string contents(const ArchiveEntry& e)
    {
        const std::string stored = read(e.dataOffset, e.storedSize);
        if (!e.deflated) {
            return stored;
        }
        std::string out(static_cast<size_t>(e.size), '\0');
        z_stream stream{};
        if (inflateInit2(&stream, -MAX_WBITS) != Z_OK) {
            throw std::bad_alloc();
        }
        stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(stored.data()));
        stream.avail_in = static_cast<uInt>(stored.size());
        stream.next_out = reinterpret_cast<Bytef*>(out.data());
        stream.avail_out = static_cast<uInt>(out.size());
        const int result = inflate(&stream, Z_FINISH);
        const uint64_t produced = stream.total_out;
        inflateEnd(&stream);
        if (result != Z_STREAM_END || produced != e.size) {
            damaged("entry " + e.name + " does not inflate to its " + std::to_string(e.size) + " bytes");
        }
        return out;
    }

    uint32_t crc(const ArchiveEntry& e)
    {
        if (e.deflated) {
            const std::string bytes = contents(e);
            return static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(bytes.data()),
                                               static_cast<uInt>(bytes.size())));
        }
        return crc(e.dataOffset, e.size);
    }

    uint32_t crc(uint64_t at, uint64_t count)
    {
        uLong value = crc32(0L, Z_NULL, 0);
        constexpr uint64_t kPiece = uint64_t(1) << 20;
        for (uint64_t done = 0; done < count;) {
            const uint64_t piece = std::min(kPiece, count - done);
            const std::string bytes = read(at + done, piece);
            value = crc32(value, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(piece));
            done += piece;
        }
        return static_cast<uint32_t>(value);
    }

    // The central directory, its entries' data located through their local headers.
    std::vector<ArchiveEntry> entries()
    {
        const uint64_t tail = std::min<uint64_t>(m_size, 22 + 65535);
        const std::string end = read(m_size - tail, tail);
        size_t at = std::string::npos;
        for (size_t k = end.size() - 22 + 1; k-- > 0;) {
            if (little(end, k, 4) == 0x06054b50) {
                at = k;
                break;
            }
        }
        if (at == std::string::npos) {
            damaged("no end-of-central-directory record (cut short, or not a zip)");
        }
        uint64_t count = little(end, at + 10, 2);
        uint64_t directorySize = little(end, at + 12, 4);
        uint64_t directoryOffset = little(end, at + 16, 4);
        const uint64_t endOffset = m_size - tail + at;
        if (count == 0xFFFF || directorySize == 0xFFFFFFFF || directoryOffset == 0xFFFFFFFF) {
            readZip64End(endOffset, count, directorySize, directoryOffset);
        }
        if (count > kMaxEntries) {
            damaged(std::to_string(count) + " entries, more than " + std::to_string(kMaxEntries));
        }
        if (directoryOffset > endOffset || directorySize > endOffset - directoryOffset) {
            damaged("its central directory does not fit the file");
        }
        const std::string directory = read(directoryOffset, directorySize);
        std::vector<ArchiveEntry> out;
        size_t pos = 0;
        for (uint64_t k = 0; k < count; ++k) {
            out.push_back(entry(directory, pos, directoryOffset));
        }
        checkDisjoint(out, directoryOffset);
        return out;
    }

private:
    void readZip64End(uint64_t endOffset, uint64_t& count, uint64_t& size, uint64_t& offset)
    {
        if (endOffset < 20) {
            damaged("a zip64 archive without its locator");
        }
        const std::string locator = read(endOffset - 20, 20);
        if (little(locator, 0, 4) != 0x07064b50) {
            damaged("a zip64 archive without its locator");
        }
        const std::string record = read(little(locator, 8, 8), 56);
        if (little(record, 0, 4) != 0x06064b50) {
            damaged("no zip64 end-of-central-directory record");
        }
        count = little(record, 32, 8);
        size = little(record, 40, 8);
        offset = little(record, 48, 8);
    }

    ArchiveEntry entry(const std::string& directory, size_t& pos, uint64_t directoryOffset)
    {
        if (directory.size() - pos < 46 || little(directory, pos, 4) != 0x02014b50) {
            damaged("a central-directory entry at byte " + std::to_string(directoryOffset + pos) + " is not one");
        }
        const uint64_t flags = little(directory, pos + 8, 2);
        const uint64_t method = little(directory, pos + 10, 2);
        ArchiveEntry e;
        e.crc32 = static_cast<uint32_t>(little(directory, pos + 16, 4));
        uint64_t stored = little(directory, pos + 20, 4);
        e.size = little(directory, pos + 24, 4);
        const size_t nameLength = little(directory, pos + 28, 2);
        const size_t extraLength = little(directory, pos + 30, 2);
        const size_t commentLength = little(directory, pos + 32, 2);
        uint64_t local = little(directory, pos + 42, 4);
        if (directory.size() - pos - 46 < nameLength + extraLength + commentLength) {
            damaged("a central-directory entry runs past the directory");
        }
        e.name = directory.substr(pos + 46, nameLength);
        readZip64Extra(directory.substr(pos + 46 + nameLength, extraLength), e.size, stored, local);
        pos += 46 + nameLength + extraLength + commentLength;
        // Tensors and pickles are stored; LibTorch deflates the small code/ files of a module.
        e.deflated = method == 8;
        if ((flags & 1) != 0 || (method != 0 && method != 8) || (method == 0 && stored != e.size)
            || (e.deflated && e.size > kMaxPickleBytes)) {
            damaged("entry " + e.name + " is encrypted, or compressed other than as torch archives are");
        }
        e.storedSize = stored;
        if (nameLength > kMaxNameBytes) {
            damaged("an entry name of " + std::to_string(nameLength) + " bytes");
        }
        if (local > directoryOffset || directoryOffset - local < 30) {
            damaged("entry " + e.name + " starts outside the file's data");
        }
        const std::string header = read(local, 30);
        const uint64_t localName = little(header, 26, 2);
        const uint64_t localExtra = little(header, 28, 2);
        if (little(header, 0, 4) != 0x04034b50 || localName != nameLength
            || read(local + 30, localName) != e.name) {
            damaged("entry " + e.name + "'s local header does not match the directory");
        }
        e.dataOffset = local + 30 + localName + localExtra;
        if (e.dataOffset > directoryOffset || e.storedSize > directoryOffset - e.dataOffset) {
            damaged("entry " + e.name + " (" + std::to_string(e.storedSize) + " bytes) runs past the file's data");
        }
        return e;
    }

    // Sizes and the offset that did not fit 32 bits are in the zip64 extra field (id 1), in order.
    void readZip64Extra(const std::string& extra, uint64_t& size, uint64_t& stored, uint64_t& local)
    {
        for (size_t at = 0; at + 4 <= extra.size();) {
            const uint64_t id = little(extra, at, 2);
            const size_t length = little(extra, at + 2, 2);
            if (at + 4 + length > extra.size()) {
                damaged("an extra field runs past its entry");
            }
            if (id == 1) {
                size_t field = at + 4;
                for (uint64_t* value : {&size, &stored, &local}) {
                    if (*value == 0xFFFFFFFF) {
                        if (field + 8 > at + 4 + length) {
                            damaged("a zip64 extra field too short for its values");
                        }
                        *value = little(extra, field, 8);
                        field += 8;
                    }
                }
            }
            at += 4 + length;
        }
    }

    // Entries that share bytes would make a small file read as many times its size.
    void checkDisjoint(std::vector<ArchiveEntry> entries, uint64_t directoryOffset)
    {
        std::sort(entries.begin(), entries.end(),
                  [](const ArchiveEntry& a, const ArchiveEntry& b) { return a.dataOffset < b.dataOffset; });
        uint64_t end = 0;
        for (const ArchiveEntry& e : entries) {
            if (e.dataOffset < end) {
                damaged("entries " + e.name + " and another share bytes");
            }
            end = e.dataOffset + e.storedSize;
        }
        if (end > directoryOffset) {
            damaged("the data runs into the central directory");
        }
    }

    std::string m_path;
    std::string m_what;
    std::ifstream m_in;
    uint64_t m_size = 0;
};

bool isPickle(const std::string& name)
{
    return endsWith(name, ".pkl") || endsWith(name, "debug_pkl");
}

bool isCode(const std::string& name)
{
    return name.find("/code/") != std::string::npos || name.rfind("code/", 0) == 0;
}

void checkPickle(ArchiveFile& file, const ArchiveEntry& e, const std::string& path, const std::string& what,
                 ArchiveLayout layout)
{
    if (e.size > kMaxPickleBytes) {
        throw InputError(path + ": not " + what + " (its pickle " + e.name + " is " + std::to_string(e.size >> 20) + " MiB)");
    }
    std::vector<std::string> globals;
    try {
        globals = pickleGlobals(file.contents(e));
    } catch (const std::runtime_error& error) {
        throw InputError(path + ": not " + what + " (" + e.name + ": " + error.what() + ")");
    }
    const auto& allowed = allowedArchiveGlobals(layout);
    for (const std::string& global : globals) {
        if (std::find(allowed.begin(), allowed.end(), global) == allowed.end()) {
            throw InputError(path + ": refused: its pickle " + e.name + " names " + global.substr(0, 200)
                             + ", which is none of the tensor-rebuild globals " + what
                             + " holds (a file that would run code when unpickled elsewhere); not read");
        }
    }
}

// The attributes LibTorch declares for an OutputArchive's module; a method (def) would be
// TorchScript run while the file loads (__setstate__).
void checkCode(ArchiveFile& file, const ArchiveEntry& e, const std::string& path, const std::string& what)
{
    if (e.size > kMaxCodeBytes) {
        throw InputError(path + ": not " + what + " (its code " + e.name + " is " + std::to_string(e.size >> 20) + " MiB)");
    }
    const std::string code = file.contents(e);
    if (code.find("def ") != std::string::npos) {
        throw InputError(path + ": refused: its code " + e.name + " defines a method, which " + what
                         + " never holds (code that would run while it loads); not read");
    }
}

} // namespace

const std::vector<std::string>& allowedArchiveGlobals(ArchiveLayout layout)
{
    static const std::vector<std::string> torchSave = [] {
        std::vector<std::string> names = {"collections.OrderedDict", "torch._utils._rebuild_tensor_v2",
                                          "torch._utils._rebuild_parameter",
                                          // torch::pickle_save's and TorchScript's typed containers
                                          "torch.jit._pickle.build_intlist", "torch.jit._pickle.build_doublelist",
                                          "torch.jit._pickle.build_boollist", "torch.jit._pickle.build_tensorlist",
                                          "torch.jit._pickle.restore_type_tag"};
        for (const char* type : {"Float", "Double", "Half", "BFloat16", "Long", "Int", "Short", "Char", "Byte", "Bool"}) {
            names.push_back(std::string("torch.") + type + "Storage");
        }
        return names;
    }();
    static const std::vector<std::string> module = [] {
        std::vector<std::string> names = torchSave;
        names.push_back("__torch__.Module");
        return names;
    }();
    return layout == ArchiveLayout::LibTorchModule ? module : torchSave;
}

std::vector<ArchiveEntry> checkTorchArchive(const std::string& path, const std::string& what, int64_t maxBytes,
                                            ArchiveLayout layout)
{
    ArchiveFile file(path, what);
    file.open(maxBytes);
    const std::vector<ArchiveEntry> entries = file.entries();
    for (const ArchiveEntry& e : entries) {
        if (file.crc(e) != e.crc32) {
            throw InputError(path + ": damaged (its entry " + e.name + " fails its CRC-32 check: the file changed after "
                             "it was written); not read");
        }
    }
    for (const ArchiveEntry& e : entries) {
        if (isPickle(e.name)) {
            checkPickle(file, e, path, what, layout);
        } else if (isCode(e.name)) {
            checkCode(file, e, path, what);
        }
    }
    return entries;
}

} // namespace lbd
