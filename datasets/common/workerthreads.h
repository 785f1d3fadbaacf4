#pragma once
// Runs one work function on `workers` threads at once: the calling thread and workers - 1 more,
// joined before it returns. The work shares its items through an atomic counter of its own (the
// decoders and the dataset cache's encoder); an exception must be caught inside the work and
// handed back by the caller (a thread's uncaught exception would end the program).
#include <functional>
#include <thread>
#include <vector>

namespace lbd {

inline void runOnWorkerThreads(int workers, const std::function<void()>& work)
{
    std::vector<std::thread> pool;
    for (int t = 1; t < workers; ++t) {
        pool.emplace_back(work);
    }
    work();
    for (auto& thread : pool) {
        thread.join();
    }
}

} // namespace lbd
