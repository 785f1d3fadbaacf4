#pragma once
// What a restart brings back: the preset, the decision matrix, rule and defer utility, the last
// run shown (opened again, so every page shows it) and the current page. Saved when the main
// window closes and restored by lbd-studio at start-up; windows that tests construct start
// fresh unless a test restores explicitly. Values live in AppSettings (QSettings).
namespace lbd::ui {

class MainWindow;

class SessionState {
public:
    static void save(MainWindow& window);
    static void restore(MainWindow& window);

private:
    static void restoreDecisions(MainWindow& window);
    static void restoreLastDataset(MainWindow& window);
};

} // namespace lbd::ui
