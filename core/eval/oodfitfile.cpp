#include "core/eval/oodfitfile.h"

#include "core/util/error.h"
#include "core/util/jsonfile.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

namespace lbd {

namespace {

std::string spaceName(bool direction) { return direction ? "directions" : "as they are"; }

std::vector<float> floats(const torch::Tensor& tensor)
{
    const auto values = tensor.to(torch::kFloat32).contiguous().flatten();
    return {values.data_ptr<float>(), values.data_ptr<float>() + values.numel()};
}

torch::Tensor tensorFrom(const nlohmann::json& values, const std::vector<int64_t>& shape, const std::string& field,
                         const std::string& path)
{
    int64_t expected = 1;
    for (const int64_t size : shape) {
        expected *= size;
    }
    if (!values.is_array() || static_cast<int64_t>(values.size()) != expected) {
        throw InputError(path + ": " + field + " should hold " + std::to_string(expected) + " numbers");
    }
    std::vector<double> numbers;
    numbers.reserve(values.size());
    for (const auto& value : values) {
        if (!value.is_number() || !std::isfinite(value.get<double>())) {
            throw InputError(path + ": " + field + " holds something that is not a finite number");
        }
        numbers.push_back(value.get<double>());
    }
    return torch::tensor(numbers, torch::kFloat64).reshape(shape);
}

[[noreturn]] void outOfRange(const std::string& path, const std::string& field, const std::string& why)
{
    throw InputError(path + ": " + field + " " + why);
}

void checkFinite(double value, const std::string& path, const std::string& field)
{
    if (!std::isfinite(value)) {
        outOfRange(path, field, "is not a finite number");
    }
}

void checkSpace(const OodSpace& space, const OodModelShape& shape, int64_t classes, const std::string& path,
                const std::string& field)
{
    if (space.stage < 0 || space.stage >= static_cast<int64_t>(shape.stageDims.size())) {
        outOfRange(path, field + ".stage", "is " + std::to_string(space.stage) + ", the model has stages 0.."
                                               + std::to_string(shape.stageDims.size() - 1));
    }
    const int64_t dim = shape.stageDims[static_cast<size_t>(space.stage)];
    if (dim > kMaxOodMahalanobisDim) {
        outOfRange(path, field + ".stage", "has " + std::to_string(dim) + " features, above the limit of "
                                               + std::to_string(kMaxOodMahalanobisDim));
    }
    const std::vector<int64_t> meansShape{shape.particles, classes, dim}, precisionShape{shape.particles, dim, dim};
    if (!space.classMeans.defined() || space.classMeans.sizes().vec() != meansShape) {
        outOfRange(path, field + ".class_means", "does not have the model's shape (particles x classes x features)");
    }
    if (!space.precision.defined() || space.precision.sizes().vec() != precisionShape) {
        outOfRange(path, field + ".precision", "does not have the model's shape (particles x features x features)");
    }
    if (!std::isfinite(space.scale) || space.scale <= 0.0) {
        outOfRange(path, field + ".scale", "must be a positive finite number");
    }
    if (!torch::isfinite(space.classMeans).all().item<bool>()) {
        outOfRange(path, field + ".class_means", "holds a number that is not finite");
    }
    const auto p = space.precision.to(torch::kFloat64);
    if (!torch::isfinite(p).all().item<bool>()) {
        outOfRange(path, field + ".precision", "holds a number that is not finite");
    }
    const double magnitude = p.abs().max().item<double>();
    if ((p - p.transpose(1, 2)).abs().max().item<double>() > 1e-6 * std::max(magnitude, 1e-30)) {
        outOfRange(path, field + ".precision", "is not symmetric");
    }
    if (std::get<1>(torch::linalg_cholesky_ex(p)).ne(0).any().item<bool>()) {
        outOfRange(path, field + ".precision", "is not positive definite");
    }
}

} // namespace

void checkOodFit(const OodFit& fit, const OodModelShape& shape, const std::string& path)
{
    if (fit.model.particles != shape.particles || fit.model.classes != shape.classes || fit.model.stageDims != shape.stageDims) {
        throw InputError(path + ": fitted for " + std::to_string(fit.model.particles) + " particles, "
                         + std::to_string(fit.model.classes) + " classes and " + std::to_string(fit.model.stageDims.size())
                         + " stages; the model has " + std::to_string(shape.particles) + ", " + std::to_string(shape.classes)
                         + " and " + std::to_string(shape.stageDims.size()) + ": is it this run's? (lbd ood RUN --fit)");
    }
    if (fit.images < kMinOodImages || fit.images > kMaxOodFitImages) {
        outOfRange(path, "images", "is " + std::to_string(fit.images) + ", outside " + std::to_string(kMinOodImages) + ".."
                                       + std::to_string(kMaxOodFitImages));
    }
    if (fit.checkpointEpoch < 0) {
        outOfRange(path, "checkpoint_epoch", "is negative");
    }
    if (!(fit.passRate > 0.0 && fit.passRate < 1.0)) {
        outOfRange(path, "pass_rate", "must be a number between 0 and 1");
    }
    checkFinite(fit.energyThreshold, path, "energy.threshold");
    const OodHeldOut& h = fit.heldOut;
    if (static_cast<int64_t>(h.perClass.size()) != shape.classes) {
        outOfRange(path, "held_out.per_class", "should hold one count per class (" + std::to_string(shape.classes) + ")");
    }
    int64_t total = 0;
    for (const int64_t count : h.perClass) {
        if (count < 0) {
            outOfRange(path, "held_out.per_class", "holds a negative count");
        }
        total += count;
    }
    if (total != fit.images) {
        outOfRange(path, "held_out.per_class", "sums to " + std::to_string(total) + ", not the images (" + std::to_string(fit.images) + ")");
    }
    for (size_t i = 0; i < h.trainingRows.size(); ++i) {
        if (h.trainingRows[i] < 0 || (i > 0 && h.trainingRows[i] <= h.trainingRows[i - 1])) {
            outOfRange(path, "held_out.training_rows", "must be ascending row numbers");
        }
    }
    for (const int64_t c : h.meansFromTraining) {
        if (c < 0 || c >= shape.classes) {
            outOfRange(path, "held_out.means_from_training", "names class " + std::to_string(c) + ", not one of the model's");
        }
    }
    if (fit.method == OodMethod::Mahalanobis && !fit.hasMahalanobis()) {
        outOfRange(path, "mahalanobis", "is missing, but the method is mahalanobis");
    }
    if (!fit.hasMahalanobis()) {
        return;
    }
    if (!std::isfinite(fit.mahalanobisThreshold) || fit.mahalanobisThreshold < 0.0) {
        outOfRange(path, "mahalanobis.threshold", "must be a finite number of at least 0");
    }
    for (size_t i = 0; i < fit.spaces.size(); ++i) { // before the shapes, which need the stage
        const int64_t stage = fit.spaces[i].stage;
        if (stage < 0 || stage >= static_cast<int64_t>(shape.stageDims.size())) {
            outOfRange(path, "mahalanobis.spaces[" + std::to_string(i) + "].stage",
                       "is " + std::to_string(stage) + ", the model has stages 0.." + std::to_string(shape.stageDims.size() - 1));
        }
    }
    const int64_t classes = fit.spaces.front().classMeans.defined() ? fit.spaces.front().classMeans.size(1) : 0;
    if (classes < 1 || classes > shape.classes) {
        outOfRange(path, "mahalanobis.classes", "is " + std::to_string(classes) + ", outside 1.." + std::to_string(shape.classes));
    }
    std::set<std::pair<int64_t, bool>> seen;
    for (size_t i = 0; i < fit.spaces.size(); ++i) {
        const std::string field = "mahalanobis.spaces[" + std::to_string(i) + "]";
        checkSpace(fit.spaces[i], shape, classes, path, field);
        if (!seen.insert({fit.spaces[i].stage, fit.spaces[i].direction}).second) {
            outOfRange(path, field, "repeats a stage and space");
        }
    }
    for (const double value : fit.selection.criterion) {
        if (!(value >= 0.0 && value <= 1.0)) {
            outOfRange(path, "mahalanobis.selection.criterion", "must hold AUROCs between 0 and 1");
        }
    }
}

void saveOodFit(const OodFit& fit, const std::string& path)
{
    checkOodFit(fit, fit.model, path);
    const OodHeldOut& h = fit.heldOut;
    nlohmann::json json = {{"format", kOodFitFormat},
                           {"method", oodMethodName(fit.method)},
                           {"source", fit.source},
                           {"held_out",
                            {{"note", h.note},
                             {"per_class", h.perClass},
                             {"training_rows_count", h.trainingRows.size()},
                             {"training_rows", h.trainingRows},
                             {"means_from_training", h.meansFromTraining}}},
                           {"images", fit.images},
                           {"checkpoint_epoch", fit.checkpointEpoch},
                           {"pass_rate", fit.passRate},
                           {"created", fit.created},
                           {"particles", fit.model.particles},
                           {"classes", fit.model.classes},
                           {"stage_dims", fit.model.stageDims},
                           {"energy", {{"threshold", fit.energyThreshold}}},
                           {"mahalanobis", nullptr}};
    if (fit.hasMahalanobis()) {
        nlohmann::json spaces = nlohmann::json::array();
        for (const OodSpace& s : fit.spaces) {
            // Single precision is plenty for a distance and halves the file.
            spaces.push_back({{"stage", s.stage},
                              {"space", spaceName(s.direction)},
                              {"scale", s.scale},
                              {"class_means", floats(s.classMeans)},
                              {"precision", floats(s.precision)}});
        }
        json["mahalanobis"] = {{"threshold", fit.mahalanobisThreshold},
                               {"classes", fit.spaces.front().classMeans.size(1)},
                               {"selection",
                                {{"criterion", "mean AUROC of the threshold half's images against synthetic corruptions of the unseen images"},
                                 {"corruptions", fit.selection.corruptions},
                                 {"steps", fit.selection.steps},
                                 {"after_step", fit.selection.criterion}}},
                               {"spaces", spaces}};
    }
    writeFileAtomically(path, json.dump() + "\n");
}

OodFit loadOodFit(const std::string& path, const OodModelShape& shape)
{
    const nlohmann::json json = readJsonFile(path); // the text-input size limit, kMaxOodFileBytes
    OodFit fit;
    std::string field = "format";
    try {
        const auto format = json.at("format").get<std::string>();
        if (format == "lbd-ood-1") {
            throw InputError(path + ": fitted by an earlier version on the run's training images, which cautions more than "
                             "it should: refit it (lbd ood RUN --fit)");
        }
        if (format != kOodFitFormat) {
            throw InputError(path + ": format " + json.at("format").dump() + " is not " + kOodFitFormat);
        }
        field = "method";
        fit.method = parseOodMethod(json.at("method").get<std::string>(), path);
        field = "source";
        fit.source = json.at("source").get<std::string>();
        field = "held_out";
        const auto& h = json.at("held_out");
        fit.heldOut.source = fit.source;
        fit.heldOut.note = h.at("note").get<std::string>();
        fit.heldOut.perClass = h.at("per_class").get<std::vector<int64_t>>();
        fit.heldOut.trainingRows = h.at("training_rows").get<std::vector<int64_t>>();
        fit.heldOut.meansFromTraining = h.at("means_from_training").get<std::vector<int64_t>>();
        for (const char* name : {"images", "checkpoint_epoch", "pass_rate", "particles", "classes", "stage_dims"}) {
            field = name;
            json.at(name); // named before it is read
        }
        fit.images = json.at("images").get<int64_t>();
        fit.checkpointEpoch = json.at("checkpoint_epoch").get<int>();
        fit.passRate = json.at("pass_rate").get<double>();
        fit.created = json.value("created", std::string());
        fit.model.particles = json.at("particles").get<int64_t>();
        fit.model.classes = json.at("classes").get<int64_t>();
        fit.model.stageDims = json.at("stage_dims").get<std::vector<int64_t>>();
        field = "energy.threshold";
        fit.energyThreshold = json.at("energy").at("threshold").get<double>();
        field = "mahalanobis";
        const auto& m = json.at("mahalanobis");
        if (!m.is_null()) {
            field = "mahalanobis.threshold";
            fit.mahalanobisThreshold = m.at("threshold").get<double>();
            field = "mahalanobis.classes";
            const int64_t k = m.at("classes").get<int64_t>();
            if (k < 1 || k > shape.classes) {
                outOfRange(path, field, "is " + std::to_string(k) + ", outside 1.." + std::to_string(shape.classes));
            }
            field = "mahalanobis.selection";
            const auto& selection = m.at("selection");
            fit.selection.corruptions = selection.at("corruptions").get<std::vector<std::string>>();
            fit.selection.steps = selection.at("steps").get<std::vector<std::string>>();
            fit.selection.criterion = selection.at("after_step").get<std::vector<double>>();
            field = "mahalanobis.spaces";
            const auto& spaces = m.at("spaces");
            if (!spaces.is_array() || spaces.empty()) {
                throw InputError(path + ": mahalanobis.spaces should list at least one space");
            }
            for (size_t i = 0; i < spaces.size(); ++i) {
                field = "mahalanobis.spaces[" + std::to_string(i) + "]";
                const auto& entry = spaces[i];
                OodSpace space;
                space.stage = entry.at("stage").get<int64_t>();
                const auto name = entry.at("space").get<std::string>();
                if (name != spaceName(true) && name != spaceName(false)) {
                    throw InputError(path + ": " + field + ".space is '" + name + "', not 'directions' or 'as they are'");
                }
                space.direction = name == spaceName(true);
                space.scale = entry.at("scale").get<double>();
                // Shapes from the model, so that a wrong count is named instead of read.
                const bool stageKnown = space.stage >= 0 && space.stage < static_cast<int64_t>(shape.stageDims.size());
                const int64_t d = stageKnown ? shape.stageDims[static_cast<size_t>(space.stage)] : 0;
                if (stageKnown && d <= kMaxOodMahalanobisDim) {
                    space.classMeans = tensorFrom(entry.at("class_means"), {shape.particles, k, d}, field + ".class_means", path);
                    space.precision = tensorFrom(entry.at("precision"), {shape.particles, d, d}, field + ".precision", path);
                }
                fit.spaces.push_back(std::move(space));
            }
        }
    } catch (const nlohmann::json::exception& error) {
        throw InputError(path + ": " + field + " is missing or of the wrong type (" + error.what() + ")");
    }
    checkOodFit(fit, shape, path);
    return fit;
}

} // namespace lbd
