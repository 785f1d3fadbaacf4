#pragma once
// The status bar's word on a degenerate run: once a run is shown (finished here, opened from the
// Runs page, followed to its end), a permanent, elided label "⚠ Degenerate run: 85.3 % of the
// decisions go to 2 classes (cat, dog)" (all warnings in its tooltip), a status message saying
// the same, and the progress panel's state set to "⚠ Degenerate" instead of "Finished". Hidden
// for a healthy run and while a run trains. Kept apart from the run-folder / protocol label.
#include <QLabel>

namespace lbd::ui {

class MainWindow;

class DegeneracyNotice final : public QLabel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DegeneracyNotice)

public:
    // Adds a notice to `window`'s status bar and follows the runs the window shows.
    static DegeneracyNotice* attach(MainWindow* window);

    // The headline of the run shown, empty when it is not degenerate.
    QString headline() const { return m_headline; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    explicit DegeneracyNotice(MainWindow* window);
    void showRun(const QString& directory);
    void clearNotice();
    void elide();

    MainWindow* m_window = nullptr;
    QString m_headline;
    QString m_full; // the label's whole text, elided to its width
};

} // namespace lbd::ui
