// `lbd export RUN --out FILE`: the model's weights for Python (torch.load-readable).
#include "app/cli/commands.h"

#include "core/infer/runexport.h"
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
    const ExportedModel exported = exportRunForPython(args.positional().front(), *out);
    std::cout << "wrote " << *out << " (epoch " << exported.epoch << "; in Python: d = torch.load('" << *out
              << "'); d['state_dict'], d['class_names'])\n";
    return 0;
}

} // namespace lbd::cli
