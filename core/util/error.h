#pragma once
// Errors that core reports to its callers. Each message names the file or option at fault
// and what is wrong with it; the command line prints it and exits with status 2, the GUI
// shows it in a dialog.
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
