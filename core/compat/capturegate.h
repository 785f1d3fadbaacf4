#pragma once
// Keeps every other thread of the process away from CUDA while one thread records a CUDA graph.
//
// Thread-local capture mode only stops the capturing thread from making unsafe calls. CUDA still
// forbids ANY thread to synchronise or query a handle that covers a capturing stream: a
// cudaDeviceSynchronize (cuDNN's benchmark search makes one for every new convolution shape, and
// its plan cache is per thread, so every new run searches again), a cudaFree, a handle's
// creation. The caller gets "operation not permitted when stream is capturing" and the capture
// is invalidated ("operation failed due to a previous error during capture"): two runs of one
// `lbd study --parallel` lost at once (issue 33).
//
// So every thread that issues CUDA work for a run holds the gate SHARED for the whole run and
// yields it at safe points (between batches, between stages), where none of its work is in
// flight on the host (autograd's device threads included: backward() has returned). A capture
// takes it EXCLUSIVE: it waits until every other holder has reached a safe point, and holders
// that come later wait until the capture is done (writer preference, so a capture cannot
// starve). A thread's holds nest (a per-thread depth); the capturing thread's own shared hold
// is set aside while it holds the gate exclusively and given back after. Captures are rare
// (one a run, a fraction of a second), so the others lose nothing measurable.
//
// Threads that only decode or copy on the host (the streaming batcher's workers) do not take
// the gate: the run thread may wait for them while it holds it.
#include <condition_variable>
#include <mutex>

namespace lbd::compat {

class CaptureGate {
public:
    CaptureGate() = default;
    CaptureGate(const CaptureGate&) = delete;
    CaptureGate& operator=(const CaptureGate&) = delete;

    static CaptureGate& process(); // the one every run and capture of this process uses

    void acquireShared();
    void releaseShared();
    // At a safe point: when a capture waits, lets it through (this thread's holds are set aside
    // until the capture is done), else returns at once. A no-op for a thread holding nothing.
    void yieldShared();
    // Around a wait for another thread (which may itself be parked at a safe point, waiting for a
    // capture that waits for this thread): the hold is set aside, without waiting, and taken back
    // after, behind any capture that waits meanwhile. Nothing of this thread may touch CUDA between.
    void setAsideShared();
    void takeBackShared();
    // Waits for every other shared holder to yield or leave; this thread's own shared holds
    // are set aside meanwhile (a thread that holds it shared may capture).
    void acquireExclusive();
    void releaseExclusive();

    // For tests and messages: the state as seen now.
    int sharedHolders() const;   // threads holding it shared
    int waitingCaptures() const; // threads waiting to hold it exclusively
    int waitingHolders() const;  // threads waiting to hold it shared (behind a capture)
    bool captureInProgress() const;
    int depthOfThisThread() const; // this thread's nested shared holds (0: none)

private:
    int& depth() const; // this thread's nested shared holds of this gate
    void waitForNoCapture(std::unique_lock<std::mutex>& lock); // until no capture runs or waits

    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    int m_sharedHolders = 0;
    int m_waitingWriters = 0;
    int m_waitingReaders = 0;
    bool m_writerActive = false;
};

// The whole run's shared hold (RAII).
class SharedCudaHold {
public:
    explicit SharedCudaHold(CaptureGate& gate = CaptureGate::process()) : m_gate(gate) { m_gate.acquireShared(); }
    ~SharedCudaHold() { m_gate.releaseShared(); }
    SharedCudaHold(const SharedCudaHold&) = delete;
    SharedCudaHold& operator=(const SharedCudaHold&) = delete;

private:
    CaptureGate& m_gate;
};

// A capture's exclusive hold (RAII).
class ExclusiveCaptureHold {
public:
    explicit ExclusiveCaptureHold(CaptureGate& gate = CaptureGate::process()) : m_gate(gate) { m_gate.acquireExclusive(); }
    ~ExclusiveCaptureHold() { m_gate.releaseExclusive(); }
    ExclusiveCaptureHold(const ExclusiveCaptureHold&) = delete;
    ExclusiveCaptureHold& operator=(const ExclusiveCaptureHold&) = delete;

private:
    CaptureGate& m_gate;
};

// Sets this thread's shared hold aside while it waits for another thread (RAII).
class SetAsideCudaHold {
public:
    explicit SetAsideCudaHold(CaptureGate& gate = CaptureGate::process()) : m_gate(gate) { m_gate.setAsideShared(); }
    ~SetAsideCudaHold() { m_gate.takeBackShared(); }
    SetAsideCudaHold(const SetAsideCudaHold&) = delete;
    SetAsideCudaHold& operator=(const SetAsideCudaHold&) = delete;

private:
    CaptureGate& m_gate;
};

// A safe point of this thread on the process's gate (between batches, between stages).
inline void yieldToCapture()
{
    CaptureGate::process().yieldShared();
}

} // namespace lbd::compat
