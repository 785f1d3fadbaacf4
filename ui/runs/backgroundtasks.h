#pragma once
// Runs plain C++ work (reading many run folders, exporting a model) on short-lived QThreads and
// hands each result back on the owner's thread. The owner keeps a BackgroundTasks member: its
// destructor waits for the threads still running, so no work outlives the page it reports to.
// Results are value types moved across threads; `work` must not touch widgets.
#include <QList>
#include <QObject>
#include <QThread>

#include <functional>
#include <memory>
#include <utility>

namespace lbd::ui {

class BackgroundTasks {
public:
    explicit BackgroundTasks(QObject* owner) : m_owner(owner) {}
    ~BackgroundTasks()
    {
        for (QThread* thread : std::as_const(m_threads)) {
            thread->wait();
            delete thread;
        }
    }
    BackgroundTasks(const BackgroundTasks&) = delete;
    BackgroundTasks& operator=(const BackgroundTasks&) = delete;

    template <typename Result>
    void start(std::function<Result()> work, std::function<void(Result&)> done)
    {
        auto result = std::make_shared<Result>();
        QThread* thread = QThread::create([work = std::move(work), result] { *result = work(); });
        m_threads << thread;
        QObject::connect(thread, &QThread::finished, m_owner, [this, thread, result, done = std::move(done)] {
            m_threads.removeOne(thread);
            thread->deleteLater();
            done(*result);
        });
        thread->start(QThread::LowPriority);
    }

    int running() const { return static_cast<int>(m_threads.size()); }

private:
    QObject* m_owner;
    QList<QThread*> m_threads;
};

} // namespace lbd::ui
