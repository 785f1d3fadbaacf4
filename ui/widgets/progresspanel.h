#pragma once
// The training progress shown in the tool bar: one bar over the whole run with epoch, batch,
// images per second and the ETA in its text.
#include <QWidget>

#include "core/train/epochmetrics.h"

class QLabel;
class QProgressBar;

namespace lbd::ui {

class ProgressPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProgressPanel)

public:
    explicit ProgressPanel(QWidget* parent = nullptr);

    void reset(const QString& state);
    void setState(const QString& state);
    void setBatch(const lbd::BatchProgress& progress);
    void setEpoch(const lbd::EpochMetrics& metrics);
    QString text() const;

private:
    QProgressBar* m_bar = nullptr;
    QLabel* m_state = nullptr;
};

} // namespace lbd::ui
