#pragma once
// `lbd train --processes N` (or --gpus N): starts N copies of this very command as the ranks of one
// data-parallel run on this machine (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR=127.0.0.1 and a
// free MASTER_PORT in their environment, as torchrun would set them), and waits for them. Rank 0
// keeps the terminal; the others are quiet. When one rank fails, the others are stopped and its
// exit status is returned; Ctrl+C is passed on to every rank, which stop after the same batch.
// The ranks find the launcher's own command line in LBD_LAUNCH_COMMAND.
#include <optional>
#include <string>
#include <vector>

namespace lbd::cli {

// `arguments`: the whole command line (argv[0] first); every --processes and --gpus option is
// dropped from the ranks' command lines and `extra` appended (--gpus: --device cuda).
int launchRanks(int count, const std::vector<std::string>& arguments, const std::vector<std::string>& extra = {});

// Rank `rank`'s command line: `arguments` without the launch options (--processes, --gpus) and
// without any option that `extra` sets (so that --gpus's --device cuda replaces the user's
// --device), then `extra`; ranks other than 0 also get --quiet.
std::vector<std::string> rankArguments(const std::vector<std::string>& arguments, const std::vector<std::string>& extra,
                                       int rank);

// A command's --processes N / --gpus N (0: not given): std::nullopt when one process is asked for
// (the command goes on by itself); else the ranks of this command line are started (--gpus: with
// --device cuda) and their exit status returned. InputError when this process already is a rank
// (RANK and WORLD_SIZE set) or --gpus asks for more than `visibleGpus`.
std::optional<int> launchRanksIfAsked(int processes, int gpus, int visibleGpus);

// The command line `lbd` was started with (main stores it before parsing).
void rememberCommandLine(int argc, char** argv);
const std::vector<std::string>& commandLine();

} // namespace lbd::cli
