#include "core/data/dataspecjson.h"

#include "core/util/jsonread.h"

namespace lbd {

nlohmann::json toJson(const DataSpec& spec)
{
    nlohmann::json json = {{"dataset", datasetKindName(spec.kind)},
                           {"data_dir", spec.directory},
                           {"profile", profileName(spec.longTail.profile)},
                           {"imbalance_ratio", spec.longTail.imbalanceRatio},
                           {"seed", spec.longTail.seed},
                           {"val_fraction", spec.longTail.validationFraction},
                           {"channels", spec.channels},
                           {"image_size", spec.imageSize},
                           {"held_out_fraction", spec.heldOutFraction},
                           {"max_in_memory_mb", spec.maxInMemoryBytes >> 20}};
    if (spec.kind == DatasetKind::List) {
        json["train_list"] = spec.trainList;
        json["test_list"] = spec.testList;
        json["class_names"] = spec.classNamesFile;
        json["val_list"] = spec.validationList;
    }
    if (spec.kind == DatasetKind::Synthetic) {
        json["synthetic"] = {{"classes", spec.synthetic.classes},
                             {"train_per_class", spec.synthetic.trainPerClass},
                             {"test_per_class", spec.synthetic.testPerClass},
                             {"channels", spec.synthetic.channels},
                             {"size", spec.synthetic.size},
                             {"seed", spec.synthetic.seed}};
    }
    return json;
}

DataSpec dataSpecFromJson(const nlohmann::json& json, const std::string& context)
{
    DataSpec spec;
    JsonReader reader(json, context);
    std::string text = datasetKindName(spec.kind);
    reader.read("dataset", text);
    try {
        spec.kind = parseDatasetKind(text);
    } catch (const InputError& error) {
        throw InputError(reader.key("dataset") + ": " + error.what());
    }
    reader.read("data_dir", spec.directory);
    reader.read("train_list", spec.trainList);
    reader.read("test_list", spec.testList);
    reader.read("class_names", spec.classNamesFile);
    reader.read("val_list", spec.validationList);
    reader.read("val_fraction", spec.longTail.validationFraction);
    text = profileName(spec.longTail.profile);
    reader.read("profile", text);
    try {
        spec.longTail.profile = parseProfile(text);
    } catch (const InputError& error) {
        throw InputError(reader.key("profile") + ": " + error.what());
    }
    reader.read("imbalance_ratio", spec.longTail.imbalanceRatio);
    reader.read("seed", spec.longTail.seed);
    reader.read("channels", spec.channels);
    reader.read("image_size", spec.imageSize);
    reader.read("held_out_fraction", spec.heldOutFraction);
    int64_t megabytes = spec.maxInMemoryBytes >> 20;
    reader.read("max_in_memory_mb", megabytes);
    if (megabytes < 1) {
        throw InputError(reader.key("max_in_memory_mb") + " must be at least 1");
    }
    spec.maxInMemoryBytes = megabytes << 20;
    if (reader.has("synthetic")) {
        JsonReader synthetic(reader.child("synthetic"), reader.key("synthetic"));
        synthetic.read("classes", spec.synthetic.classes);
        synthetic.read("train_per_class", spec.synthetic.trainPerClass);
        synthetic.read("test_per_class", spec.synthetic.testPerClass);
        synthetic.read("channels", spec.synthetic.channels);
        synthetic.read("size", spec.synthetic.size);
        // The images' seed; by default the data seed (so --seed changes the images too).
        spec.synthetic.seed = spec.longTail.seed;
        synthetic.read("seed", spec.synthetic.seed);
        synthetic.rejectUnknown();
    } else {
        spec.synthetic.seed = spec.longTail.seed;
    }
    reader.rejectUnknown();
    try {
        spec.validate();
    } catch (const InputError& error) {
        throw InputError(context + "." + error.what());
    }
    return spec;
}

} // namespace lbd
