#include "core/dist/communicator.h"

#include "core/util/error.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <limits>
#include <thread>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#ifdef LBD_HAVE_C10D
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#endif
#ifdef LBD_HAVE_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#ifdef LBD_HAVE_NCCL
#include "core/compat/torchcompat.h"
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

namespace lbd {
namespace {

// A whole number in [low, high] from an environment variable, or InputError naming it.
long long integerVariable(const char* name, const char* text, long long low, long long high)
{
    errno = 0;
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    if (text[0] == '\0' || *end != '\0' || errno != 0 || value < low || value > high) {
        throw InputError(std::string(name) + "=" + text + ": must be a whole number from " + std::to_string(low) + " to "
                         + std::to_string(high));
    }
    return value;
}

} // namespace

DistributedSpec distributedSpecFromEnvironment(const std::function<const char*(const char*)>& lookup)
{
    const auto get = [&](const char* name) -> const char* { return lookup ? lookup(name) : std::getenv(name); };
    DistributedSpec spec;
    const char* worldSize = get("WORLD_SIZE");
    const char* rank = get("RANK");
    const char* localRank = get("LOCAL_RANK");
    const char* worldSizeName = "WORLD_SIZE";
    const char* rankName = "RANK";
    const char* localRankName = "LOCAL_RANK";
    if (worldSize == nullptr && rank == nullptr) {
        // Not given: the tasks of a SLURM job step (srun) are the ranks. Only inside a step
        // (SLURM_STEP_ID): a batch script's own environment also says SLURM_NTASKS=4 and
        // SLURM_PROCID=0, and one process taking that for rank 0 of 4 would wait for the others.
        const char* tasks = get("SLURM_NTASKS") ? get("SLURM_NTASKS") : get("SLURM_STEP_NUM_TASKS");
        if (get("SLURM_STEP_ID") == nullptr || get("SLURM_PROCID") == nullptr || tasks == nullptr) {
            return spec;
        }
        worldSize = tasks;
        worldSizeName = get("SLURM_NTASKS") ? "SLURM_NTASKS" : "SLURM_STEP_NUM_TASKS";
        rank = get("SLURM_PROCID");
        rankName = "SLURM_PROCID";
        if (localRank == nullptr) {
            localRank = get("SLURM_LOCALID");
            localRankName = "SLURM_LOCALID";
        }
        const char* nodes = get("SLURM_STEP_NUM_NODES") ? get("SLURM_STEP_NUM_NODES") : get("SLURM_NNODES");
        const char* address = get("MASTER_ADDR");
        if (std::string(worldSize) != "1" && nodes != nullptr && std::string(nodes) != "1" && (address == nullptr || address[0] == '\0')) {
            throw InputError(std::string("the ranks come from SLURM (") + worldSizeName + "=" + worldSize + " tasks on " + nodes
                             + " nodes) but MASTER_ADDR is not set: export MASTER_ADDR=$(scontrol show hostnames "
                               "\"$SLURM_JOB_NODELIST\" | head -1), the host of rank 0");
        }
    }
    if (worldSize == nullptr || rank == nullptr) {
        throw InputError(std::string(worldSize == nullptr ? "RANK" : "WORLD_SIZE") + " is set but "
                         + (worldSize == nullptr ? "WORLD_SIZE" : "RANK") + " is not: a distributed run needs both");
    }
    spec.worldSize = static_cast<int>(integerVariable(worldSizeName, worldSize, 1, 4096));
    spec.rank = static_cast<int>(integerVariable(rankName, rank, 0, spec.worldSize - 1));
    if (localRank != nullptr) {
        spec.localRank = static_cast<int>(integerVariable(localRankName, localRank, 0, 1023));
    } else {
        spec.localRank = spec.rank;
    }
    if (const char* address = get("MASTER_ADDR"); address != nullptr && address[0] != '\0') {
        spec.masterAddress = address;
    }
    if (const char* port = get("MASTER_PORT")) {
        spec.masterPort = static_cast<int>(integerVariable("MASTER_PORT", port, 1, 65535));
    }
    if (const char* timeout = get("LBD_DIST_TIMEOUT")) {
        spec.timeout = std::chrono::seconds(integerVariable("LBD_DIST_TIMEOUT", timeout, 1, 24 * 3600));
    }
    return spec;
}

int freeLocalPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0
        || ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        const std::string reason = std::strerror(errno);
        if (fd >= 0) {
            ::close(fd);
        }
        throw RunError("no free local port for the ranks' rendezvous: " + reason);
    }
    ::close(fd);
    return ntohs(address.sin_port);
}

void PendingCollective::wait()
{
    if (m_wait) {
        const auto waitForIt = std::move(m_wait);
        m_wait = nullptr;
        waitForIt();
    }
}

