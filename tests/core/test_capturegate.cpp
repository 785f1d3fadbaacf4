// The capture gate (core/compat/capturegate.h) with real threads: a capture waits for every shared
// holder, holders that come while a capture waits wait behind it, a thread's holds nest, and a
// thread that holds the gate shared can capture without waiting for itself. No timing is
// asserted: each test waits (with a generous bound, so that a bug fails instead of hanging) for
// the state the gate itself reports, then checks what must and must not have happened.
#include "core/compat/capturegate.h"

#include <QtTest>

#include <atomic>
#include <thread>

using lbd::compat::CaptureGate;

namespace {

constexpr int kBoundMs = 20000; // only reached when the gate is wrong

// A thread that holds the gate shared until told to let go (or to yield, at its "safe points").
class Holder {
public:
    explicit Holder(CaptureGate& gate) : m_gate(gate)
    {
        m_thread = std::thread([this] {
            m_gate.acquireShared();
            m_holding = true;
            while (!m_release) {
                if (m_yield) {
                    m_gate.yieldShared();
                    ++m_yields;
                }
                std::this_thread::yield();
            }
            m_gate.releaseShared();
            m_holding = false;
        });
    }
    ~Holder() { finish(); }
    void letGo() { m_release = true; }
    void yieldAtSafePoints() { m_yield = true; }
    void finish()
    {
        m_release = true;
        if (m_thread.joinable()) {
            m_thread.join();
        }
    }
    bool holding() const { return m_holding; }

private:
    CaptureGate& m_gate;
    std::thread m_thread;
    std::atomic<bool> m_holding{false};
    std::atomic<bool> m_release{false};
    std::atomic<bool> m_yield{false};
    std::atomic<int> m_yields{0};
};

// A thread that takes the gate exclusively, says so, and lets go when told.
class Capture {
public:
    explicit Capture(CaptureGate& gate, bool holdSharedFirst = false) : m_gate(gate)
    {
        m_thread = std::thread([this, holdSharedFirst] {
            if (holdSharedFirst) {
                m_gate.acquireShared();
            }
            m_gate.acquireExclusive();
            m_capturing = true;
            while (!m_release) {
                std::this_thread::yield();
            }
            m_gate.releaseExclusive();
            m_capturing = false;
            m_sharedAfter = m_gate.depthOfThisThread();
            if (holdSharedFirst) {
                m_gate.releaseShared();
            }
            m_done = true;
        });
    }
    ~Capture() { finish(); }
    void letGo() { m_release = true; }
    void finish()
    {
        m_release = true;
        if (m_thread.joinable()) {
            m_thread.join();
        }
    }
    bool capturing() const { return m_capturing; }
    bool done() const { return m_done; }
    int sharedDepthAfter() const { return m_sharedAfter; }

private:
    CaptureGate& m_gate;
    std::thread m_thread;
    std::atomic<bool> m_capturing{false};
    std::atomic<bool> m_release{false};
    std::atomic<bool> m_done{false};
    std::atomic<int> m_sharedAfter{-1};
};

} // namespace

class TestCaptureGate final : public QObject {
    Q_OBJECT

private slots:
    void captureWaitsForEverySharedHolder()
    {
        CaptureGate gate;
        Holder first(gate);
        Holder second(gate);
        QTRY_VERIFY_WITH_TIMEOUT(first.holding() && second.holding(), kBoundMs);
        QCOMPARE(gate.sharedHolders(), 2);
        Capture capture(gate);
        QTRY_COMPARE_WITH_TIMEOUT(gate.waitingCaptures(), 1, kBoundMs);
        QVERIFY(!capture.capturing());
        first.finish();
        QCOMPARE(gate.sharedHolders(), 1);
        QVERIFY(!capture.capturing()); // the second still holds it
        QVERIFY(!gate.captureInProgress());
        second.finish();
        QTRY_VERIFY_WITH_TIMEOUT(capture.capturing(), kBoundMs);
        QVERIFY(gate.captureInProgress());
        QCOMPARE(gate.waitingCaptures(), 0);
        capture.finish();
        QVERIFY(!gate.captureInProgress());
    }

