#include "app/cli/crashreport.h"

#include <csignal>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include <execinfo.h>
#include <fcntl.h>
#include <ucontext.h>
#include <unistd.h>

namespace lbd::cli {
namespace {

char g_prefix[96] = "lbd"; // "lbd rank 1", filled in before any signal can arrive

// Only async-signal-safe calls below: write(2), open/read/close, backtrace_symbols_fd (which
// writes without allocating), signal/raise.
void writeText(const char* text)
{
    const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
    (void)ignored;
}

void writeHex(uintptr_t value)
{
    char text[2 + 2 * sizeof value + 1];
    char* end = text + sizeof text - 1;
    *end = '\0';
    char* p = end;
    do {
        *--p = "0123456789abcdef"[value & 0xf];
        value >>= 4;
    } while (value != 0);
    *--p = 'x';
    *--p = '0';
    writeText(p);
}

uintptr_t parseHex(const char*& p)
{
    uintptr_t value = 0;
    for (;; ++p) {
        const char c = *p;
        const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (digit < 0) {
            return value;
        }
        value = value * 16 + static_cast<uintptr_t>(digit);
    }
}

// Reads /proc/self/maps in blocks; calls `line` with each whole line (NUL-terminated; a line
// longer than the buffer keeps its first 511 characters) until `line` returns true. False
// when the file could not be read to its end.
template <typename LineAction>
bool forEachMapsLine(LineAction line)
{
    const int maps = ::open("/proc/self/maps", O_RDONLY);
    if (maps < 0) {
        return false;
    }
    char block[4096];
    char text[512];
    size_t used = 0;
    bool readToEnd = false;
    for (;;) {
        const ssize_t got = ::read(maps, block, sizeof block);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            readToEnd = got == 0;
            break;
        }
        for (ssize_t i = 0; i < got; ++i) {
            if (block[i] != '\n') {
                if (used + 1 < sizeof text) {
                    text[used++] = block[i];
                }
                continue;
            }
            text[used] = '\0';
            used = 0;
            if (line(text)) {
                ::close(maps);
                return true;
            }
        }
    }
    ::close(maps);
    return readToEnd;
}

// The line of /proc/self/maps whose range holds the address: which library (and so which
// offset) the faulting instruction was in. When the stack below stops at once, the instruction
// is in code without unwind tables, or in no mapping at all (a call through a stale pointer).
void writeMappingOf(uintptr_t address)
{
    bool found = false;
    const bool read = forEachMapsLine([&](const char* text) {
        const char* p = text;
        const uintptr_t begin = parseHex(p);
        const uintptr_t end = *p == '-' ? parseHex(++p) : 0;
        if (address < begin || address >= end) {
            return false;
        }
        writeText("  in mapping ");
        writeText(text);
        writeText("\n");
        found = true;
        return true;
    });
    if (!found) {
        writeText(read ? "  in no mapping of this process (a jump through a stale or corrupt pointer)\n"
                       : "  (/proc/self/maps could not be read)\n");
    }
}

// Where the fault happened: the faulting instruction (x86-64's saved RIP) and the address it touched.
void writeFaultSite(const siginfo_t* info, const void* context)
{
#if defined(__x86_64__) && defined(REG_RIP)
    const auto* machine = static_cast<const ucontext_t*>(context);
    const auto instruction = static_cast<uintptr_t>(machine->uc_mcontext.gregs[REG_RIP]);
    writeText("instruction at ");
    writeHex(instruction);
    writeText("\n");
    writeMappingOf(instruction);
#else
    (void)context;
#endif
    // si_addr means something only for a fault the kernel raised (si_code > 0), not for a signal
    // sent with kill or raise.
    if (info != nullptr && info->si_code > 0 && (info->si_signo == SIGSEGV || info->si_signo == SIGBUS)) {
        writeText("address touched ");
        writeHex(reinterpret_cast<uintptr_t>(info->si_addr));
        writeText("\n");
    }
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

void reportAndDie(int signal, siginfo_t* info, void* context)
{
    writeText("\n");
    writeText(g_prefix);
    writeText(": crashed with ");
    writeText(signalName(signal));
    writeText("\n");
    writeFaultSite(info, context);
    writeText("stack (newest first):\n");
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
    struct sigaction action {};
    action.sa_sigaction = reportAndDie;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    for (const int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) {
        ::sigaction(signal, &action, nullptr);
    }
}

} // namespace lbd::cli
