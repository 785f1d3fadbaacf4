#pragma once
// A fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) makes `lbd` write which signal, in
// which rank of a data-parallel run, and the stack (glibc's backtrace: library + offset, symbol
// names where exported) to stderr, then die of the same signal, so that the exit status stays
// what it was (the launcher reports 128 + signal as before). Why: on the GPU machine
// (2026-11-27) rank 1 of 2 ended with status 139 after finished and failed runs and said nothing
// about where.
namespace lbd::cli {

// Call once, early in main. The rank is read from RANK now (the handler reads no environment).
void installCrashReport();

} // namespace lbd::cli
