#pragma once
// The Classify page's "Calibrated (T = 1.23)" toggle (issue 29): decide with the run's
// temperature-scaled probabilities, softmax(log pbar / T), T from RUN/temperature.json (fitted
// on the validation split by `lbd eval RUN --calibrate` or the Decision lab, never on the test
// set or on the images classified here). Disabled, with a tooltip saying how to make the file,
// when the run has none; disabled for the rules that decide from each particle (mean-logit, eq7).
#include <QCheckBox>
#include <QString>

#include <optional>

#include "core/eval/decisionrule.h"

namespace lbd::ui {

class ClassifyCalibration final : public QCheckBox {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClassifyCalibration)

public:
    explicit ClassifyCalibration(QWidget* parent = nullptr);

    // Reads RUN/temperature.json (one small file: fine on the GUI thread); an empty directory
    // means no run. Keeps the check mark, which applies again once a T exists.
    void setRun(const QString& runDirectory);
    void setRule(lbd::DecisionRule rule);

    // The T to apply: the run's, while the box is checked and usable; nothing otherwise.
    std::optional<double> temperature() const;
    // The run's T, checked or not.
    std::optional<double> runTemperature() const { return m_temperature; }

private:
    void refresh();

    QString m_directory;
    std::optional<double> m_temperature;
    QString m_fileError; // a damaged temperature.json, in words
    lbd::DecisionRule m_rule = lbd::kDefaultDecisionRule;
};

} // namespace lbd::ui
