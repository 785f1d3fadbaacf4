// lbd's fatal-signal report (app/cli/crashreport): a child process installs it and crashes; its
// stderr names the signal and the rank and carries a stack, and it still dies of that signal (the
// launcher reads 128 + signal as before).
#include "app/cli/crashreport.h"

#include <QtTest>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

namespace {

struct Crash {
    int signal = 0;     // what the child died of (0: it did not die of a signal)
    std::string stderrText;
};

// Forks a child that sets RANK (unless empty), installs the report and runs `crash`.
template <typename Action>
Crash crashChild(const char* rank, Action crashIt)
{
    int pipeEnds[2];
    if (::pipe(pipeEnds) != 0) {
        return {};
    }
    const pid_t child = ::fork();
    if (child == 0) {
        ::dup2(pipeEnds[1], STDERR_FILENO);
        ::close(pipeEnds[0]);
        if (rank[0] != '\0') {
            ::setenv("RANK", rank, 1);
        } else {
            ::unsetenv("RANK");
        }
        lbd::cli::installCrashReport();
        crashIt();
        ::_exit(0); // not reached when the report re-raises
    }
    ::close(pipeEnds[1]);
    Crash crash;
    char buffer[4096];
    ssize_t n = 0;
    while ((n = ::read(pipeEnds[0], buffer, sizeof buffer)) > 0) {
        crash.stderrText.append(buffer, static_cast<size_t>(n));
    }
    ::close(pipeEnds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    crash.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return crash;
}

Crash crashChild(const char* rank, int signal)
{
    return crashChild(rank, [signal] { std::raise(signal); });
}

} // namespace

class TestCrashReport : public QObject {
    Q_OBJECT

private slots:
    void aRankThatCrashesSaysWhichAndWhere()
    {
        const Crash crash = crashChild("1", SIGSEGV);
        QCOMPARE(crash.signal, SIGSEGV);
        // Raised, not a fault: no address is claimed.
        QVERIFY2(crash.stderrText.find("address touched") == std::string::npos, crash.stderrText.c_str());
        QVERIFY2(crash.stderrText.find("lbd rank 1: crashed with SIGSEGV") != std::string::npos, crash.stderrText.c_str());
        QVERIFY2(crash.stderrText.find("stack (newest first):\n") != std::string::npos, crash.stderrText.c_str());
        // At least one frame after the header line.
        const size_t header = crash.stderrText.find("stack (newest first):\n");
        QVERIFY2(crash.stderrText.size() > header + 24, crash.stderrText.c_str());
    }

    // A real invalid access: the report names the address touched and the mapping (this test's
    // own executable) of the instruction that touched it.
    void anInvalidWriteNamesTheAddressAndTheInstructionsMapping()
    {
        const Crash crash = crashChild("", [] {
            volatile int* nearNull = reinterpret_cast<int*>(std::uintptr_t(0x10));
            *nearNull = 1;
        });
        QCOMPARE(crash.signal, SIGSEGV);
        QVERIFY2(crash.stderrText.find("address touched 0x10\n") != std::string::npos, crash.stderrText.c_str());
#if defined(__x86_64__) && defined(REG_RIP)
        QVERIFY2(crash.stderrText.find("instruction at 0x") != std::string::npos, crash.stderrText.c_str());
        const size_t mapping = crash.stderrText.find("  in mapping ");
        QVERIFY2(mapping != std::string::npos, crash.stderrText.c_str());
        const std::string mappingLine = crash.stderrText.substr(mapping, crash.stderrText.find('\n', mapping) - mapping);
        QVERIFY2(mappingLine.find("app_test_crashreport") != std::string::npos, mappingLine.c_str());
#endif
    }

    // A call through a null function pointer: the stack cannot be unwound from there (glibc's
    // backtrace stops at the handler), so the report says the instruction lies in no mapping.
    void aJumpToNowhereSaysSo()
    {
        const Crash crash = crashChild("2", [] {
            void (*volatile nowhere)() = nullptr;
            nowhere();
        });
        QCOMPARE(crash.signal, SIGSEGV);
        QVERIFY2(crash.stderrText.find("lbd rank 2: crashed with SIGSEGV") != std::string::npos, crash.stderrText.c_str());
#if defined(__x86_64__) && defined(REG_RIP)
        QVERIFY2(crash.stderrText.find("instruction at 0x0\n  in no mapping") != std::string::npos, crash.stderrText.c_str());
#endif
    }

    void withoutRankItIsJustLbd()
    {
        const Crash crash = crashChild("", SIGABRT);
        QCOMPARE(crash.signal, SIGABRT);
        QVERIFY2(crash.stderrText.find("\nlbd: crashed with SIGABRT") != std::string::npos, crash.stderrText.c_str());
    }
};

QTEST_APPLESS_MAIN(TestCrashReport)
#include "test_crashreport.moc"
