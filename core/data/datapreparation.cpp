#include "core/data/datapreparation.h"

#include "core/data/cifarreader.h"
#include "core/data/idxreader.h"
#include "core/data/imagefolderreader.h"
#include "core/data/listfilereader.h"
#include "core/data/syntheticdataset.h"
#include "core/util/error.h"

#include <cmath>

namespace lbd {

std::string datasetKindName(DatasetKind kind)
{
    switch (kind) {
    case DatasetKind::FashionMnist: return "fashion-mnist";
    case DatasetKind::Mnist: return "mnist";
    case DatasetKind::Cifar10: return "cifar10";
    case DatasetKind::Cifar100: return "cifar100";
    case DatasetKind::Folder: return "folder";
    case DatasetKind::List: return "list";
    case DatasetKind::Synthetic: return "synthetic";
    }
    return "unknown";
}

DatasetKind parseDatasetKind(const std::string& text)
{
    for (auto kind : {DatasetKind::FashionMnist, DatasetKind::Mnist, DatasetKind::Cifar10, DatasetKind::Cifar100,
                      DatasetKind::Folder, DatasetKind::List, DatasetKind::Synthetic}) {
        if (datasetKindName(kind) == text) {
            return kind;
        }
    }
    throw InputError("dataset '" + text + "' is not known (use fashion-mnist, mnist, cifar10, cifar100, folder, list or synthetic)");
}

void DataSpec::validate() const
{
    longTail.validate();
    if ((kind == DatasetKind::Cifar10 || kind == DatasetKind::Cifar100 || kind == DatasetKind::Folder
         || kind == DatasetKind::List) && directory.empty()) {
        throw InputError("data_dir is required for the " + datasetKindName(kind) + " data set");
    }
    if (kind == DatasetKind::List && (trainList.empty() || testList.empty())) {
        throw InputError("train_list and test_list are required for the list data set");
    }
    if (!validationList.empty() && kind != DatasetKind::List) {
        throw InputError("val_list is for the list data set; use val_fraction to hold out validation images");
    }
    if (!validationList.empty() && longTail.validationFraction > 0.0) {
        throw InputError("val_list and val_fraction cannot both be set: choose one validation split");
    }
    if (channels != 1 && channels != 3) {
        throw InputError("channels must be 1 or 3, got " + std::to_string(channels));
    }
    if (imageSize < 8 || imageSize > 1024) {
        throw InputError("image_size must be in 8..1024, got " + std::to_string(imageSize));
    }
    if (!std::isfinite(heldOutFraction) || heldOutFraction <= 0.0 || heldOutFraction >= 1.0) {
        throw InputError("held_out_fraction must be in (0, 1), got " + std::to_string(heldOutFraction));
    }
}

Dataset loadDataset(const DataSpec& spec)
{
    spec.validate();
    ImageFileOptions files;
    files.format = {spec.channels, spec.imageSize, spec.imageSize};
    files.maxInMemoryBytes = spec.maxInMemoryBytes;
    switch (spec.kind) {
    case DatasetKind::FashionMnist:
        return loadIdxDirectory(spec.directory.empty() ? defaultFashionMnistDirectory() : spec.directory, "fashion-mnist",
                                fashionMnistClassNames());
    case DatasetKind::Mnist:
        return loadIdxDirectory(spec.directory.empty() ? "/usr/share/datasets/mnist" : spec.directory, "mnist",
                                mnistClassNames());
    case DatasetKind::Cifar10: return loadCifar10(spec.directory);
    case DatasetKind::Cifar100: return loadCifar100(spec.directory);
    case DatasetKind::Folder: {
        ImageFolderOptions options;
        options.files = files;
        options.heldOutFraction = spec.heldOutFraction;
        options.seed = spec.longTail.seed;
        return loadImageFolder(spec.directory, options);
    }
    case DatasetKind::List: {
        ListFileOptions options;
        options.files = files;
        options.classNamesFile = spec.classNamesFile;
        options.validationList = spec.validationList;
        return loadListFiles(spec.directory, spec.trainList, spec.testList, options);
    }
    case DatasetKind::Synthetic: return makeSyntheticDataset(spec.synthetic);
    }
    throw InputError("dataset kind not handled");
}

namespace {

PreparedData finish(Dataset dataset, LongTailSplit split)
{
    PreparedData prepared;
    if (!split.validationIndices.empty()) {
        dataset.validation = validationSplit(dataset, split); // before train is replaced by the subset
    }
    dataset.train = applyLongTailSplit(dataset, split);
    prepared.trainCounts = split.classCounts;
    prepared.testCounts = countPerClass(dataset.test.labels, dataset.classCount());
    prepared.split = std::move(split);
    prepared.dataset = std::move(dataset);
    return prepared;
}

} // namespace

PreparedData prepareData(const DataSpec& spec)
{
    Dataset dataset = loadDataset(spec);
    LongTailSplit split = makeLongTailSplit(dataset, spec.longTail);
    return finish(std::move(dataset), std::move(split));
}

PreparedData prepareData(const DataSpec& spec, const LongTailSplit& savedSplit)
{
    Dataset dataset = loadDataset(spec);
    return finish(std::move(dataset), savedSplit);
}

} // namespace lbd
