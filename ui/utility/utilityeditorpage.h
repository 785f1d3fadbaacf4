#pragma once
// The Utility page: edits the shared UtilityDocument (rows = true class, columns = decision).
// Paint cells with the chosen value, select a block (tail rows x head columns in one click) and
// set it, apply the one-hot or tail-sensitive(c) presets, import / export CSV and JSON through
// core's io functions, undo / redo every edit (the document's stack, shared with the Decision
// lab's presets), choose the shared decision rule and defer utility, and hand the matrix to the
// next training ("Use for training" saves it under the runs folder and the main window copies it
// by value into the experiment panel's training utility). A label says where the matrix was saved
// to or read from and whether it changed since. The decision lab and Classify read the document.
#include <QWidget>

#include <cstdint>
#include <vector>

#include "core/data/regions.h"
#include "core/lbd/utilitymatrix.h"

class QAction;
class QButtonGroup;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QToolButton;
class QUndoStack;

namespace lbd::ui {

class DecisionControls;
class UtilityDocument;
class UtilityHeatmap;
class UtilityLegend;

class UtilityEditorPage final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UtilityEditorPage)

public:
    // The slider's span; the spin box takes any value in +-kValueLimit.
    static constexpr double kSliderLimit = 5.0;
    static constexpr double kValueLimit = 1000.0;

    explicit UtilityEditorPage(UtilityDocument* document, QWidget* parent = nullptr);

    // Training images per class (head to tail), for the region bands; may be empty.
    void setClassCounts(const std::vector<int64_t>& counts);

    UtilityHeatmap* heatmap() const { return m_heatmap; }
    UtilityLegend* legend() const { return m_legend; }
    QUndoStack* undoStack() const { return m_undo; } // the document's
    DecisionControls* decisionControls() const { return m_decisionControls; }
    // "Saved to tail2.csv", "Modified since saved to tail2.csv", ...
    QString savedStateText() const;
    // The user's matrix of other classes kept aside (UtilityDocument::setAsideText), empty when none.
    QString setAsideText() const;
    QAction* undoAction() const { return m_undoAction; }
    QAction* redoAction() const { return m_redoAction; }

    double paintValue() const;
    void setPaintValue(double value);

    // Each of these is one undoable edit; false (with the reason shown inline) when refused.
    bool setSelectionToValue();
    bool applyOneHot();
    bool applyTailSensitive(double penalty);
    bool importFile(const QString& path);
    // Not an edit: writes the document to a .csv or .json file (atomic), class names included.
    bool exportFile(const QString& path);
    // Saves the matrix to <runs folder>/utility/<name>.csv and emits trainingMatrixSaved.
    // Returns the file, or an empty string (reason inline) when it could not be written.
    QString useForTraining();

    // Selects the block rows in `rows` x columns in `columns` (e.g. tail x head); false when a
    // region has no classes.
    bool selectRegionBlock(lbd::Region rows, lbd::Region columns);
    lbd::RegionScheme regionScheme() const;
    const std::vector<lbd::Region>& regions() const { return m_regions; }

    QString message() const;
    bool messageIsError() const { return m_messageIsError; }

signals:
    // The matrix was saved for training: the experiment panel should use this file.
    void trainingMatrixSaved(const QString& path);

private:
    void buildControls();
    void updateClasses();
    void updateMatrix();
    void updateSelectionLabel();
    void updateSourceLabel();
    bool commit(const lbd::UtilityMatrix& after, const QString& text);
    void paintCells(const QVector<QPoint>& cells);
    void chooseImport();
    void chooseExport();
    void showMessage(const QString& text, bool error);

    UtilityDocument* m_document;
    QUndoStack* m_undo = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    UtilityHeatmap* m_heatmap = nullptr;
    UtilityLegend* m_legend = nullptr;
    QButtonGroup* m_modeGroup = nullptr;
    QSlider* m_slider = nullptr;
    QDoubleSpinBox* m_value = nullptr;
    QPushButton* m_setSelection = nullptr;
    QLabel* m_selectionLabel = nullptr;
    QDoubleSpinBox* m_penalty = nullptr;
    QComboBox* m_scheme = nullptr;
    QLineEdit* m_name = nullptr;
    QLabel* m_description = nullptr;
    QLabel* m_sourceLabel = nullptr;
    DecisionControls* m_decisionControls = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_setAside = nullptr; // the document's setAsideText()
    bool m_messageIsError = false;

    std::vector<int64_t> m_counts;
    std::vector<lbd::Region> m_regions;
};

} // namespace lbd::ui
