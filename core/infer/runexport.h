#pragma once
// A run's model for Python users (`lbd export`, the runs page): the weights of the last
// checkpoint as a dict that the default torch.load reads (pythonexport.h; python/lbd_studio.py
// builds the model from it), and a check that reads such a file back. Plain std types only, so
// the GUI can call it without torch headers.
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

struct ExportedModel {
    std::string file;
    int epoch = 0; // of the checkpoint that was exported (0 when only read back)
    std::string arch;
    int64_t particles = 0;
    std::vector<std::string> classNames;
    int64_t tensorCount = 0;    // entries of state_dict
    int64_t parameterCount = 0; // numbers in every state_dict tensor
};

// Loads the run's last checkpoint on the CPU and writes `outFile` (atomically). Throws
// InputError naming the file when the run folder is not usable or the file cannot be written.
ExportedModel exportRunForPython(const std::string& runDir, const std::string& outFile);

// Reads an exported file back; throws InputError naming it when it is not such a file.
ExportedModel readExportedModel(const std::string& file);

} // namespace lbd
