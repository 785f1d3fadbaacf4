#include "ui/runs/configdiff.h"

namespace lbd::ui {

FlatConfig readFlatConfig(const QString& runDirectory)
{
    return lbd::readRunConfigValues(runDirectory.toStdString());
}

FlatConfig readFlatEnvironment(const QString& runDirectory)
{
    return lbd::readRunEnvironment(runDirectory.toStdString());
}

} // namespace lbd::ui
