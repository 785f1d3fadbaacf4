#include "tests/support/testfiles.h"

#include <zlib.h>

#include <fstream>
#include <stdexcept>

namespace lbd::test {

std::vector<uint8_t> idxBytes(const torch::Tensor& data)
{
    const auto contiguous = data.to(torch::kUInt8).contiguous();
    std::vector<uint8_t> bytes = {0, 0, 0x08, static_cast<uint8_t>(contiguous.dim())};
    for (int64_t d = 0; d < contiguous.dim(); ++d) {
        const auto size = static_cast<uint32_t>(contiguous.size(d));
        for (int shift = 24; shift >= 0; shift -= 8) {
            bytes.push_back(static_cast<uint8_t>(size >> shift));
        }
    }
    const auto* begin = contiguous.data_ptr<uint8_t>();
    bytes.insert(bytes.end(), begin, begin + contiguous.numel());
    return bytes;
}

void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void writeGzip(const std::string& path, const std::vector<uint8_t>& bytes)
{
    gzFile file = gzopen(path.c_str(), "wb");
    if (!file) {
        throw std::runtime_error("cannot write " + path);
    }
    gzwrite(file, bytes.data(), static_cast<unsigned>(bytes.size()));
    gzclose(file);
}

void writeIdxDirectory(const std::string& directory, int64_t trainCount, int64_t testCount, bool gzip)
{
    const auto write = [&](const std::string& name, const torch::Tensor& data) {
        const auto bytes = idxBytes(data);
        if (gzip) {
            writeGzip(directory + "/" + name + ".gz", bytes);
        } else {
            writeBytes(directory + "/" + name, bytes);
        }
    };
    const auto images = [](int64_t n) {
        return torch::arange(n * 28 * 28, torch::kInt64).remainder(251).to(torch::kUInt8).view({n, 28, 28});
    };
    const auto labels = [](int64_t n) { return torch::arange(n, torch::kInt64).remainder(10).to(torch::kUInt8); };
    write("train-images-idx3-ubyte", images(trainCount));
    write("train-labels-idx1-ubyte", labels(trainCount));
    write("t10k-images-idx3-ubyte", images(testCount));
    write("t10k-labels-idx1-ubyte", labels(testCount));
}

} // namespace lbd::test
