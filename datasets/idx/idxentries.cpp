// Catalogue entries of the IDX data sets: Fashion-MNIST (the quick default) and MNIST.
#include "datasets/datasetentry.h"
#include "datasets/idx/idxreader.h"

namespace lbd {
namespace {

DatasetEntry idxEntry(const std::string& name, const std::vector<std::string>& classNames)
{
    DatasetEntry entry;
    entry.name = name;
    entry.files = {"train-images-idx3-ubyte[.gz]", "train-labels-idx1-ubyte[.gz]", "t10k-images-idx3-ubyte[.gz]",
                   "t10k-labels-idx1-ubyte[.gz]"};
    entry.classNames = classNames;
    entry.nativeFormat = {1, 28, 28};
    entry.read = [name, classNames](const ReadRequest& request) {
        return readIdxDirectory(request.directory, name, classNames, request.options.limits);
    };
    return entry;
}

} // namespace

DatasetEntry fashionMnistEntry()
{
    DatasetEntry entry = idxEntry("fashion-mnist", fashionMnistClassNames());
    entry.title = "Fashion-MNIST";
    entry.defaultDirectory = "/usr/share/datasets/fashion-mnist";
    entry.description = "Fashion-MNIST (10 classes, 28x28 grayscale, zero-padded to 32x32): the quick default.";
    entry.obtain = "apt install dataset-fashion-mnist (Debian), or the four .gz files from "
                   "https://github.com/zalandoresearch/fashion-mnist";
    entry.licence = "MIT (Expat), Zalando SE 2017";
    entry.imagesPerClass = 6000;
    entry.imagesPerClassExact = true;
    return entry;
}

DatasetEntry mnistEntry()
{
    DatasetEntry entry = idxEntry("mnist", mnistClassNames());
    entry.title = "MNIST";
    entry.defaultDirectory = "/usr/share/datasets/mnist";
    entry.description = "MNIST digits in IDX files (10 classes, 28x28 grayscale).";
    entry.obtain = "the four IDX files (gzip or raw) from http://yann.lecun.com/exdb/mnist/, in " + entry.defaultDirectory
                   + " or any directory";
    entry.licence = "CC BY-SA 3.0, Yann LeCun and Corinna Cortes";
    entry.imagesPerClass = 5421; // the smallest MNIST class: every class can fill n_max
    entry.imagesPerClassExact = false;
    return entry;
}

} // namespace lbd
