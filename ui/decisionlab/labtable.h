#pragma once
// The Decision lab's table: the one-hot argmax baseline and the chosen decisions side by side on
// the same test images (accuracy, regions, each FHR point, both FHR means under their own names,
// AURC, mean utility) with the difference. Empty groups read "–".
#include <QTableWidget>

#include "core/eval/evaluationreport.h"

namespace lbd::ui {

class DecisionLabTable final : public QTableWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DecisionLabTable)

public:
    explicit DecisionLabTable(QWidget* parent = nullptr);

    // `chosenTitle` names the chosen rule and matrix in the column header.
    void showReports(const lbd::EvaluationReport& baseline, const lbd::EvaluationReport& lab, const QString& chosenTitle);
    // The chosen column's text of the row named `row` ("accuracy", "FHR curve mean", ...), or empty.
    QString chosenCell(const QString& row) const;
};

} // namespace lbd::ui
