// `lbd export RUN --out FILE`: the model's weights for Python (torch.load-readable).
#include "app/cli/command.h"

#include "core/infer/runexport.h"
#include "core/util/atomicfile.h"
#include "core/util/error.h"

#include <iostream>
#include <memory>

namespace lbd::cli {

Command addExportCommand(CLI::App& lbd)
{
    struct Options {
        std::string run;
        std::string out;
    };
    auto o = std::make_shared<Options>();
    CLI::App* c = lbd.add_subcommand("export", "write a run's weights as a file that Python's torch.load reads");
    c->add_option("run", o->run, "the run folder")->required()->type_name("RUN_DIR");
    c->add_option("--out", o->out, "the .pt file to write")->required()->type_name("FILE");
    return {c, [o] {
                checkOutputFilePath(o->out);
                const ExportedModel exported = exportRunForPython(o->run, o->out);
                std::cout << "wrote " << o->out << " (epoch " << exported.epoch << "; in Python: d = torch.load('" << o->out
                          << "'); d['state_dict'], d['class_names'])\n";
                return 0;
            }};
}

} // namespace lbd::cli