    // Writer preference: a holder arriving while a capture waits queues behind it, so that runs
    // starting one after another cannot keep a capture out for ever.
    void newHoldersWaitWhileACaptureWaits()
    {
        CaptureGate gate;
        Holder early(gate);
        QTRY_VERIFY_WITH_TIMEOUT(early.holding(), kBoundMs);
        Capture capture(gate);
        QTRY_COMPARE_WITH_TIMEOUT(gate.waitingCaptures(), 1, kBoundMs);
        Holder late(gate);
        QTRY_COMPARE_WITH_TIMEOUT(gate.waitingHolders(), 1, kBoundMs);
        QVERIFY(!late.holding());
        early.finish();
        QTRY_VERIFY_WITH_TIMEOUT(capture.capturing(), kBoundMs);
        QVERIFY(!late.holding()); // still behind the capture in progress
        QCOMPARE(gate.sharedHolders(), 0);
        capture.letGo();
        QTRY_VERIFY_WITH_TIMEOUT(late.holding(), kBoundMs);
        QCOMPARE(gate.sharedHolders(), 1);
        QCOMPARE(gate.waitingHolders(), 0);
    }

    // A holder yields at its safe points: the capture runs while it is parked there, and it goes on
    // holding the gate afterwards.
    void aYieldingHolderLetsTheCaptureThrough()
    {
        CaptureGate gate;
        Holder busy(gate);
        QTRY_VERIFY_WITH_TIMEOUT(busy.holding(), kBoundMs);
        Capture capture(gate);
        QTRY_COMPARE_WITH_TIMEOUT(gate.waitingCaptures(), 1, kBoundMs);
        QVERIFY(!capture.capturing());
        busy.yieldAtSafePoints();
        QTRY_VERIFY_WITH_TIMEOUT(capture.capturing(), kBoundMs);
        QCOMPARE(gate.sharedHolders(), 0); // parked in its yield, not holding
        QVERIFY(busy.holding());           // (its own view: the run goes on after the capture)
        capture.finish();
        QTRY_COMPARE_WITH_TIMEOUT(gate.sharedHolders(), 1, kBoundMs);
    }

    void yieldingWithNoCaptureWaitingKeepsTheHold()
    {
        CaptureGate gate;
        gate.yieldShared(); // holding nothing: nothing to do
        QCOMPARE(gate.depthOfThisThread(), 0);
        gate.acquireShared();
        gate.yieldShared();
        QCOMPARE(gate.depthOfThisThread(), 1);
        QCOMPARE(gate.sharedHolders(), 1);
        gate.releaseShared();
        QCOMPARE(gate.sharedHolders(), 0);
    }

    // A thread's holds nest: a nested hold while a capture waits does not wait (that would wait
    // for itself), and only the outermost release lets the capture in.
    void holdsNestWithoutDeadlock()
    {
        CaptureGate gate;
        gate.acquireShared();
        gate.acquireShared();
        QCOMPARE(gate.depthOfThisThread(), 2);
        QCOMPARE(gate.sharedHolders(), 1);
        Capture capture(gate);
        QTRY_COMPARE_WITH_TIMEOUT(gate.waitingCaptures(), 1, kBoundMs);
        gate.acquireShared(); // nested: must return at once although a capture waits
        QCOMPARE(gate.depthOfThisThread(), 3);
        gate.releaseShared();
        gate.releaseShared();
        QVERIFY(!capture.capturing());
        QCOMPARE(gate.sharedHolders(), 1);
        gate.releaseShared();
        QTRY_VERIFY_WITH_TIMEOUT(capture.capturing(), kBoundMs);
        capture.finish();
        QCOMPARE(gate.depthOfThisThread(), 0);
    }