bool cpuCollectivesAvailable()
{
#ifdef LBD_HAVE_GLOO
    return true;
#else
    return false;
#endif
}

#ifdef LBD_HAVE_C10D

bool distributedAvailable()
{
    return true;
}

struct Communicator::Group {
    c10::intrusive_ptr<c10d::Store> store;
#ifdef LBD_HAVE_GLOO
    c10::intrusive_ptr<c10d::ProcessGroupGloo> gloo; // CPU tensors, or CUDA ones without NCCL
#endif
#ifdef LBD_HAVE_NCCL
    c10::intrusive_ptr<c10d::ProcessGroupNCCL> nccl; // CUDA tensors
#endif
    torch::Device device{torch::kCPU};

    template <typename Operation>
    void run(Operation operation)
    {
#ifdef LBD_HAVE_NCCL
        if (nccl) {
            operation(*nccl);
            return;
        }
#endif
#ifdef LBD_HAVE_GLOO
        operation(*gloo);
#else
        throw RunError("this build of lbd has no Gloo (its LibTorch ships no Gloo headers): ranks exchange CUDA "
                       "tensors only (NCCL); train with --device cuda");
#endif
    }
};

namespace {

// c10d reports a timeout or a vanished peer as c10::Error or std::runtime_error: both become a
// RunError that says which rank saw it and what it means.
template <typename Action>
void collective(const DistributedSpec& spec, const std::string& what, Action action)
{
    try {
        action();
    } catch (const std::exception& error) {
        std::string reason = error.what();
        if (const auto newline = reason.find('\n'); newline != std::string::npos) {
            reason.resize(newline); // c10::Error appends a backtrace
        }
        throw RunError("rank " + std::to_string(spec.rank) + " of " + std::to_string(spec.worldSize) + ": " + what
                       + " failed (another rank stopped, failed, or took longer than "
                       + std::to_string(spec.timeout.count() / 1000) + " s): " + reason);
    }
}

} // namespace

Communicator::Communicator(const DistributedSpec& spec, const torch::Device& device)
    : m_spec(spec), m_group(std::make_unique<Group>())
{
    if (!device.is_cuda() && !cpuCollectivesAvailable()) { // said before any rank waits on a store
        throw RunError("rank " + std::to_string(spec.rank) + " of " + std::to_string(spec.worldSize)
                       + ": this build of lbd has no Gloo (its LibTorch ships no Gloo headers): data-parallel "
                         "training needs --device cuda (NCCL)");
    }
    m_group->device = device;
    collective(m_spec, "joining the group at " + m_spec.masterAddress + ":" + std::to_string(m_spec.masterPort), [&] {
                   c10d::TCPStoreOptions options;
                   options.port = static_cast<std::uint16_t>(m_spec.masterPort);
                   options.isServer = m_spec.rank == 0;
                   options.numWorkers = static_cast<std::size_t>(m_spec.worldSize);
                   options.waitWorkers = true;
                   options.timeout = m_spec.timeout;
                   m_group->store = c10::make_intrusive<c10d::TCPStore>(m_spec.masterAddress, options);
#ifdef LBD_HAVE_NCCL
                   if (device.is_cuda()) {
                       auto ncclOptions = c10d::ProcessGroupNCCL::Options::create();
                       ncclOptions->timeout = m_spec.timeout;
                       m_group->nccl = c10::make_intrusive<c10d::ProcessGroupNCCL>(m_group->store, m_spec.rank,
                                                                                  m_spec.worldSize, ncclOptions);
                       return;
                   }
#endif
#ifdef LBD_HAVE_GLOO
                   auto glooOptions = c10d::ProcessGroupGloo::Options::create(m_spec.timeout);
                   // Ranks of one machine talk over the loopback device (no name lookup that a bare
                   // container may not have); across machines, over the interface of this host's name.
                   const bool local = m_spec.masterAddress == "127.0.0.1" || m_spec.masterAddress == "localhost";
                   glooOptions->devices.push_back(local ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                                                        : c10d::ProcessGroupGloo::createDefaultDevice());
                   m_group->gloo = c10::make_intrusive<c10d::ProcessGroupGloo>(m_group->store, m_spec.rank,
                                                                              m_spec.worldSize, glooOptions);
#else
                   throw RunError("this build of lbd has no Gloo (its LibTorch ships no Gloo headers): "
                                  "data-parallel training needs --device cuda (NCCL)");
#endif
               });
}

