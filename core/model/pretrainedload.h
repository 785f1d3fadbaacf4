#pragma once
// model.init_from (lbd train --init-from FILE): the weights a run starts from instead of its random
// initialisation.
//   - A torchvision ResNet-50 state dict, as torch.save(model.state_dict()) writes it (zip format;
//     PyTorch 1.13 and 2.x), into model.arch resnet50: the stem (conv1, bn1) and the shared
//     layer1 and layer2 get their keys; layer3 and layer4, which are per particle, are copied into
//     EVERY particle; fc is not loaded (the class count differs): the cosine classifier starts
//     from its random initialisation.
//   - An earlier LBD run's weights.pt, its checkpoint.pt (a LibTorch archive), or its run folder
//     (weights.pt, else the checkpoint of an unfinished run): every tensor, for the same
//     architecture and particle count; its classifier only when its classes are this data's
//     (same names, same order), otherwise the classifier starts afresh.
// conv1 of a 3-channel file into a grey (1-channel) model: the kernels summed over the input
// channels, the usual practice (a grey image seen as R = G = B gives the same response); a grey
// file into a colour model: the kernel repeated over the channels and divided by 3.
// Everything is checked before anything is copied: a missing or mis-shaped key, or a key the model
// does not have, is an InputError naming the file and the first such key with both shapes.
// No torch in this header: the GUI checks a file when it is chosen (checkInitialWeights).
#include "core/model/modelspec.h"

#include <string>
#include <vector>

namespace lbd {

class ParticleModelImpl;

struct InitialWeightsReport {
    std::string file;               // the file read (a run folder's weights.pt)
    std::string kind;               // "a torchvision ResNet-50 state dict", "an LBD run's weights (...)"
    std::vector<std::string> lines; // what was loaded into what, what was replaced: for the run log
    int64_t tensorsLoaded = 0;
};

// Loads `path` (a file, or a run folder holding weights.pt or checkpoint.pt) into `model`, on the CPU, built and
// not yet trained. `classNames`: the data's classes (an LBD run's classifier is kept when they
// are the file's). Throws InputError naming the file.
InitialWeightsReport loadInitialWeights(const std::string& path, ParticleModelImpl& model,
                                        const std::vector<std::string>& classNames);

// The same checks without copying (for the GUI, when a file is chosen): builds a model of `spec`
// on the CPU and returns what loading would do, or throws the InputError the run would.
InitialWeightsReport checkInitialWeights(const std::string& path, const ModelSpec& spec,
                                         const std::vector<std::string>& classNames = {});

} // namespace lbd
