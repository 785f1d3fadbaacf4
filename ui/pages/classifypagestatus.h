#pragma once
// The Classify page's header, in words: which run classifies and in what state its folder says it
// is ("stopped at epoch 2/20: not a finished model"), why it was chosen (`lbd-studio IMAGE...`
// picks the last finished run), how images are decided, and whether unfamiliar images are flagged
// (the run's out-of-distribution fit, or why there is none).
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <optional>

namespace lbd::ui {

class ClassifyPageStatus {
    Q_DECLARE_TR_FUNCTIONS(ClassifyPageStatus)

public:
    // What the page knows about how it decides, for the loaded run.
    struct Decisions {
        int particles = 0;
        int classes = 0;
        QString matrix;         // "the Utility page's matrix (...)" or "the run's own matrix"
        QString ruleTitle;
        std::optional<double> defer;
        QString matrixRemark;   // a sentence about the Utility page's matrix, or empty
        int running = 0;        // images being classified
        QStringList notes;      // the run's notes
        std::optional<double> temperature; // calibrated probabilities with this T (the run's temperature.json)
    };

    // Reads the run folder's state (a few small JSON files: fine on the GUI thread). Keeps the
    // reason only while the run stays the same.
    void setRun(const QString& runDirectory);
    void setReason(const QString& reason) { m_reason = reason; }
    void setOod(bool hasFit, const QString& summary);

    QString state() const { return m_state; }
    QString loadingHtml() const;
    QString failedHtml(const QString& error) const;
    QString loadedHtml(const Decisions& decisions) const;

private:
    QString runHtml() const;
    QString reasonHtml() const;

    QString m_directory;
    QString m_state;
    bool m_finished = false;
    QString m_reason;
    bool m_hasOodFit = false;
    QString m_oodSummary;
};

} // namespace lbd::ui
