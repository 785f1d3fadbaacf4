// `lbd`: the command line. One file per verb declares its options (command.h); this file only
// parses, dispatches, and turns every error into a message and an exit status: 0 success,
// 1 a run failed, 2 bad input (the message names the file or option), 130 stopped by a signal.
#include "app/cli/command.h"
#include "app/cli/crashreport.h"
#include "app/cli/ranklauncher.h"

#include "core/util/buildinfo.h"
#include "core/util/error.h"
#include "core/util/machineinfo.h"

#include <c10/util/Exception.h>

#include <iostream>

namespace {

int printVersion()
{
    const lbd::BuildInfo info = lbd::buildInfo();
    std::cout << "lbd " << info.lbdVersion << " (commit " << info.gitCommit << ")\nLibTorch " << info.torchVersion
              << "\nOpenCV " << info.openCvVersion
              << "\nCUDA " << (info.cudaAvailable ? "available" : "not available") << '\n';
    for (const auto& device : info.cudaDevices) {
        std::cout << "  " << device << '\n';
    }
    return 0;
}

// The subcommand the user named, for the "lbd <verb>:" prefix of messages.
std::string verbOf(const CLI::App& app)
{
    for (const CLI::App* command : app.get_subcommands()) {
        return command->get_name();
    }
    return {};
}

} // namespace

int main(int argc, char** argv)
{
    using namespace lbd::cli;
    installCrashReport();
    lbd::setCommandLine(argc, argv); // every run this process starts records it (run.json's provenance)
    CLI::App app("Long-tailed Bayesian Decision (LBD Studio command line): train particle ensembles on long-tailed "
                 "image data, evaluate and decide with utility matrices, classify images.",
                 "lbd");
    app.require_subcommand(0, 1);
    app.footer("Run `lbd <command> --help` for a command's options. Exit status: 0 success, 1 a run failed, 2 bad "
               "input (the message names the file or option), 130 stopped (Ctrl+C).");
    bool version = false;
    app.add_flag("--version", version, "versions of LBD Studio, LibTorch, OpenCV and the CUDA devices found");
    const std::vector<Command> commands = {addDataCommand(app),   addTrainCommand(app),  addEvalCommand(app),
                                           addPredictCommand(app), addOodCommand(app), addExportCommand(app), addBenchCommand(app),
                                           addStudyCommand(app),   addDiffCommand(app),   addMakeListDataCommand(app),
                                           addCompletionCommand(app)};
    for (const Command& command : commands) {
        command.app->set_help_flag("-h,--help", "this help");
    }
    rememberCommandLine(argc, argv); // `lbd train --processes N` starts its ranks with it
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& success) {
        return app.exit(success); // --help
    } catch (const CLI::ParseError& error) {
        const std::string verb = verbOf(app);
        std::cerr << "lbd" << (verb.empty() ? "" : " " + verb) << ": " << error.what() << "\n(see lbd "
                  << (verb.empty() ? "" : verb + " ") << "--help)\n";
        return 2;
    }
    if (version) {
        return printVersion();
    }
    for (const Command& command : commands) {
        if (!command.app->parsed()) {
            continue;
        }
        const std::string verb = command.app->get_name();
        try {
            return command.run();
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
    std::cerr << app.help() << "lbd: name a command\n";
    return 2;
}