    // The capturing thread held the gate shared (a run captures in the middle of its run): it waits
    // for the others only, and has its shared hold back after the capture.
    void aSharedHolderCanCapture()
    {
        CaptureGate gate;
        Holder other(gate);
        QTRY_VERIFY_WITH_TIMEOUT(other.holding(), kBoundMs);
        Capture capture(gate, /*holdSharedFirst=*/true);
        QTRY_COMPARE_WITH_TIMEOUT(gate.waitingCaptures(), 1, kBoundMs);
        QCOMPARE(gate.sharedHolders(), 1); // its own hold set aside while it waits
        other.yieldAtSafePoints();
        QTRY_VERIFY_WITH_TIMEOUT(capture.capturing(), kBoundMs);
        capture.letGo();
        QTRY_VERIFY_WITH_TIMEOUT(capture.done(), kBoundMs);
        QCOMPARE(capture.sharedDepthAfter(), 1);
        capture.finish();
        QTRY_COMPARE_WITH_TIMEOUT(gate.sharedHolders(), 1, kBoundMs); // the other, back from its yield
        other.finish();
        QCOMPARE(gate.sharedHolders(), 0);
    }

    // Two runs that both hold it shared capture at the same moment: one after the other, no deadlock.
    void twoHoldersCaptureAtOnce()
    {
        CaptureGate gate;
        Capture a(gate, true);
        Capture b(gate, true);
        QTRY_VERIFY_WITH_TIMEOUT(a.capturing() || b.capturing(), kBoundMs);
        QVERIFY(!(a.capturing() && b.capturing()));
        Capture& first = a.capturing() ? a : b;
        Capture& second = a.capturing() ? b : a;
        first.letGo();
        QTRY_VERIFY_WITH_TIMEOUT(first.done(), kBoundMs);
        QTRY_VERIFY_WITH_TIMEOUT(second.capturing(), kBoundMs);
        second.letGo();
        QTRY_VERIFY_WITH_TIMEOUT(second.done(), kBoundMs);
        QCOMPARE(gate.sharedHolders(), 0);
    }

    // A holder that waits for another thread sets its hold aside: a capture goes through meanwhile,
    // and taking the hold back waits until the capture is done.
    void aHoldSetAsideLetsTheCaptureThroughAndIsTakenBackAfter()
    {
        CaptureGate gate;
        gate.acquireShared();
        Capture capture(gate);
        QTRY_COMPARE_WITH_TIMEOUT(gate.waitingCaptures(), 1, kBoundMs);
        std::atomic<bool> takenBack{false};
        gate.setAsideShared();
        QTRY_VERIFY_WITH_TIMEOUT(capture.capturing(), kBoundMs);
        QCOMPARE(gate.depthOfThisThread(), 1);
        std::thread release([&] {
            QTRY_COMPARE_WITH_TIMEOUT(gate.waitingHolders(), 1, kBoundMs); // this thread, taking it back
            QVERIFY(!takenBack);
            capture.letGo();
        });
        gate.takeBackShared();
        takenBack = true;
        QVERIFY(!gate.captureInProgress());
        QCOMPARE(gate.sharedHolders(), 1);
        release.join();
        gate.releaseShared();
        QCOMPARE(gate.sharedHolders(), 0);
    }

    // Code that takes a shared hold inside a capture (the capturing thread held nothing before)
    // goes on: the capture is already exclusive.
    void aSharedHoldInsideACaptureDoesNotWait()
    {
        CaptureGate gate;
        gate.acquireExclusive();
        gate.acquireShared();
        QCOMPARE(gate.sharedHolders(), 0);
        gate.releaseShared();
        gate.releaseExclusive();
        QCOMPARE(gate.sharedHolders(), 0);
        QVERIFY(!gate.captureInProgress());
        QVERIFY_EXCEPTION_THROWN(gate.releaseShared(), std::logic_error);
    }
};

QTEST_APPLESS_MAIN(TestCaptureGate)
#include "test_capturegate.moc"
