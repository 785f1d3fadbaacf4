#include "ui/training/devicetext.h"

#include <QObject>

namespace lbd::ui {

QString deviceText(const std::string& device, int ranks)
{
    if (ranks > 1) {
        return device == "cpu" ? QObject::tr("%1 CPU processes (data-parallel)").arg(ranks)
                               : QObject::tr("%1 GPUs (data-parallel)").arg(ranks);
    }
    if (device == "cpu") {
        return QObject::tr("CPU");
    }
    return QString::fromStdString(device);
}

} // namespace lbd::ui
