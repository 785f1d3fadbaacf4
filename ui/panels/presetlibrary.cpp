#include "ui/panels/presetlibrary.h"

#include "core/train/configjson.h"
#include "core/train/presets.h"
#include "core/util/buildinfo.h"
#include "datasets/catalogue.h"

#include <QFileInfo>

#include <nlohmann/json.hpp>

namespace lbd::ui {

QList<Preset> PresetLibrary::presets()
{
    QList<Preset> list;
    try {
        for (const lbd::PresetInfo& info : lbd::listPresets()) {
            list << Preset{QString::fromStdString(info.name), QString::fromStdString(info.description),
                           QString::fromStdString(info.path)};
        }
    } catch (const std::exception&) {
        // An unreadable preset folder leaves the menu empty; the defaults still work.
    }
    return list;
}

lbd::TrainConfig PresetLibrary::load(const QString& nameOrPath)
{
    if (QFileInfo(nameOrPath).isFile()) {
        return lbd::loadTrainConfig(nameOrPath.toStdString());
    }
    const std::string name = nameOrPath.toStdString();
    nlohmann::json json = lbd::loadPresetJson(name);
    // A preset for data that has no default folder (imagenet-lt: list files) ships without one.
    // The parser checks configs that are about to train, and would refuse it; the panel is where
    // the user chooses the folder, and its own check asks for it before Start.
    const bool needsFolder = json.contains("data") && json["data"].is_object()
        && json["data"].value("data_dir", std::string()).empty() && json["data"].contains("dataset")
        && json["data"]["dataset"].is_string() && lbd::datasetEntry(json["data"]["dataset"].get<std::string>()).requiresDirectory();
    if (needsFolder) {
        json["data"]["data_dir"] = ".";
    }
    lbd::TrainConfig config = lbd::trainConfigFromJson(json, "preset " + name);
    if (needsFolder) {
        config.data.directory.clear();
    }
    return config;
}

QString PresetLibrary::defaultPresetId()
{
    return lbd::buildInfo().cudaDevices.empty() ? QStringLiteral("quick-cpu") : QStringLiteral("fashion-mnist-lt");
}

lbd::TrainConfig PresetLibrary::defaultConfig()
{
    try {
        return load(defaultPresetId());
    } catch (const std::exception&) {
        lbd::TrainConfig config; // the engine's defaults are the paper's recipe
        config.name = "fashion-mnist-lt";
        config.data.dataset = "fashion-mnist";
        config.model.particles = 3;
        return config;
    }
}

} // namespace lbd::ui
