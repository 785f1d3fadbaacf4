// CIFAR binary record files: the input (after one byte choosing CIFAR-10 or -100) is every batch
// file of a data folder, and its class-names file too.
#include "datasets/cifar/cifarreader.h"
#include "datasets/common/error.h"
#include "tools/fuzz/fuzzfile.h"

#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    const bool hundred = data[0] & 1;
    const bool names = data[0] & 2;
    const uint8_t* records = data + 1;
    const size_t length = size - 1;
    const auto write = [&](const std::string& name) { lbd::fuzz::writeScratchFile(name, records, length); };
    lbd::ReadLimits limits;
    limits.maxInMemoryBytes = 1 << 22;
    try {
        if (hundred) {
            write("train.bin");
            write("test.bin");
            names ? write("fine_label_names.txt") : (void)std::remove((lbd::fuzz::scratchFolder() + "/fine_label_names.txt").c_str());
            const lbd::RawDataset dataset = lbd::readCifar100(lbd::fuzz::scratchFolder(), limits);
            if (dataset.classCount() != 100) {
                __builtin_trap();
            }
        } else {
            for (int batch = 1; batch <= 5; ++batch) {
                write("data_batch_" + std::to_string(batch) + ".bin");
            }
            write("test_batch.bin");
            names ? write("batches.meta.txt") : (void)std::remove((lbd::fuzz::scratchFolder() + "/batches.meta.txt").c_str());
            const lbd::RawDataset dataset = lbd::readCifar10(lbd::fuzz::scratchFolder(), limits);
            if (dataset.classCount() != 10 || dataset.train.size() != 5 * dataset.test.size()) {
                __builtin_trap();
            }
        }
    } catch (const lbd::InputError&) {
    }
    return 0;
}
