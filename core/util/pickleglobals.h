#pragma once
// The globals a pickle names, found by walking its opcodes without running or building anything:
// what decides whether a file may be handed to an unpickler at all (archivecheck.h). Python's
// unpickler calls whatever a GLOBAL names (a class whose __reduce__ returns os.system is the
// classic poisoned file); LibTorch's resolves such names itself and fails with an exception that
// names no file. Torch-free, so it can be fuzzed.
#include <string>
#include <vector>

namespace lbd {

// Every "module.name" that GLOBAL, INST and STACK_GLOBAL name, in order. Throws
// std::runtime_error ("pickle byte N: ...") for an opcode it does not know, an extension-registry
// code (EXT1/2/4: a global by number), a STACK_GLOBAL whose two names are not string constants it
// saw pushed (no pickler writes another form), or text that ends before STOP.
std::vector<std::string> pickleGlobals(const std::string& bytes);

} // namespace lbd
