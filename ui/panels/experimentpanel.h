#pragma once
// The experiment panel: a preset menu over three sections (data, model + objective, run) that
// together edit one lbd::TrainConfig, the shared decision settings (the UtilityDocument's matrix,
// rule and defer, recorded by value as the run's `decision`), and an inline message that refuses
// invalid combinations before anything starts (core's validation plus the GUI's cross-field checks).
#include <QWidget>

#include "core/train/trainconfig.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QScrollArea;

namespace lbd::ui {

class DatasetSection;
class DecisionControls;
class ObjectiveSection;
class RunSection;
class UtilityDocument;

class ExperimentPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExperimentPanel)

public:
    // `decisions` is the shared decision document; the panel's decision controls edit it.
    explicit ExperimentPanel(UtilityDocument* decisions, QWidget* parent = nullptr);

    lbd::TrainConfig config() const;
    // Settings that are not a preset's as it ships (an opened run, a test's config): the Preset
    // box then says `origin` ("run tiny-20250101-120000"; "custom settings" when empty) instead of
    // a preset name that no longer describes them.
    void setConfig(const lbd::TrainConfig& config, const QString& origin = {});
    // Loads a preset by name ("quick-cpu") or JSON path; false if unknown or invalid.
    bool selectPreset(const QString& nameOrPath);
    // The preset the settings are exactly (as loaded, not edited since); empty otherwise.
    QString currentPreset() const;
    // The last preset chosen, even if edited since (what a restart brings back).
    QString chosenPreset() const { return m_chosenPreset; }
    // N when the device choice is "All N GPUs (data-parallel)": Start launches N processes.
    int dataParallelRanks() const;
    // The estimated duration shown before Start (durationestimate.h).
    QString durationText() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // What Start trains, in one line: "quick-cpu · Fashion-MNIST-LT · ~20 s" (run name, data set,
    // "-LT" where the training counts span a factor 2 or more, estimated duration).
    QString summaryLine() const;
    // A label for the tool bar beside Start that shows summaryLine() as it changes.
    QLabel* createSummaryLabel(QWidget* parent);

    // Empty when the settings can start a run; otherwise the reason, also shown inline.
    QString validate();
    QString validationMessage() const;
    // What Start trains, as the status bar will say it (runDecisionText of config() and the
    // protocol the settings were loaded with): "protocol paper-standard, decided by mean-logit".
    QString protocolText() const;
    const std::vector<int64_t>& trainCounts() const;
    QStringList classNames() const;
    // False while the data set section cannot read the chosen data set (Start is disabled then).
    bool dataReadable() const;
    // Copies the Utility page's matrix (by value) as the next run's TRAINING utility (the editor's
    // "Use for training", the objective section's Copy again).
    void copyTrainingMatrix();
    DecisionControls* decisionControls() const { return m_decisionControls; }

    DatasetSection* datasetSection() const { return m_dataset; }
    ObjectiveSection* objectiveSection() const { return m_objective; }
    RunSection* runSection() const { return m_run; }

signals:
    void configChanged();
    void validityChanged(bool valid);
    void summaryChanged(const QString& summary);
    void presetChosen(const QString& id);

private:
    void loadPreset(int index);
    void applyConfig(const lbd::TrainConfig& config);
    void showPresetAs(const QString& text);
    void updateEstimate();
    void fitEpochsToData();
    void showMessage(const QString& text, bool error);
    QString crossFieldError(const lbd::TrainConfig& config) const;
    QString crossFieldWarning(const lbd::TrainConfig& config) const;
    void updateDecisionLabel();

    UtilityDocument* m_decisions;
    lbd::TrainConfig m_base;
    int m_stretchedFrom = 0; // the preset's epochs when fitEpochsToData stretched them, else 0
    QComboBox* m_presets = nullptr;
    QLineEdit* m_name = nullptr;
    DatasetSection* m_dataset = nullptr;
    ObjectiveSection* m_objective = nullptr;
    RunSection* m_run = nullptr;
    QLabel* m_decisionMatrix = nullptr;
    QLabel* m_protocol = nullptr; // protocolText(), kept current by validate()
    DecisionControls* m_decisionControls = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_estimate = nullptr;
    QWidget* m_content = nullptr; // the settings in the scroll area
    QScrollArea* m_scroll = nullptr;
    QString m_chosenPreset;
    bool m_valid = true;
    bool m_loading = false;
};

} // namespace lbd::ui
