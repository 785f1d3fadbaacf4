// `lbd export RUN --out FILE`: the model's weights for Python (torch.load-readable);
// `lbd export RUN --onnx FILE`: the ensemble as an ONNX model (for OpenCV's DNN module and other runtimes).
#include "app/cli/command.h"

#include "core/infer/onnxexport.h"
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
        std::string onnx;
    };
    auto o = std::make_shared<Options>();
    CLI::App* c = lbd.add_subcommand("export", "write a run's weights for Python's torch.load (--out) or its ensemble as ONNX (--onnx)");
    c->add_option("run", o->run, "the run folder")->required()->type_name("RUN_DIR");
    c->add_option("--out", o->out, "the .pt file to write (torch.load-readable weights)")->type_name("FILE");
    c->add_option("--onnx", o->onnx,
                  "the .onnx file to write: input float [N, C, S, S] pixels / 255 (the run's normalisation is in the graph), "
                  "outputs every particle's probabilities [N, M, K] and their mean [N, K]; opset 11 (OpenCV 4.6 reads it)")
        ->type_name("FILE");
    return {c, [o] {
                if (o->out.empty() && o->onnx.empty()) {
                    throw InputError("give --out FILE (weights for torch.load), --onnx FILE (ONNX model), or both");
                }
                if (!o->out.empty()) {
                    checkOutputFilePath(o->out);
                }
                if (!o->onnx.empty()) {
                    checkOutputFilePath(o->onnx);
                }
                if (!o->out.empty()) {
                    const ExportedModel exported = exportRunForPython(o->run, o->out);
                    std::cout << "wrote " << o->out << " (epoch " << exported.epoch << "; in Python: d = torch.load('" << o->out
                              << "'); d['state_dict'], d['class_names'])\n";
                }
                if (!o->onnx.empty()) {
                    const OnnxExportSummary onnx = exportRunAsOnnx(o->run, o->onnx);
                    std::cout << "wrote " << o->onnx << " (epoch " << onnx.epoch << ", ONNX opset " << onnx.opset << ", "
                              << onnx.nodes << " nodes, " << onnx.bytes << " bytes)\n"
                              << onnx.usage << "\n";
                }
                return 0;
            }};
}

} // namespace lbd::cli
