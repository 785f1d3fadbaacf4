#include "app/cli/dataoptions.h"

#include "core/util/error.h"

namespace lbd::cli {

void applyDataFlags(Args& args, nlohmann::json& data)
{
    const auto text = [&](const char* flag, const char* key) {
        if (const auto value = args.value(flag)) {
            data[key] = *value;
        }
    };
    text("dataset", "dataset");
    text("data-dir", "data_dir");
    text("train-list", "train_list");
    text("test-list", "test_list");
    text("class-names", "class_names");
    text("profile", "profile");
    if (args.value("imbalance-ratio")) {
        data["imbalance_ratio"] = args.number("imbalance-ratio", 0.0);
    }
    if (args.value("seed")) {
        const auto seed = args.integer("seed", 0);
        if (seed < 0) {
            throw InputError("--seed must not be negative");
        }
        data["seed"] = seed;
    }
    if (args.value("channels")) {
        data["channels"] = args.integer("channels", 3);
    }
    if (args.value("image-size")) {
        data["image_size"] = args.integer("image-size", 32);
    }
    if (args.value("held-out")) {
        data["held_out_fraction"] = args.number("held-out", 0.2);
    }
    if (args.value("val-fraction")) {
        data["val_fraction"] = args.number("val-fraction", 0.0);
    }
    text("val-list", "val_list");
}

} // namespace lbd::cli
