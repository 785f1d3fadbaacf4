#pragma once
// The detail of one classified image: the image, the decision under the utility matrix next to
// the plain argmax, gauges for the total / aleatoric / epistemic uncertainty and the vote
// disagreement, a plain-language warning when the ensemble is unsure or disagrees, a top-k chart
// of pbar, each particle's distribution over the same classes, and a table of the particles'
// top-1 classes, what was done to the image (its size and colour against the run's input), and
// whether the image is unlike the run's own (the out-of-distribution caution). It only displays a lbd::Prediction (a value type); the Classify page owns the
// list of images and the predictor.
#include <QImage>
#include <QString>
#include <QStringList>
#include <QWidget>

#include "core/infer/prediction.h"

class QLabel;
class QProgressBar;
class QTableWidget;

namespace lbd::ui {

class ThrottledPlot;

class PredictionView final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PredictionView)

public:
    // Warning thresholds (shown to the user in the warning and the gauges' tooltips).
    // Total entropy above this fraction of its maximum ln C counts as "uncertain".
    static constexpr double kUncertainEntropyFraction = 0.5;
    // Mutual information above this many nats counts as "the particles disagree".
    static constexpr double kDisagreementNats = 0.1;

    // What the view needs besides the prediction to describe it.
    struct Labels {
        QString displayName;       // file name or label of a pasted image
        QString source;            // the file path (tooltip)
        QStringList classNames;    // the run's, by class index
        QString matrixDescription; // "the Utility page's matrix (tail-sensitive (c = 2))"
        int topK = 5;              // classes charted (the decision is added when outside them)
    };

    explicit PredictionView(QWidget* parent = nullptr);

    void showPrediction(const lbd::Prediction& prediction, const Labels& labels, const QImage& thumbnail);
    // While an image waits for the run or is being classified: its name and state, no result.
    void showPending(const QString& titleHtml, const QImage& thumbnail);

    QString decisionText() const;
    QString warningText() const; // empty when no warning is shown
    // The out-of-distribution line: a caution, "like the run's images", or why it was not checked.
    QString cautionText() const;
    QString inputText() const;   // what was done to the image before the model saw it
    int particleTableRows() const;
    int particleSeriesCount() const { return m_particleSeries; }

private:
    void setImage(const QImage& thumbnail);

    QLabel* m_image = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_decision = nullptr;
    QLabel* m_warning = nullptr;
    QLabel* m_caution = nullptr;
    QLabel* m_input = nullptr;
    QProgressBar* m_total = nullptr;
    QProgressBar* m_aleatoric = nullptr;
    QProgressBar* m_epistemic = nullptr;
    QProgressBar* m_votes = nullptr;
    ThrottledPlot* m_topPlot = nullptr;
    ThrottledPlot* m_particlePlot = nullptr;
    QTableWidget* m_particleTable = nullptr;
    int m_particleSeries = 0;
};

} // namespace lbd::ui
