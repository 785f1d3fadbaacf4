#pragma once
// The verbs of `lbd`, one file each (cmd_<verb>.cpp). A verb declares every option ONCE on its
// CLI11 subcommand (the parse, `lbd <verb> --help`, the man pages and the bash completion all
// come from that declaration) and returns the function that runs it. Runners return the exit
// status and throw InputError for bad input (main prints it and exits 2), RunError for a run
// that failed (exit 1).
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace lbd::cli {

using CommandRunner = std::function<int()>;

struct Command {
    CLI::App* app = nullptr;
    CommandRunner run;
};

Command addDataCommand(CLI::App& lbd);
Command addTrainCommand(CLI::App& lbd);
Command addEvalCommand(CLI::App& lbd);
Command addPredictCommand(CLI::App& lbd);
Command addOodCommand(CLI::App& lbd);
Command addExportCommand(CLI::App& lbd);
Command addBenchCommand(CLI::App& lbd);
Command addStudyCommand(CLI::App& lbd);
Command addDiffCommand(CLI::App& lbd);
Command addCompletionCommand(CLI::App& lbd);
Command addMakeListDataCommand(CLI::App& lbd);

// An option whose value must be one of `words`: checked by CLI11 and offered by the completion.
CLI::Option* choices(CLI::Option* option, const std::vector<std::string>& words);
// The words recorded for an option (empty when it takes free text).
std::vector<std::string> completionWords(const CLI::Option* option);

} // namespace lbd::cli
