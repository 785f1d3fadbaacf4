#pragma once
// The training progress shown in the tool bar: one bar over the whole run with epoch, batch,
// images per second and the ETA in its text. The ETA is shown only while a run trains: a run
// that ended (stopped, finished, failed, opened from disk) has no time left to estimate.
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
    // A state of a run that is (or is about to be) training: "Training", "Paused", "Following".
    void setState(const QString& state);
    // The run no longer trains ("Stopped", "Finished", "Failed", "Opened"): the position stays,
    // the ETA goes.
    void end(const QString& state);
    // The run shown ended degenerate: the state reads "⚠ Degenerate" (not "Finished"), its
    // tooltip says why; the next setState / end / reset replaces it.
    void markDegenerate(const QString& headline);
    void setBatch(const lbd::BatchProgress& progress);
    void setEpoch(const lbd::EpochMetrics& metrics);
    QString text() const;

private:
    void showPosition(const QString& position, double etaSeconds);

    QProgressBar* m_bar = nullptr;
    QLabel* m_state = nullptr;
    QString m_position;      // the bar's text without the ETA
    double m_batchEta = -1;  // the last batch's ETA for the whole run; < 0: no batch of this run yet
};

} // namespace lbd::ui
