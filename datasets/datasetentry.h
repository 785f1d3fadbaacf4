#pragma once
// One entry of the catalogue: a data set or format, described once. Its reader (bytes in, images
// and labels out) and everything the engine, `lbd` and the GUI say about it before reading it
// (the PlotJuggler pattern: each loader declares what it reads). Entries live in
// datasets/<entry>/ and are registered in datasets/catalogue.cpp.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "datasets/common/rawdataset.h"
#include "datasets/datasetoptions.h"

namespace lbd {

// What a reader is given: the options, with the directory resolved and the seed of any draw it
// makes. The limits it must respect are options.limits.
struct ReadRequest {
    DatasetOptions options;
    std::string directory; // options.directory, or the entry's default location when that is empty
    uint64_t seed = 0;     // the split seed: an image folder's held-out test share is drawn with it
};

// Which settings of DatasetOptions an entry reads (the GUI shows those rows, config.json writes
// those keys, validation asks for those that are required).
struct DatasetSettings {
    bool directory = true;   // reads files from options.directory (required when there is no default location)
    bool listFiles = false;  // train_list and test_list (required), val_list, class_names
    bool imageFormat = false; // images are converted to options.channels x options.imageSize^2
    bool heldOutFraction = false; // options.heldOutFraction (a folder without train/ and test/)
    bool synthetic = false;  // options.synthetic
};

// What the GUI's class-count chart shows before anything is read.
struct DatasetPreview {
    std::vector<std::string> classNames; // label order; empty when only reading the data tells
    int64_t imagesPerClass = 0;          // training images per class before the long tail; 0: unknown
    bool exact = false;                  // false: a typical count (MNIST's classes hold 5421..6742)
};

struct DatasetEntry {
    std::string name;        // the config value: "fashion-mnist"
    std::string title;       // the GUI's list: "Fashion-MNIST"
    std::string description; // one or two sentences: the GUI's tooltip and `lbd ... --help`
    std::vector<std::string> files; // what it reads, e.g. "train-images-idx3-ubyte[.gz]"
    std::string defaultDirectory;   // where it is looked for when no directory is given; empty: none
    std::string obtain;             // how to get it ("apt install dataset-fashion-mnist", a download page)
    std::string licence;            // a licence note for the data
    DatasetSettings settings;
    std::vector<std::string> classNames; // in label order where the format fixes them; else empty
    int64_t imagesPerClass = 0;          // training images per class, for the instant preview; 0: unknown
    bool imagesPerClassExact = false;
    ImageFormat nativeFormat{0, 0, 0}; // of the stored images; zeros: the options decide (see `format`)

    // Reads the data set. Throws InputError naming the file at fault.
    std::function<RawDataset(const ReadRequest&)> read;
    // Optional, where the facts above depend on the options (CIFAR-100's names file, the synthetic
    // parameters, the size image files are converted to). Unset: from the fields above.
    std::function<DatasetPreview(const DatasetOptions&)> preview;
    std::function<ImageFormat(const DatasetOptions&)> format;

    bool requiresDirectory() const { return settings.directory && defaultDirectory.empty(); }
    // The directory a reader is given: options.directory, else the default location.
    std::string directoryFor(const DatasetOptions& options) const;
    DatasetPreview previewFor(const DatasetOptions& options) const;
    // Channels and size of the images the reader returns for these options.
    ImageFormat formatFor(const DatasetOptions& options) const;
};

// The format of image files converted to options.channels x options.imageSize (folders, lists).
ImageFormat convertedImageFormat(const DatasetOptions& options);

} // namespace lbd
