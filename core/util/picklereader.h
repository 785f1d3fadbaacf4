#pragma once
// Reads the pickles inside torch.save files into the plain value tree of plainpickle.h: what
// Python's torch.save(model.state_dict()) writes (an OrderedDict with _metadata, tensors as
// torch._utils._rebuild_tensor_v2 of persistent storages; PyTorch 1.13 and 2.x, protocol 2, with
// the memo), and our own files (plainPickle). LibTorch's torch::pickle_load cannot read the
// former: it turns every collections.OrderedDict into None, so a torchvision state dict comes back
// as None.
//
// A restricted unpickler, like PyTorch's weights_only one: only the globals a state dict needs
// (_rebuild_tensor_v2, _rebuild_parameter, OrderedDict, the torch.<Type>Storage classes) are
// accepted, nothing is executed, and a malformed or hostile pickle is a std::runtime_error saying
// what and at which byte, never a crash. No torch here: tensors are PickledTensor references to
// storages that torchsavearchive.h resolves.
#include "core/util/plainpickle.h"

#include <string>

namespace lbd {

// Parses `bytes` (PROTO .. STOP). Dict keys must be strings, as in every state dict; the
// attributes an OrderedDict carries (BUILD: _metadata) are dropped. Throws std::runtime_error.
PickleValue readPickle(const std::string& bytes);

} // namespace lbd
