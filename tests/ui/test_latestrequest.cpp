// LatestRequest, the UI's one way to run work off the GUI thread: only the newest request's
// result arrives, on the owner's thread; what the work throws arrives as a message; destroying
// the owner while a job runs waits for it and delivers nothing.
#include "ui/background/latestrequest.h"

#include "core/util/error.h"

#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <thread>

using namespace lbd::ui;

namespace {

// A job that runs until released, so a test decides when it ends (no timing involved).
struct Gate {
    std::atomic_bool open{false};
    std::atomic_bool entered{false};
    void pass()
    {
        entered = true;
        while (!open) {
            QThread::yieldCurrentThread();
        }
    }
};

} // namespace

class TestLatestRequest : public QObject {
    Q_OBJECT

private slots:
    void theNewestRequestWins()
    {
        QThreadPool pool;
        pool.setMaxThreadCount(2);
        LatestRequest<int> request(&pool);
        auto gate = std::make_shared<Gate>();
        QList<int> delivered;
        QStringList errors;
        const auto done = [&delivered](int value) { delivered << value; };
        const auto failed = [&errors](const QString& error) { errors << error; };
        request.start([gate] { gate->pass(); return 1; }, done, failed);
        QTRY_VERIFY(gate->entered);
        request.start([] { return 2; }, done, failed); // started while the first still runs
        QVERIFY(request.isRunning());
        gate->open = true;
        QTRY_VERIFY(!request.isRunning());
        pool.waitForDone();
        QCoreApplication::processEvents(); // the first job's (dropped) finished signal
        QCOMPARE(delivered, QList<int>{2});
        QVERIFY(errors.isEmpty());
    }

    void resultsArriveOnTheOwnersThread()
    {
        LatestRequest<Qt::HANDLE> request;
        Qt::HANDLE workThread = nullptr;
        Qt::HANDLE doneThread = nullptr;
        request.start([] { return QThread::currentThreadId(); },
                      [&](Qt::HANDLE worker) {
                          workThread = worker;
                          doneThread = QThread::currentThreadId();
                      },
                      [](const QString& error) { QFAIL(qPrintable(error)); });
        QTRY_VERIFY(!request.isRunning());
        QVERIFY(workThread != QThread::currentThreadId());
        QCOMPARE(doneThread, QThread::currentThreadId());
    }

    void exceptionsBecomeMessages()
    {
        LatestRequest<int> request;
        QString message;
        request.start([]() -> int { throw lbd::InputError("cannot read /runs/x/results.bin: no such file"); },
                      [](int) { QFAIL("a result from a job that threw"); },
                      [&message](const QString& error) { message = error; });
        QTRY_VERIFY(!request.isRunning());
        QCOMPARE(message, QStringLiteral("cannot read /runs/x/results.bin: no such file"));

        request.start([]() -> int { throw std::runtime_error("plain"); }, [](int) {},
                      [&message](const QString& error) { message = error; });
        QTRY_VERIFY(!request.isRunning());
        QCOMPARE(message, QStringLiteral("plain"));
    }

    void cancelDropsTheResult()
    {
        QThreadPool pool;
        pool.setMaxThreadCount(1);
        LatestRequest<int> blocker(&pool);
        LatestRequest<int> request(&pool);
        auto gate = std::make_shared<Gate>();
        bool ran = false;
        bool delivered = false;
        blocker.start([gate] { gate->pass(); return 0; }, [](int) {}, [](const QString&) {});
        QTRY_VERIFY(gate->entered);
        request.start([&ran] { ran = true; return 1; }, [&delivered](int) { delivered = true; }, [](const QString&) {});
        request.cancel(); // still queued behind the blocker: it never runs
        QVERIFY(!request.isRunning());
        gate->open = true;
        QTRY_VERIFY(!blocker.isRunning());
        pool.waitForDone();
        QCoreApplication::processEvents();
        QVERIFY(!ran);
        QVERIFY(!delivered);
    }

    void destroyingTheOwnerWaitsAndDeliversNothing()
    {
        auto gate = std::make_shared<Gate>();
        std::atomic_bool finished{false};
        bool delivered = false;
        std::thread opener; // opens the gate from outside, as the job would end on its own
        {
            LatestRequest<int> request;
            request.start([gate, &finished] { gate->pass(); finished = true; return 1; },
                          [&delivered](int) { delivered = true; }, [](const QString&) {});
            QTRY_VERIFY(gate->entered);
            // A plain thread: a QThread would run an event loop after `started` and never end.
            opener = std::thread([gate] { gate->open = true; });
        } // ~LatestRequest waits for the running job
        QVERIFY(finished);
        QCoreApplication::processEvents();
        QVERIFY(!delivered);
        opener.join();
    }

    // QFuture::waitForFinished rethrows what the job threw; the destructor must not pass it on.
    void destroyingTheOwnerOfAJobThatThrows()
    {
        auto gate = std::make_shared<Gate>();
        std::thread opener;
        {
            LatestRequest<int> request;
            request.start([gate]() -> int { gate->pass(); throw lbd::RunError("out of memory"); }, [](int) {},
                          [](const QString&) {});
            QTRY_VERIFY(gate->entered);
            // A plain thread: a QThread would run an event loop after `started` and never end.
            opener = std::thread([gate] { gate->open = true; });
        }
        opener.join();
    }
};

QTEST_MAIN(TestLatestRequest)
#include "test_latestrequest.moc"
