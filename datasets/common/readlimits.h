#pragma once
// What a reader may take from the machine, in one place: every reader is given these with its
// options (DatasetOptions::limits), so a new limit is one field here and one check in the shared
// reading code of datasets/common/ (whole files, image files), not a change to every format.
// Each refusal is a ReadLimitError naming the file and the limit with its value.
#include <cstdint>

#include "datasets/common/error.h"

namespace lbd {

struct ReadLimits {
    // Decoded pixels a split of image files may hold in memory; a larger split is streamed from
    // disk (its file paths are kept and decoded batch by batch). IDX and CIFAR files, which have no
    // streamed form, are refused when their data (or what a header claims) exceeds it.
    int64_t maxInMemoryBytes = int64_t(4) << 30;

    // Pixels of one image file (64 Mi = 8192 x 8192), checked from its header before decoding: a
    // PNG header may claim 100000 x 100000, which would ask OpenCV for 30 GB.
    int64_t maxImagePixels = int64_t(64) << 20;

    // Bytes of one encoded image file (256 MiB): no photo needs more, and OpenCV's in-memory
    // decoder takes its length as an int.
    int64_t maxImageFileBytes = int64_t(256) << 20;

    // Bytes of one text input (list file, class names file; 64 MiB, ~2 M list lines): these are
    // read whole, so /dev/zero or a mistyped path to a data file must not fill the memory.
    int64_t maxTextFileBytes = int64_t(64) << 20;

    // Classes of a data set (100000, 100x ImageNet's): a list-file label sizes per-class arrays,
    // so a label of 2000000000 must be refused, not allocated for.
    int64_t maxClasses = 100000;
};

// A file over one of these limits. Refused whatever data.on_bad_file says: a 30000 x 30000 PNG of
// 1 MB is not a broken file to leave out but a request for 2.7 GB of pixels, which the user must
// see and decide about (shrink it, or remove it), not find in a list of skipped files.
class ReadLimitError : public InputError {
public:
    using InputError::InputError;
};

// The bytes of an image file's start read to find its size (JPEG's EXIF block may come first).
inline constexpr int64_t kImageHeaderBytes = int64_t(1) << 20;

} // namespace lbd
