#include "ui/widgets/memorylabel.h"

#include <QFile>
#include <QList>
#include <QTimer>

#include <unistd.h>

namespace lbd::ui {

MemoryLabel::MemoryLabel(QWidget* parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("memoryLabel"));
    setToolTip(tr("Resident memory of this process."));
    m_timer = new QTimer(this);
    m_timer->setInterval(2000);
    connect(m_timer, &QTimer::timeout, this, &MemoryLabel::refresh);
    m_timer->start();
    refresh();
}

void MemoryLabel::refresh()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly)) {
        setText(QString());
        return;
    }
    const QList<QByteArray> fields = statm.readAll().split(' ');
    if (fields.size() < 2) {
        return;
    }
    const double bytes = fields[1].toDouble() * double(sysconf(_SC_PAGESIZE));
    setText(tr("Memory: %1 MB").arg(bytes / (1024.0 * 1024.0), 0, 'f', 0));
}

} // namespace lbd::ui