Communicator::~Communicator()
{
    // Rank 1 of 2 ended with SIGSEGV after a finished run and after a failed one (PyTorch 2.11,
    // NCCL, 2026-11-27), rank 0 never. The cause is not established; rank 0 hosts the store the
    // process groups were made with, and leaving before the others had taken theirs down is one
    // suspect (it fits the failed run, not the finished one). So, in an order that cannot hurt:
    // every rank shuts its group down and destroys it before its store; the ranks > 0 then say so
    // in the store, and rank 0 keeps the store up until they all have, or a few seconds have
    // passed (a rank that died says nothing). lbd's crash report (app/cli/crashreport.h) shows
    // where a rank still dies.
#ifdef LBD_HAVE_NCCL
#if LBD_TORCH_AT_LEAST(2, 4)
    // Ends NCCL's watchdog and communicators in order (the destructor would warn that nobody did).
    if (m_group && m_group->nccl) {
        try {
            m_group->nccl->shutdown();
        } catch (const std::exception&) { // a peer already gone: nothing left to end cleanly
        }
    }
#endif
    m_group->nccl.reset();
#endif
#ifdef LBD_HAVE_GLOO
    m_group->gloo.reset();
#endif
    if (!m_group->store) {
        return;
    }
    try {
        static const std::string kLeft = "lbd/ranks-left";
        if (m_spec.rank != 0) {
            m_group->store->add(kLeft, 1);
            return;
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (m_group->store->add(kLeft, 0) < m_spec.worldSize - 1 && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    } catch (const std::exception&) { // the store or a peer already gone: nothing to wait for
    }
}

std::string Communicator::backendName() const
{
#ifdef LBD_HAVE_NCCL
    if (m_group->nccl) {
        return "nccl";
    }
#endif
    return "gloo";
}

namespace {

// NCCL carries device tensors only: a host tensor (a checkpoint's loss-scaler state, a stop flag)
// goes through a copy on this rank's device, and comes back.
template <typename Operation>
void onCollectiveDevice(torch::Tensor& tensor, bool deviceOnly, const torch::Device& device, Operation operation)
{
    if (!deviceOnly || tensor.is_cuda()) { // a CUDA tensor goes as it is (the gradients: no copy)
        operation(tensor);
        return;
    }
    torch::Tensor staged = tensor.to(device);
    operation(staged);
    tensor.copy_(staged);
}

} // namespace

void Communicator::allReduceSum(torch::Tensor& tensor)
{
    collective(m_spec, "all-reduce", [&] {
        onCollectiveDevice(tensor, backendName() == "nccl", m_group->device, [&](torch::Tensor& onDevice) {
            std::vector<torch::Tensor> tensors{onDevice};
            m_group->run([&](auto& group) { group.allreduce(tensors)->wait(); });
        });
    });
}

PendingCollective Communicator::allReduceSumAsync(const torch::Tensor& tensor)
{
    PendingCollective pending;
    collective(m_spec, "all-reduce", [&] {
        std::vector<torch::Tensor> tensors{tensor};
        m_group->run([&](auto& group) {
            auto work = group.allreduce(tensors);
            const DistributedSpec spec = m_spec;
            pending.m_wait = [work, spec] { collective(spec, "all-reduce", [&] { work->wait(); }); };
        });
    });
    return pending;
}

void Communicator::broadcast(torch::Tensor& tensor, int root)
{
    collective(m_spec, "broadcast", [&] {
        onCollectiveDevice(tensor, backendName() == "nccl", m_group->device, [&](torch::Tensor& onDevice) {
            std::vector<torch::Tensor> tensors{onDevice};
            c10d::BroadcastOptions options;
            options.rootRank = root;
            m_group->run([&](auto& group) { group.broadcast(tensors, options)->wait(); });
        });
    });
}

void Communicator::barrier()
{
    // NCCL's own barrier guesses each rank's GPU from its number; a one-element all-reduce on this
    // rank's device is a barrier that cannot guess wrong.
    if (backendName() == "nccl") {
        torch::Tensor token = torch::zeros({1}, torch::TensorOptions().device(m_group->device));
        allReduceSum(token);
        token.item<float>(); // the host waits for the device, as a barrier should
        return;
    }
#ifdef LBD_HAVE_GLOO
    collective(m_spec, "barrier", [&] { m_group->gloo->barrier()->wait(); });
#endif
}

#else // no c10d in this LibTorch

bool distributedAvailable()
{
    return false;
}

struct Communicator::Group {};

Communicator::Communicator(const DistributedSpec& spec, const torch::Device&) : m_spec(spec)
{
    throw RunError("this build of lbd has no distributed training (its LibTorch lacks c10d/Gloo): train on one process");
}

Communicator::~Communicator() = default;
std::string Communicator::backendName() const
{
    return "none";
}
void Communicator::allReduceSum(torch::Tensor&) {}
PendingCollective Communicator::allReduceSumAsync(const torch::Tensor&)
{
    return {};
}
void Communicator::broadcast(torch::Tensor&, int) {}
void Communicator::barrier() {}

#endif

} // namespace lbd
