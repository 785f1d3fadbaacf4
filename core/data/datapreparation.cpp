#include "core/data/datapreparation.h"

#include "datasets/catalogue.h"

namespace lbd {

Dataset loadDataset(const DataSpec& spec)
{
    spec.validate();
    return toDataset(readDataset(spec, spec.longTail.seed));
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
