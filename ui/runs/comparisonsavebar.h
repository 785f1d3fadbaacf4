#pragma once
// The row under the Runs page's comparison: Save plots as PNG… / PDF… (the figure) and Write
// report… (comparisonreport.h: the compared runs, the side-by-side table with its config rows
// and the figure, as Markdown with a PDF twin). The buttons are enabled while runs are compared;
// what was written, or why not, goes out as message() for the page to show.
#include <QString>
#include <QWidget>

#include <functional>

class QPushButton;

namespace lbd::ui {

class RunComparisonView;

class ComparisonSaveBar final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ComparisonSaveBar)

public:
    // `folder`: where the save dialogs start (the runs folder).
    ComparisonSaveBar(RunComparisonView* view, std::function<QString()> folder, QWidget* parent = nullptr);

    // Enables the buttons when the view compares runs.
    void updateButtons();

    bool savePng(const QString& path);
    bool savePdf(const QString& path);
    // `markdownPath`'s PDF twin and figure go next to it (run-comparison.pdf, run-comparison-figure.png).
    bool writeReport(const QString& markdownPath);

signals:
    void message(const QString& text, bool error);

private:
    enum class Output { Png, Pdf, Report };
    void ask(Output output);

    RunComparisonView* m_view = nullptr;
    std::function<QString()> m_folder;
    QPushButton* m_pngButton = nullptr;
    QPushButton* m_pdfButton = nullptr;
    QPushButton* m_reportButton = nullptr;
};

} // namespace lbd::ui
