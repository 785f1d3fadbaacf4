// `lbd export RUN --out FILE`: the model's weights for Python (torch.load-readable).
#include "app/cli/commands.h"

#include "core/infer/loadedrun.h"
#include "core/train/pythonexport.h"
#include "core/util/error.h"

#include <iostream>

namespace lbd::cli {

int runExport(Args& args)
{
    const auto out = args.value("out");
    args.rejectUnknown();
    if (args.positional().size() != 1 || !out) {
        throw InputError("usage: lbd export RUN_DIR --out FILE.pt");
    }
    LoadedRun run = loadRun(args.positional().front(), torch::kCPU);
    exportPythonWeights(*out, *run.model, run.manifest.classNames, run.modelSpec, run.manifest.normalization);
    std::cout << "wrote " << *out << " (epoch " << run.epoch << "; in Python: d = torch.load('" << *out
              << "'); d['state_dict'], d['class_names'])\n";
    return 0;
}

} // namespace lbd::cli
