// `lbd`: the command line. One file per verb; this file only dispatches and turns every
// error into a message and an exit status (2 = bad input, 1 = run failure).
#include "app/cli/commands.h"
#include "core/util/error.h"

#include <c10/util/Exception.h>

#include <cstring>
#include <iostream>

int main(int argc, char** argv)
{
    using namespace lbd::cli;
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        printUsage(std::cout);
        return argc < 2 ? 2 : 0;
    }
    const std::string verb = argv[1];
    const Args args(argc - 2, argv + 2);
    try {
        return runCommand(verb, args);
    } catch (const lbd::InputError& error) {
        std::cerr << "lbd " << verb << ": " << error.what() << '\n';
        return 2;
    } catch (const lbd::RunError& error) {
        std::cerr << "lbd " << verb << ": " << error.what() << '\n';
        return 1;
    } catch (const c10::Error& error) {
        std::cerr << "lbd " << verb << ": LibTorch error: " << error.what_without_backtrace() << '\n';
        return 1;
    } catch (const std::exception& error) {
        std::cerr << "lbd " << verb << ": " << error.what() << '\n';
        return 1;
    }
}
