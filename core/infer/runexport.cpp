#include "core/infer/runexport.h"

#include "core/infer/loadedrun.h"
#include "core/train/pythonexport.h"
#include "core/util/error.h"
#include "core/util/torchsavearchive.h"

namespace lbd {

ExportedModel exportRunForPython(const std::string& runDir, const std::string& outFile)
{
    if (outFile.empty()) {
        throw InputError("no output file given for the exported model");
    }
    LoadedRun run = loadRun(runDir, torch::kCPU);
    exportPythonWeights(outFile, *run.model, run.manifest.classNames, run.modelSpec, run.manifest.normalization);
    ExportedModel exported = readExportedModel(outFile);
    exported.epoch = run.epoch;
    return exported;
}

ExportedModel readExportedModel(const std::string& file)
{
    const c10::IValue value = readTorchSaveFile(file, "an exported model");
    ExportedModel model;
    model.file = file;
    try {
        if (!value.isGenericDict()) {
            throw InputError(file + ": not an exported model (expected a dict)");
        }
        const auto dict = value.toGenericDict();
        for (const char* key : {"state_dict", "class_names", "arch", "particles"}) {
            if (!dict.contains(key)) {
                throw InputError(file + ": not an exported model (no \"" + key + "\")");
            }
        }
        model.arch = dict.at("arch").toStringRef();
        model.particles = dict.at("particles").toInt();
        for (const auto& name : dict.at("class_names").toListRef()) {
            model.classNames.push_back(name.toStringRef());
        }
        for (const auto& entry : dict.at("state_dict").toGenericDict()) {
            ++model.tensorCount;
            model.parameterCount += entry.value().toTensor().numel();
        }
    } catch (const c10::Error& error) {
        throw InputError(file + ": not an exported model (" + std::string(error.what_without_backtrace()) + ")");
    }
    return model;
}

} // namespace lbd
