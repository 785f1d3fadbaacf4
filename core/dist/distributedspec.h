#pragma once
// Where this process stands in a data-parallel run: its rank, the number of ranks, its GPU and
// the rendezvous, read from the environment a launcher sets (torchrun's names). Torch-free, so
// that the trainer's and the GUI's headers can carry it.
#include <chrono>
#include <functional>
#include <string>

namespace lbd {

struct DistributedSpec {
    int rank = 0;
    int worldSize = 1;
    int localRank = 0; // this process's GPU on its machine
    std::string masterAddress = "127.0.0.1";
    int masterPort = 29500;
    std::chrono::milliseconds timeout{std::chrono::minutes(5)};

    bool enabled() const { return worldSize > 1; }
};

// RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT and LBD_DIST_TIMEOUT (seconds), as
// `lookup` (getenv by default) gives them; none set is a single process. An InputError names a
// variable that is malformed or inconsistent (RANK 3 of WORLD_SIZE 2).
DistributedSpec distributedSpecFromEnvironment(const std::function<const char*(const char*)>& lookup = {});

// A TCP port of 127.0.0.1 that nobody listens on now (the kernel's pick for port 0), for a
// rendezvous on this machine. RunError when no socket can be bound.
int freeLocalPort();

} // namespace lbd
