#pragma once
// Help > About: what this build is and links (Qt, LibTorch, OpenCV, CUDA devices), and its licence.
#include <QDialog>

namespace lbd::ui {

class AboutDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AboutDialog)

public:
    explicit AboutDialog(QWidget* parent = nullptr);
    static QString versionText(); // also printed by `lbd-studio --version`
};

} // namespace lbd::ui
