#include "app/cli/ranklauncher.h"

#include "core/dist/distributedspec.h"
#include "core/util/error.h"
#include "core/util/scratchfolder.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <sys/wait.h>
#include <unistd.h>

namespace lbd::cli {
namespace {

std::vector<std::string> g_commandLine;
std::vector<pid_t> g_ranks; // read by the signal handler
std::atomic<int> g_interrupts{0};

void forwardInterrupt(int signal)
{
    ++g_interrupts;
    for (const pid_t rank : g_ranks) {
        ::kill(rank, signal == SIGTERM ? SIGTERM : SIGINT);
    }
}

} // namespace

std::vector<std::string> rankArguments(const std::vector<std::string>& arguments, const std::vector<std::string>& extra, int rank)
{
    // Dropped: the launch options, and any option that `extra` sets (--gpus N puts rank r on
    // cuda:r whatever --device the user gave: a second --device would be refused by the rank).
    std::vector<std::string> dropped{"--processes", "--gpus"};
    for (const std::string& argument : extra) {
        if (argument.rfind("--", 0) == 0) {
            dropped.push_back(argument);
        }
    }
    const auto isDropped = [&](const std::string& argument) {
        for (const std::string& name : dropped) {
            if (argument == name || argument.rfind(name + "=", 0) == 0) {
                return true;
            }
        }
        return false;
    };
    std::vector<std::string> out;
    for (size_t i = 0; i < arguments.size(); ++i) {
        if (isDropped(arguments[i])) {
            if (arguments[i].find('=') == std::string::npos) {
                ++i; // and its value
            }
            continue;
        }
        out.push_back(arguments[i]);
    }
    out.insert(out.end(), extra.begin(), extra.end());
    if (rank > 0) {
        out.emplace_back("--quiet"); // one progress bar: rank 0's
    }
    return out;
}

namespace {

// The launcher's own folder, where its ranks make their scratch folders (LBD_RANK_SCRATCH_ROOT):
// removed with whatever a rank that was killed left in it. Without it (no temporary directory)
// the ranks use the temporary directory themselves.
class LaunchScratch {
public:
    LaunchScratch()
    {
        try {
            m_folder.emplace("lbd-launch");
            ::setenv("LBD_RANK_SCRATCH_ROOT", m_folder->path().c_str(), 1);
        } catch (const RunError&) {
        }
    }
    ~LaunchScratch()
    {
        if (m_folder) {
            ::unsetenv("LBD_RANK_SCRATCH_ROOT");
        }
    }
    LaunchScratch(const LaunchScratch&) = delete;
    LaunchScratch& operator=(const LaunchScratch&) = delete;

private:
    std::optional<ScratchFolder> m_folder;
};

// "lbd train", "lbd bench": how the launcher's own messages name the command.
std::string commandName(const std::vector<std::string>& arguments)
{
    return arguments.size() > 1 ? "lbd " + arguments[1] : "lbd";
}

pid_t startRank(const std::vector<std::string>& arguments, int rank, int count, int port)
{
    const pid_t child = ::fork();
    if (child < 0) {
        throw RunError(std::string("could not start rank ") + std::to_string(rank) + ": " + std::strerror(errno));
    }
    if (child > 0) {
        return child;
    }
    // A process group of its own: Ctrl+C in the terminal reaches the launcher alone, which passes
    // it on once (a rank that got it twice would end at once instead of after its batch).
    ::setpgid(0, 0);
    ::setenv("RANK", std::to_string(rank).c_str(), 1);
    ::setenv("LOCAL_RANK", std::to_string(rank).c_str(), 1);
    ::setenv("WORLD_SIZE", std::to_string(count).c_str(), 1);
    ::setenv("MASTER_ADDR", "127.0.0.1", 1);
    ::setenv("MASTER_PORT", std::to_string(port).c_str(), 1);
    std::vector<char*> argv;
    for (const std::string& argument : arguments) {
        argv.push_back(const_cast<char*>(argument.c_str()));
    }
    argv.push_back(nullptr);
    ::execv("/proc/self/exe", argv.data());
    std::cerr << commandName(arguments) << ": could not start rank " << rank << ": " << std::strerror(errno) << '\n';
    ::_exit(127);
}

int exitStatusOf(int status)
{
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

} // namespace

void rememberCommandLine(int argc, char** argv)
{
    g_commandLine.assign(argv, argv + argc);
}

const std::vector<std::string>& commandLine()
{
    return g_commandLine;
}

int launchRanks(int count, const std::vector<std::string>& arguments, const std::vector<std::string>& extra)
{
    const int port = freeLocalPort();
    std::string launchCommand;
    for (const std::string& argument : arguments) {
        launchCommand += (launchCommand.empty() ? "" : " ") + argument;
    }
    ::setenv("LBD_LAUNCH_COMMAND", launchCommand.c_str(), 1); // the ranks' records name it
    const LaunchScratch scratch; // the ranks' scratch folders, removed whatever way they end
    g_interrupts = 0;
    std::signal(SIGINT, forwardInterrupt);
    std::signal(SIGTERM, forwardInterrupt);
    for (int rank = 0; rank < count; ++rank) {
        g_ranks.push_back(startRank(rankArguments(arguments, extra, rank), rank, count, port));
    }
    int result = 0;
    int failedRank = -1;
    for (size_t left = g_ranks.size(); left > 0; --left) {
        int status = 0;
        const pid_t done = ::waitpid(-1, &status, 0);
        if (done < 0) {
            if (errno == EINTR) {
                ++left;
                continue;
            }
            break;
        }
        const int code = exitStatusOf(status);
        int rank = 0;
        while (rank < count && g_ranks[static_cast<size_t>(rank)] != done) {
            ++rank;
        }
        if (code != 0 && failedRank < 0) {
            // The first rank to end badly decides; the others would only wait for it until their
            // collective times out, so they are stopped now.
            failedRank = rank;
            result = code;
            if (code != 130) {
                std::cerr << commandName(arguments) << ": rank " << rank << " of " << count << " ended with status " << code
                          << "; stopping the other ranks\n";
            }
            for (const pid_t other : g_ranks) {
                if (other != done) {
                    ::kill(other, SIGTERM);
                }
            }
        }
    }
    g_ranks.clear();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    return result;
}

std::optional<int> launchRanksIfAsked(int processes, int gpus, int visibleGpus)
{
    const int count = gpus > 0 ? gpus : processes;
    if (count <= 1) {
        return std::nullopt;
    }
    if (gpus > visibleGpus) {
        throw InputError("--gpus " + std::to_string(gpus) + ": " + std::to_string(visibleGpus) + " CUDA device(s) visible");
    }
    if (const DistributedSpec distributed = distributedSpecFromEnvironment(); distributed.enabled()) {
        throw InputError("--" + std::string(gpus > 0 ? "gpus " : "processes ") + std::to_string(count)
                         + " in a process that is already rank " + std::to_string(distributed.rank) + " of "
                         + std::to_string(distributed.worldSize) + " (RANK and WORLD_SIZE are set): start the ranks one way");
    }
    return launchRanks(count, commandLine(), gpus > 0 ? std::vector<std::string>{"--device", "cuda"} // rank r on cuda:r
                                                      : std::vector<std::string>{});
}

} // namespace lbd::cli
