// IDX files as stored on disk (raw, or gzip when the bytes start with its magic): the header, the
// budget check of its claim, the data.
#include "datasets/common/error.h"
#include "datasets/idx/idxreader.h"
#include "tools/fuzz/fuzzfile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = lbd::fuzz::writeScratchFile("data-idx3-ubyte", data, size);
    lbd::ReadLimits limits;
    limits.maxInMemoryBytes = 1 << 20; // a claim over 1 MiB takes the refusal path, as 4 GiB would
    try {
        const lbd::IdxArray array = lbd::readIdxFile(path, limits);
        // The values must be exactly what the shape says: none when a size is zero (the others
        // may then be anything), else the product, which cannot overflow once the values exist.
        int64_t product = 1;
        for (const int64_t size : array.shape) {
            if (size == 0) {
                product = 0;
                break;
            }
        }
        for (size_t d = 0; d < array.shape.size() && product != 0; ++d) {
            if (__builtin_mul_overflow(product, array.shape[d], &product)) {
                __builtin_trap();
            }
        }
        if (product != static_cast<int64_t>(array.values.size())) {
            __builtin_trap();
        }
    } catch (const lbd::InputError&) {
    }
    return 0;
}
