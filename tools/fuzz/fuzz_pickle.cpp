// The restricted unpickler of torch.save files (core/util/picklereader.cpp, lbd train --init-from):
// the input is the archive's data.pkl. Anything may be refused (std::runtime_error saying what and
// at which byte); nothing may crash, leak or take seconds. What is read is walked (every tensor's
// sizes and strides) and must write back as a plain pickle and read again. The zip container
// (core/util/torchsavearchive.cpp) is LibTorch's reader and is not built here.
#include "core/util/picklereader.h"
#include "core/util/plainpickle.h"

#include <stdexcept>
#include <string>

namespace {

size_t walk(const lbd::PickleValue& value, int depth)
{
    using Kind = lbd::PickleValue::Kind;
    size_t count = 1;
    switch (value.kind()) {
    case Kind::List:
    case Kind::Tuple:
        for (const auto& item : value.items()) {
            count += walk(item, depth + 1);
        }
        break;
    case Kind::Dict:
        for (const auto& [key, item] : value.entries()) {
            count += key.size() + walk(item, depth + 1);
        }
        break;
    case Kind::Tensor: {
        const lbd::PickledTensor& t = value.asTensor();
        if (t.sizes.size() != t.strides.size()) {
            __builtin_trap(); // the reader promises a view with one stride per size
        }
        count += t.sizes.size();
        break;
    }
    default: break;
    }
    return count;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    lbd::PickleValue value;
    try {
        value = lbd::readPickle(bytes);
    } catch (const std::runtime_error&) {
        return 0;
    }
    const size_t nodes = walk(value, 0);
    if (nodes > 100000) {
        return 0; // memoised objects expand when written back without a memo: not worth the time
    }
    // What was read writes back (plainpickle.h) and reads again to a tree of the same size.
    std::string again;
    try {
        again = lbd::plainPickle(value);
    } catch (const std::exception&) {
        return 0; // a value plainPickle does not write (e.g. a float: protocol 2 without BINFLOAT)
    }
    if (walk(lbd::readPickle(again), 0) != nodes) {
        __builtin_trap();
    }
    return 0;
}
