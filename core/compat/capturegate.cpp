#include "core/compat/capturegate.h"

#include <stdexcept>
#include <unordered_map>

namespace lbd::compat {
namespace {

// What one thread holds of one gate.
struct ThreadHold {
    int depth = 0;          // nested shared holds
    bool counted = false;   // counted among the gate's shared holders (false while set aside)
    bool exclusive = false; // this thread holds the gate exclusively
};

ThreadHold& holdOf(const CaptureGate* gate)
{
    thread_local std::unordered_map<const CaptureGate*, ThreadHold> holds;
    return holds[gate];
}

} // namespace

CaptureGate& CaptureGate::process()
{
    static CaptureGate gate; // never destroyed before the threads that use it
    return gate;
}

int& CaptureGate::depth() const
{
    return holdOf(this).depth;
}

void CaptureGate::acquireShared()
{
    ThreadHold& hold = holdOf(this);
    if (hold.depth > 0 || hold.exclusive) {
        ++hold.depth; // nested, or inside this thread's own capture: already let through
        return;
    }
    std::unique_lock<std::mutex> lock(m_mutex);
    // Writer preference: a waiting capture goes first, so a stream of new holders cannot starve it.
    waitForNoCapture(lock);
    ++m_sharedHolders;
    hold.counted = true;
    hold.depth = 1;
}

void CaptureGate::releaseShared()
{
    ThreadHold& hold = holdOf(this);
    if (hold.depth == 0) {
        throw std::logic_error("CaptureGate::releaseShared without a shared hold");
    }
    if (--hold.depth > 0 || !hold.counted) {
        return;
    }
    const std::lock_guard<std::mutex> lock(m_mutex);
    --m_sharedHolders;
    hold.counted = false;
    m_changed.notify_all();
}

void CaptureGate::yieldShared()
{
    ThreadHold& hold = holdOf(this);
    if (hold.depth == 0 || hold.exclusive || !hold.counted) {
        return;
    }
    std::unique_lock<std::mutex> lock(m_mutex);
    if (m_waitingWriters == 0) {
        return; // the usual case: nobody is waiting to capture
    }
    --m_sharedHolders;
    hold.counted = false;
    m_changed.notify_all();
    waitForNoCapture(lock);
    ++m_sharedHolders;
    hold.counted = true;
}

void CaptureGate::setAsideShared()
{
    ThreadHold& hold = holdOf(this);
    if (!hold.counted || hold.exclusive) {
        return;
    }
    const std::lock_guard<std::mutex> lock(m_mutex);
    --m_sharedHolders;
    hold.counted = false;
    m_changed.notify_all();
}

void CaptureGate::takeBackShared()
{
    ThreadHold& hold = holdOf(this);
    if (hold.depth == 0 || hold.counted || hold.exclusive) {
        return;
    }
    std::unique_lock<std::mutex> lock(m_mutex);
    waitForNoCapture(lock);
    ++m_sharedHolders;
    hold.counted = true;
}

void CaptureGate::acquireExclusive()
{
    ThreadHold& hold = holdOf(this);
    if (hold.exclusive) {
        throw std::logic_error("CaptureGate::acquireExclusive: this thread already holds it exclusively");
    }
    std::unique_lock<std::mutex> lock(m_mutex);
    if (hold.counted) {
        // Set aside this thread's shared hold: waiting for itself would never end.
        --m_sharedHolders;
        hold.counted = false;
        m_changed.notify_all();
    }
    ++m_waitingWriters;
    m_changed.wait(lock, [this] { return !m_writerActive && m_sharedHolders == 0; });
    --m_waitingWriters;
    m_writerActive = true;
    hold.exclusive = true;
}

void CaptureGate::releaseExclusive()
{
    ThreadHold& hold = holdOf(this);
    if (!hold.exclusive) {
        throw std::logic_error("CaptureGate::releaseExclusive without the exclusive hold");
    }
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_writerActive = false;
    hold.exclusive = false;
    if (hold.depth > 0) {
        // Back to the shared hold set aside, at once: a capture waiting meanwhile gets its turn at
        // this thread's next safe point.
        ++m_sharedHolders;
        hold.counted = true;
    }
    m_changed.notify_all();
}

int CaptureGate::sharedHolders() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_sharedHolders;
}

void CaptureGate::waitForNoCapture(std::unique_lock<std::mutex>& lock)
{
    ++m_waitingReaders;
    m_changed.wait(lock, [this] { return !m_writerActive && m_waitingWriters == 0; });
    --m_waitingReaders;
}

int CaptureGate::waitingHolders() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_waitingReaders;
}

int CaptureGate::waitingCaptures() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_waitingWriters;
}

bool CaptureGate::captureInProgress() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_writerActive;
}

int CaptureGate::depthOfThisThread() const
{
    return depth();
}

} // namespace lbd::compat
