#pragma once
// The status bar's "Memory: N MB": this process's resident memory, read from /proc every 2 s.
#include <QLabel>

class QTimer;

namespace lbd::ui {

class MemoryLabel final : public QLabel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MemoryLabel)

public:
    explicit MemoryLabel(QWidget* parent = nullptr);

private:
    void refresh();

    QTimer* m_timer = nullptr;
};

} // namespace lbd::ui
