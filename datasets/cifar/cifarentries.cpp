// Catalogue entries of CIFAR-10 and CIFAR-100 (binary versions): two of the paper's benchmarks.
#include "datasets/cifar/cifarreader.h"
#include "datasets/datasetentry.h"

namespace lbd {
namespace {

constexpr const char* kCifarPage = "https://www.cs.toronto.edu/~kriz/cifar.html";

// `namesFor` gives the class names the reader will use for a directory (its names file when there).
DatasetEntry cifarEntry(int64_t imagesPerClass, std::vector<std::string> (*namesFor)(const std::string&))
{
    DatasetEntry entry;
    entry.classNames = namesFor({}); // without a names file
    entry.imagesPerClass = imagesPerClass;
    entry.licence = "no licence stated by the authors; cite A. Krizhevsky, Learning Multiple Layers of Features from "
                    "Tiny Images, 2009";
    entry.nativeFormat = {3, 32, 32};
    entry.imagesPerClassExact = true;
    entry.preview = [imagesPerClass, namesFor](const DatasetOptions& options) {
        return DatasetPreview{namesFor(options.directory), imagesPerClass, true};
    };
    return entry;
}

} // namespace

DatasetEntry cifar10Entry()
{
    DatasetEntry entry = cifarEntry(5000, cifar10ClassNames);
    entry.name = "cifar10";
    entry.title = "CIFAR-10 (directory)";
    entry.description = "CIFAR-10 binary batches (cifar-10-batches-bin). CIFAR-10-LT is one of the paper's benchmarks.";
    entry.files = {"data_batch_1.bin ... data_batch_5.bin", "test_batch.bin", "batches.meta.txt (optional)"};
    entry.obtain = std::string("the binary version (cifar-10-binary.tar.gz) from ") + kCifarPage + ", extracted";
    entry.read = [](const ReadRequest& request) { return readCifar10(request.directory, request.options.limits); };
    return entry;
}

DatasetEntry cifar100Entry()
{
    DatasetEntry entry = cifarEntry(500, cifar100ClassNames);
    entry.name = "cifar100";
    entry.classNames.clear(); // not fixed: fine_label_names.txt names them, else "class i"
    entry.title = "CIFAR-100 (directory)";
    entry.description = "CIFAR-100 binary files (cifar-100-binary). CIFAR-100-LT is one of the paper's benchmarks.";
    entry.files = {"train.bin", "test.bin", "fine_label_names.txt (optional)"};
    entry.obtain = std::string("the binary version (cifar-100-binary.tar.gz) from ") + kCifarPage + ", extracted";
    entry.read = [](const ReadRequest& request) { return readCifar100(request.directory, request.options.limits); };
    return entry;
}

} // namespace lbd
