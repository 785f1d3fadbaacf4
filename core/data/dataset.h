#pragma once
// The one dataset interface of core: uint8 images N x C x H x W, int64 labels, class names.
// A split that is too large for memory keeps image file paths instead of decoded pixels and is
// streamed by StreamingBatcher. The readers (datasets/) return a torch-free RawDataset;
// toDataset turns it into this without copying the pixels.
#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

#include "datasets/common/rawdataset.h"

namespace lbd {

struct DataSplit {
    torch::Tensor images;            // uint8 [N, C, H, W] on the CPU; undefined when streamed
    torch::Tensor labels;            // int64 [N]
    std::vector<std::string> files;  // image paths when streamed from disk, else empty

    int64_t size() const { return labels.defined() ? labels.size(0) : 0; }
    bool isStreamed() const { return !files.empty(); }
    // Rows `indices` (int64 [K]) of this split.
    DataSplit select(const torch::Tensor& indices) const;
};

struct Dataset {
    std::string name;                     // "fashion-mnist", "cifar10", "folder:/path", ...
    std::vector<std::string> classNames;  // index -> name
    ImageFormat format;                   // of every image in both splits
    DataSplit train;
    DataSplit test;
    DataSplit validation; // only where the data set ships one (a list file's --val-list); else empty
    DataReport report;    // image files: what was left out, ignored or doubtful (datasets/common/datareport.h)
    // Training images held out for the out-of-distribution caution, never trained on (set by
    // prepareData from the split: core/data/longtail.h); else empty.
    DataSplit cautionHeldOut;

    int64_t classCount() const { return static_cast<int64_t>(classNames.size()); }
};

// Takes over the reader's vectors: the tensors own them (no copy of the pixels or labels).
Dataset toDataset(RawDataset raw);
DataSplit toDataSplit(RawSplit raw, const ImageFormat& format);

// Images per class in `labels` (int64 [N]), for `classCount` classes.
std::vector<int64_t> countPerClass(const torch::Tensor& labels, int64_t classCount);

// Throws InputError naming `source` if any label is outside [0, classCount).
void checkLabelRange(const torch::Tensor& labels, int64_t classCount, const std::string& source);

} // namespace lbd
