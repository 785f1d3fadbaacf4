#pragma once
// The one way the UI runs work off the GUI thread (the training thread aside): a page or widget
// keeps a LatestRequest member per kind of request (load the run, scan the folder, tune, ...) and
// calls start() with a work function and what to do with its result. The work runs through
// QtConcurrent::run on a thread pool (the global one unless the owner gives its own, e.g. a
// one-thread pool to keep a stateful object on one thread). Its result comes back on the
// owner's thread, and only for the newest request: a request started meanwhile, or cancel(),
// drops it, so no page counts generations by hand. An exception thrown by the work (an
// lbd::InputError naming a file, a RunError, std::bad_alloc) reaches `failed` with its message,
// to be shown to the user; it is never swallowed.
// Work functions take and return value types (or shared_ptr to what only they use): they must
// not touch widgets. The destructor drops queued requests and waits for the running ones, so a
// job never reports to, or outlives, the owner it was started for.
#include <QException>
#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

namespace lbd::ui {

// The message of an exception a background job threw (QtConcurrent wraps what is not a QException).
inline QString backgroundErrorText(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const QUnhandledException& wrapped) {
        return wrapped.exception() ? backgroundErrorText(wrapped.exception()) : QObject::tr("an unknown error");
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    } catch (...) {
        return QObject::tr("an unknown error");
    }
}

template <typename Result>
class LatestRequest final {
public:
    using Done = std::function<void(Result)>;
    using Failed = std::function<void(const QString& message)>;

    explicit LatestRequest(QThreadPool* pool = QThreadPool::globalInstance()) : m_pool(pool) {}
    ~LatestRequest()
    {
        cancel();
        for (QFutureWatcher<Result>* watcher : std::as_const(m_watchers)) {
            watcher->disconnect();
            QFuture<Result> future = watcher->future();
            try {
                future.waitForFinished(); // a queued, cancelled job is taken off the pool without running
            } catch (...) {
                // waitForFinished rethrows what the job threw: an answer nobody asks for any more.
            }
            delete watcher;
        }
    }
    LatestRequest(const LatestRequest&) = delete;
    LatestRequest& operator=(const LatestRequest&) = delete;

    // Runs `work` (Result work(), called on a pool thread) and later calls `done` with its result
    // or `failed` with the message of what it threw, on this thread, unless a newer start() or a
    // cancel() came first. Older requests still queued are cancelled (they never run).
    template <typename Work>
    void start(Work work, Done done, Failed failed)
    {
        static_assert(std::is_same_v<std::invoke_result_t<Work&>, Result>, "the work must return the request's Result");
        cancelQueued();
        const std::uint64_t serial = ++m_serial;
        auto* watcher = new QFutureWatcher<Result>;
        m_watchers << watcher;
        QObject::connect(watcher, &QFutureWatcher<Result>::finished, watcher,
                         [this, watcher, serial, done = std::move(done), failed = std::move(failed)] {
                             m_watchers.removeOne(watcher);
                             watcher->deleteLater();
                             // Not isCanceled(): QFuture marks a job that threw as cancelled too. A
                             // request cancelled by start() or cancel() is no longer the newest.
                             if (serial != m_serial) {
                                 return; // superseded: a newer request owns the answer
                             }
                             m_running = false;
                             std::optional<Result> result;
                             QString error;
                             try {
                                 result.emplace(watcher->result());
                             } catch (...) {
                                 error = backgroundErrorText(std::current_exception());
                             }
                             // Last: either callback may start the next request.
                             if (result) {
                                 done(std::move(*result));
                             } else {
                                 failed(error);
                             }
                         });
        m_running = true;
        watcher->setFuture(QtConcurrent::run(m_pool, std::move(work)));
    }

    // The pending result, if any, is dropped; a queued job does not run.
    void cancel()
    {
        ++m_serial;
        m_running = false;
        cancelQueued();
    }

    // From start() until its result (or failure) is delivered or dropped by cancel().
    bool isRunning() const { return m_running; }

private:
    void cancelQueued()
    {
        // QtConcurrent::run's jobs check the flag before they start; a running one finishes.
        for (QFutureWatcher<Result>* watcher : std::as_const(m_watchers)) {
            watcher->future().cancel();
        }
    }

    QThreadPool* m_pool;
    QList<QFutureWatcher<Result>*> m_watchers; // requests whose job has not finished yet
    std::uint64_t m_serial = 0;
    bool m_running = false;
};

} // namespace lbd::ui
