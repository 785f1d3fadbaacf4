#pragma once
// QtConcurrent::run without the QtConcurrent module: `function` runs on the global thread pool
// and hands its value to the returned QFuture, which a QFutureWatcher on the GUI thread receives.
// Pass value types (or shared_ptr to const) in and out: the function runs on another thread.
#include <QFuture>
#include <QPromise>
#include <QThreadPool>

#include <memory>

namespace lbd::ui {

template <typename T, typename Function>
QFuture<T> runOnPool(Function function)
{
    auto promise = std::make_shared<QPromise<T>>();
    QFuture<T> future = promise->future();
    promise->start();
    QThreadPool::globalInstance()->start([promise, function = std::move(function)]() mutable {
        promise->addResult(function());
        promise->finish();
    });
    return future;
}

} // namespace lbd::ui
