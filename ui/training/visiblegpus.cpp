#include "ui/training/visiblegpus.h"

#include "core/util/buildinfo.h"

namespace lbd::ui {
namespace {

std::optional<QStringList>& overridden()
{
    static std::optional<QStringList> devices;
    return devices;
}

} // namespace

QStringList visibleGpus()
{
    if (overridden()) {
        return *overridden();
    }
    QStringList devices;
    for (const std::string& description : lbd::buildInfo().cudaDevices) {
        devices << QString::fromStdString(description);
    }
    return devices;
}

void setVisibleGpusForTesting(std::optional<QStringList> devices)
{
    overridden() = std::move(devices);
}

} // namespace lbd::ui
