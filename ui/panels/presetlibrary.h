#pragma once
// The presets the experiment panel offers, through core's preset lookup (resources/presets/*.json
// in $LBD_PRESETS_DIR, the install's share folder or the source tree), so that the GUI and
// `lbd train --preset` read the same files with the same parser.
#include <QList>
#include <QString>

#include "core/train/trainconfig.h"

namespace lbd::ui {

struct Preset {
    QString id;          // file name without .json
    QString description; // the preset's "description"
    QString path;
};

class PresetLibrary {
public:
    static QList<Preset> presets();
    // By preset name or JSON file path; throws lbd::InputError naming the problem.
    static lbd::TrainConfig load(const QString& nameOrPath);
    // The preset a first launch opens: quick-cpu on a machine without a CUDA device (the paper's
    // 200-epoch ResNet-32 recipe takes days on a CPU), fashion-mnist-lt with one.
    static QString defaultPresetId();
    // The window's starting point: the default preset, or the engine's defaults on
    // Fashion-MNIST-LT when no preset files are installed.
    static lbd::TrainConfig defaultConfig();
};

} // namespace lbd::ui
