#pragma once
// A dummy format that a test registers at run time (registerDataset), to show that the config
// parser, data preparation and the GUI's data set list take every entry from the catalogue:
// three classes of 8x8 grey images, each image filled with its class index times 80.
#include "datasets/catalogue.h"

namespace lbd::test {

inline constexpr const char* kDummyDataset = "dummy-flat";

inline DatasetEntry dummyDatasetEntry()
{
    DatasetEntry entry;
    entry.name = kDummyDataset;
    entry.title = "Dummy flat images";
    entry.description = "Three classes of flat grey squares, for tests.";
    entry.settings.directory = false;
    entry.classNames = {"dark", "mid", "light"};
    entry.imagesPerClass = 40;
    entry.imagesPerClassExact = true;
    entry.nativeFormat = {1, 8, 8};
    entry.read = [](const ReadRequest&) {
        RawDataset data;
        data.name = kDummyDataset;
        data.classNames = {"dark", "mid", "light"};
        data.format = {1, 8, 8};
        const auto fill = [&](RawSplit& split, int64_t perClass) {
            for (int64_t c = 0; c < 3; ++c) {
                for (int64_t i = 0; i < perClass; ++i) {
                    split.labels.push_back(c);
                    split.pixels.insert(split.pixels.end(), 64, static_cast<uint8_t>(80 * c));
                }
            }
        };
        fill(data.train, 40);
        fill(data.test, 5);
        return data;
    };
    return entry;
}

} // namespace lbd::test
