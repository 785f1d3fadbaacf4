// `lbd ood RUN --fit | --measure`: the out-of-distribution caution of a run. --fit writes
// RUN/ood.json (what the trainer writes at the end of a run; this fits runs trained elsewhere or
// earlier); --measure prints, as JSON, how well the score separates the run's test set from a
// folder of foreign images and from uniform noise (docs/results/ood.md).
#include "app/cli/command.h"

#include "core/infer/runood.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace lbd::cli {
namespace {

struct OodOptions {
    std::string run;
    bool fit = false;
    bool measure = false;
    OodMeasureOptions measureOptions;
};

int runOod(const OodOptions& o)
{
    if (!o.fit && !o.measure) {
        throw InputError("say what to do: --fit (write RUN/ood.json), --measure (AUROC against --ood-folder and --noise), "
                         "or both");
    }
    if (o.measure && o.measureOptions.oodFolder.empty() && o.measureOptions.noiseImages <= 0) {
        throw InputError("--measure needs --ood-folder DIR, --noise N, or both");
    }
    if (o.fit) {
        const OodFit fit = fitRunOod(o.run, o.measureOptions.device);
        std::cerr << "lbd ood: " << oodMethodName(fit.method) << " score fitted on " << fit.images << " " << fit.source
                  << " (epoch " << fit.checkpointEpoch << "); threshold " << fit.threshold() << " passes "
                  << fit.passRate * 100 << " % of them; written to " << o.run << "/" << kOodFitFile << '\n';
        if (!fit.heldOut.note.empty()) {
            std::cerr << "lbd ood: " << fit.heldOut.note << '\n';
        }
    }
    if (o.measure) {
        std::cout << measureRunOod(o.run, o.measureOptions).dump(2) << '\n';
    }
    return 0;
}

} // namespace

Command addOodCommand(CLI::App& lbd)
{
    auto o = std::make_shared<OodOptions>();
    CLI::App* c = lbd.add_subcommand("ood", "fit or measure a run's out-of-distribution caution (images unlike its training data)");
    c->add_option("run", o->run, "the run folder")->required()->type_name("RUN_DIR");
    c->add_flag("--fit", o->fit, "fit the score on images the run did not train on (its validation split, or the images its long tail left out) and write RUN/ood.json");
    c->add_flag("--measure", o->measure,
                "print as JSON the AUROC of the scores, the run's test set against --ood-folder and --noise images");
    c->add_option("--ood-folder", o->measureOptions.oodFolder, "foreign images (searched recursively)")->type_name("DIR");
    c->add_option("--noise", o->measureOptions.noiseImages, "this many uniform-noise images in the run's format")
        ->check(CLI::Range(int64_t(0), int64_t(1000000)))
        ->type_name("N");
    c->add_option("--seed", o->measureOptions.seed, "seed of the noise images");
    c->add_option("--device", o->measureOptions.device, "cpu, cuda[:N] or auto");
    return {c, [o] { return runOod(*o); }};
}

} // namespace lbd::cli
