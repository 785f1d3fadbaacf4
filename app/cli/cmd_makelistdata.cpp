// `lbd make-list-data DIR`: a long-tailed data set of synthetic JPEG photographs in the ImageNet-LT
// list-file format, for trying and timing the ImageNet path without ImageNet.
#include "app/cli/command.h"

#include "datasets/synthetic/syntheticlistwriter.h"

#include <chrono>
#include <iostream>
#include <memory>

namespace lbd::cli {
namespace {

struct MakeListDataOptions {
    std::string directory;
    SyntheticListSpec spec;
};

int runMakeListData(const MakeListDataOptions& o)
{
    const auto start = std::chrono::steady_clock::now();
    const SyntheticListResult result = writeSyntheticListData(o.directory, o.spec);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "wrote " << result.trainImages << " training and " << result.testImages << " test images of "
              << o.spec.classes << " classes (" << o.spec.width << "x" << o.spec.height << " JPEG) in " << seconds << " s\n"
              << "lists: " << result.trainList << ", " << result.testList << " (the held-out images, also as " << result.valList << ", which the imagenet-lt preset evaluates on)\n"
              << "train on them: lbd train --preset imagenet-lt --data-dir " << o.directory << "\n";
    return 0;
}

} // namespace

Command addMakeListDataCommand(CLI::App& lbd)
{
    auto o = std::make_shared<MakeListDataOptions>();
    CLI::App* c = lbd.add_subcommand("make-list-data", "write a long-tailed data set of synthetic JPEG photographs in the "
                                                       "ImageNet-LT list-file format (to try the ImageNet path without ImageNet)");
    c->add_option("directory", o->directory, "the folder to create (absent or empty)")->required()->type_name("DIR");
    c->add_option("--classes", o->spec.classes, "classes (1000)")->check(CLI::Range(int64_t{2}, int64_t{100000}));
    c->add_option("--max-per-class", o->spec.maxPerClass, "training images of the largest class (320)")
        ->check(CLI::Range(int64_t{1}, int64_t{100000}));
    c->add_option("--ratio", o->spec.imbalanceRatio, "imbalance ratio, largest / smallest class (64), exponential profile")
        ->check(CLI::Range(1.0, 1e6));
    c->add_option("--test-per-class", o->spec.testPerClass, "test images per class (20)")->check(CLI::Range(int64_t{1}, int64_t{100000}));
    c->add_option("--width", o->spec.width, "image width in pixels (500)")->check(CLI::Range(int64_t{8}, int64_t{4096}));
    c->add_option("--height", o->spec.height, "image height in pixels (375)")->check(CLI::Range(int64_t{8}, int64_t{4096}));
    c->add_option("--seed", o->spec.seed, "seed of the images (0)");
    c->add_option("--threads", o->spec.threads, "threads writing files (0: every core)")->check(CLI::Range(0, 1024));
    return {c, [o] { return runMakeListData(*o); }};
}

} // namespace lbd::cli
