#include "app/cli/crashreport.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include <execinfo.h>
#include <unistd.h>

namespace lbd::cli {
namespace {

char g_prefix[96] = "lbd"; // "lbd rank 1", filled in before any signal can arrive

// Only async-signal-safe calls below: write(2), backtrace_symbols_fd (which writes without
// allocating), signal/raise.
void writeText(const char* text)
{
    const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
    (void)ignored;
}

const char* signalName(int signal)
{
    switch (signal) {
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGFPE: return "SIGFPE (arithmetic error)";
    case SIGABRT: return "SIGABRT (aborted)";
    }
    return "a fatal signal";
}

void reportAndDie(int signal)
{
    writeText("\n");
    writeText(g_prefix);
    writeText(": crashed with ");
    writeText(signalName(signal));
    writeText("; stack (newest first):\n");
    void* frames[64];
    const int count = ::backtrace(frames, 64);
    ::backtrace_symbols_fd(frames, count, STDERR_FILENO);
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

} // namespace

void installCrashReport()
{
    if (const char* rank = std::getenv("RANK"); rank != nullptr && rank[0] != '\0' && std::strlen(rank) < 16) {
        std::strcpy(g_prefix, "lbd rank ");
        std::strcat(g_prefix, rank);
    }
    void* warmUp[1];
    (void)::backtrace(warmUp, 1); // loads libgcc's unwinder now, not inside the handler
    for (const int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) {
        std::signal(signal, reportAndDie);
    }
}

} // namespace lbd::cli
