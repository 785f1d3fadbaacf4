#pragma once
// Errors that the readers and core report to their callers. Each message names the file or option
// at fault and what is wrong with it; the command line prints it and exits with status 2 (InputError)
// or 1 (RunError), the GUI shows it in a dialog. Defined here, at the bottom of the layers, so that
// datasets/ and core/ throw the same types (core/util/error.h forwards here).
#include <stdexcept>
#include <string>

namespace lbd {

// Bad user input: a file that is missing, corrupt or of the wrong kind, an invalid option.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Something failed while running (non-finite loss, device out of memory, interrupted run).
class RunError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace lbd
