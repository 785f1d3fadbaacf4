#include "core/study/studyspec.h"
#include "core/util/jsonfile.h"

#include "core/study/decisioncell.h"
#include "core/train/configjson.h"
#include "core/train/presets.h"
#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/jsonread.h"
#include "core/util/resourcefiles.h"

#include <filesystem>
#include <limits>
#include <set>

namespace lbd {
namespace {

using json = nlohmann::json;

const ResourceKind& studyResources()
{
    static const ResourceKind kind{"studies", "LBD_STUDIES_DIR", "study"};
    return kind;
}

std::vector<int64_t> readSeeds(const json& value, const std::string& key)
{
    if (!value.is_array() || value.empty() || value.size() > kMaxStudySeeds) {
        throw InputError(key + " must be a list of 1 to " + std::to_string(kMaxStudySeeds) + " integers");
    }
    std::vector<int64_t> seeds;
    for (const json& seed : value) {
        if (!seed.is_number_integer() || (seed.is_number_unsigned() && seed.get<uint64_t>() > uint64_t(kMaxStudySeed))) {
            throw InputError(key + " must hold integers from 0 to " + std::to_string(kMaxStudySeed));
        }
        seeds.push_back(seed.get<int64_t>());
    }
    checkStudySeeds(seeds, key);
    return seeds;
}

StudyScale readScale(const json& object, const std::string& context)
{
    StudyScale scale;
    if (!object.is_object()) {
        throw InputError(context + " must be a JSON object");
    }
    if (object.contains("preset")) {
        if (!object["preset"].is_string() || object["preset"].get<std::string>().empty()) {
            throw InputError(context + ".preset must be a preset name");
        }
        scale.preset = object["preset"].get<std::string>();
    }
    if (object.contains("config")) {
        if (!scale.preset.empty()) {
            throw InputError(context + ": give \"preset\" or \"config\", not both");
        }
        if (!object["config"].is_object()) {
            throw InputError(context + ".config must be a JSON object (a whole training config)");
        }
        scale.config = object["config"];
    }
    if (scale.preset.empty() && scale.config.is_null()) {
        throw InputError(context + ": name a \"preset\" or give a \"config\"");
    }
    if (object.contains("set")) {
        scale.set = nestedPatch(object["set"], context + ".set");
    }
    if (object.contains("seeds")) {
        scale.seeds = readSeeds(object["seeds"], context + ".seeds");
    }
    return scale;
}

Protocol readProtocol(JsonReader& reader, const std::string& context)
{
    std::string name;
    reader.read("protocol", name);
    try {
        return parseProtocol(name);
    } catch (const InputError& error) {
        throw InputError(context + ".protocol: " + error.what());
    }
}

StudyLevel readLevel(const json& object, const std::string& context)
{
    JsonReader reader(object, context);
    StudyLevel level;
    reader.read("label", level.label);
    if (level.label.empty()) {
        throw InputError(context + ".label must be a non-empty string");
    }
    if (reader.has("baseline")) {
        std::string baseline;
        reader.read("baseline", baseline);
        level.baseline = baseline;
    }
    if (reader.has("set")) {
        level.set = nestedPatch(reader.child("set"), context + ".set");
    }
    if (reader.has("protocol")) {
        level.protocol = readProtocol(reader, context);
    }
    if (reader.has("decide_from")) {
        std::string source;
        reader.read("decide_from", source);
        level.decideFrom = source;
        // It trains nothing, so nothing of a training config applies to it.
        for (const char* key : {"baseline", "set", "protocol"}) {
            if (reader.has(key)) {
                throw InputError(context + "." + key + ": a decision-only level (decide_from) trains nothing; leave out \""
                                 + key + "\"");
            }
        }
        if (!reader.has("decision")) {
            throw InputError(context + ".decision is missing: a decide_from level names its {\"utility\": ...}");
        }
    }
    if (reader.has("decision")) {
        if (!level.decideFrom) {
            throw InputError(context + ".decision needs \"decide_from\": the cell whose runs it re-decides");
        }
        level.decision = studyDecisionFromJson(reader.child("decision"), context + ".decision");
    }
    reader.rejectUnknown();
    return level;
}

std::string valueLabel(const json& value)
{
    return value.is_string() ? value.get<std::string>() : value.dump();
}

StudyFactor readFactor(const json& object, const std::string& context)
{
    JsonReader reader(object, context);
    StudyFactor factor;
    reader.read("name", factor.name);
    reader.read("key", factor.key);
    if (factor.name.empty()) {
        throw InputError(context + ".name must be a non-empty string");
    }
    if (reader.has("values") == reader.has("levels")) {
        throw InputError(context + ": give either \"key\" with \"values\" or \"levels\"");
    }
    if (reader.has("values")) {
        const json& values = reader.child("values");
        if (factor.key.empty() || !values.is_array() || values.empty()) {
            throw InputError(context + ": \"values\" needs a \"key\" and a non-empty list");
        }
        if (values.size() > kMaxStudyCells) {
            throw InputError(context + ".values: " + std::to_string(values.size()) + " values, more than the "
                             + std::to_string(kMaxStudyCells) + " cells a study may have");
        }
        for (const json& value : values) {
            StudyLevel level;
            level.label = factor.name + "=" + valueLabel(value);
            level.set = nestedPatch(json{{factor.key, value}}, context + ".values");
            factor.levels.push_back(level);
        }
    } else {
        const json& levels = reader.child("levels");
        if (!levels.is_array() || levels.empty()) {
            throw InputError(context + ".levels must be a non-empty list");
        }
        if (levels.size() > kMaxStudyCells) {
            throw InputError(context + ".levels: " + std::to_string(levels.size()) + " levels, more than the "
                             + std::to_string(kMaxStudyCells) + " cells a study may have");
        }
        for (size_t i = 0; i < levels.size(); ++i) {
            factor.levels.push_back(readLevel(levels[i], context + ".levels[" + std::to_string(i) + "]"));
        }
    }
    std::set<std::string> labels;
    for (const StudyLevel& level : factor.levels) {
        if (!labels.insert(level.label).second) {
            throw InputError(context + ": two levels are labelled '" + level.label + "'");
        }
    }
    checkDecisionLevels(factor, context);
    reader.rejectUnknown();
    return factor;
}

json scaleJson(const StudyScale& scale)
{
    json out = json::object();
    if (!scale.preset.empty()) {
        out["preset"] = scale.preset;
    } else {
        out["config"] = scale.config;
    }
    if (!scale.set.empty()) {
        out["set"] = scale.set;
    }
    if (!scale.seeds.empty()) {
        out["seeds"] = scale.seeds;
    }
    return out;
}

// "CE", "M=3", "tail:1" -> "ce", "m-3", "tail-1": a folder name that sorts and reads well.
std::string slug(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (c == '.' && !out.empty() && std::isdigit(static_cast<unsigned char>(out.back()))) {
            out += c;
        } else if (!out.empty() && out.back() != '-') {
            out += '-';
        }
    }
    while (!out.empty() && (out.back() == '-' || out.back() == '.')) {
        out.pop_back();
    }
    return out.empty() ? "cell" : out;
}

} // namespace

void checkStudySeeds(const std::vector<int64_t>& seeds, const std::string& key)
{
    if (seeds.empty() || seeds.size() > kMaxStudySeeds) {
        throw InputError(key + " must name 1 to " + std::to_string(kMaxStudySeeds) + " seeds");
    }
    std::set<int64_t> seen;
    for (const int64_t seed : seeds) {
        if (seed < 0 || seed > kMaxStudySeed) {
            throw InputError(key + ": seed " + std::to_string(seed) + " is not in 0.." + std::to_string(kMaxStudySeed));
        }
        if (!seen.insert(seed).second) {
            throw InputError(key + " names seed " + std::to_string(seed) + " twice");
        }
    }
}

std::vector<int64_t> parseStudySeeds(const std::string& text, const std::string& key)
{
    std::vector<int64_t> seeds;
    size_t begin = 0;
    while (true) {
        const size_t comma = text.find(',', begin);
        const std::string item = text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
        // Digits only, at most 10 of them: no sign, no spaces, nothing that std::stoll would clamp or cut.
        if (item.empty() || item.size() > 10 || item.find_first_not_of("0123456789") != std::string::npos) {
            throw InputError(key + " " + text + ": '" + item + "' is not a seed (an integer from 0 to "
                             + std::to_string(kMaxStudySeed) + ")");
        }
        seeds.push_back(std::stoll(item));
        if (comma == std::string::npos) {
            break;
        }
        begin = comma + 1;
    }
    checkStudySeeds(seeds, key);
    return seeds;
}

namespace {

json baseConfig(const StudyScale& scale, const StudyOptions& options)
{
    json config = !options.preset.empty() ? loadPresetJson(options.preset)
                                          : (!scale.preset.empty() ? loadPresetJson(scale.preset) : scale.config);
    mergeJson(config, scale.set);
    return config;
}

} // namespace

json nestedPatch(const json& set, const std::string& context)
{
    if (!set.is_object()) {
        throw InputError(context + " must be a JSON object of config keys");
    }
    json patch = json::object();
    for (const auto& item : set.items()) {
        const std::string& key = item.key();
        if (key.empty() || key.front() == '.' || key.back() == '.' || key.find("..") != std::string::npos) {
            throw InputError(context + ": '" + key + "' is not a config key");
        }
        json nested = item.value();
        if (key.find('.') != std::string::npos) {
            // Right to left: "a.b.c" = v -> {"a": {"b": {"c": v}}}.
            std::string rest = key;
            for (size_t dot = rest.rfind('.'); dot != std::string::npos; dot = rest.rfind('.')) {
                nested = json{{rest.substr(dot + 1), nested}};
                rest = rest.substr(0, dot);
            }
            json wrapped = json::object();
            wrapped[rest] = nested;
            mergeJson(patch, wrapped);
        } else {
            json wrapped = json::object();
            wrapped[key] = nested.is_object() ? nestedPatch(nested, context + "." + key) : nested;
            mergeJson(patch, wrapped);
        }
    }
    return patch;
}

StudySpec studySpecFromJson(const json& root, const std::string& source)
{
    JsonReader reader(root, source);
    StudySpec spec;
    reader.read("name", spec.name);
    reader.read("title", spec.title);
    reader.read("paper_table", spec.paperTable);
    reader.read("claim", spec.claim);
    reader.read("description", spec.description);
    if (reader.has("protocol")) {
        spec.protocol = readProtocol(reader, source);
    }
    if (spec.name.empty() || slug(spec.name) != spec.name) {
        throw InputError(source + ".name must be a short lower-case name (letters, digits, '-'): it names the folder");
    }
    // The full scale's keys sit at the top level; "quick" repeats them for the --quick scale.
    json full = json::object();
    for (const char* key : {"preset", "config", "set", "seeds"}) {
        if (reader.has(key)) {
            full[key] = reader.child(key);
        }
    }
    spec.full = readScale(full, source);
    if (spec.full.seeds.empty()) {
        throw InputError(source + ".seeds is missing");
    }
    if (reader.has("quick")) {
        spec.quick = readScale(reader.child("quick"), source + ".quick");
    }
    if (!reader.has("factors") || !reader.child("factors").is_array() || reader.child("factors").empty()) {
        throw InputError(source + ".factors must be a non-empty list");
    }
    const json& factors = reader.child("factors");
    for (size_t i = 0; i < factors.size(); ++i) {
        spec.factors.push_back(readFactor(factors[i], source + ".factors[" + std::to_string(i) + "]"));
    }
    if (reader.has("metrics")) {
        const json& metrics = reader.child("metrics");
        if (!metrics.is_array()) {
            throw InputError(source + ".metrics must be a list of metric names");
        }
        for (const json& metric : metrics) {
            if (!metric.is_string()) {
                throw InputError(source + ".metrics must be a list of metric names");
            }
            spec.metrics.push_back(metric.get<std::string>());
        }
    }
    if (reader.has("claims")) {
        spec.claims = studyClaimsFromJson(reader.child("claims"), source + ".claims", spec.factors);
    }
    reader.rejectUnknown();
    return spec;
}

json toJson(const StudySpec& spec)
{
    json out = scaleJson(spec.full);
    out["name"] = spec.name;
    out["title"] = spec.title;
    out["paper_table"] = spec.paperTable;
    out["claim"] = spec.claim;
    out["description"] = spec.description;
    if (spec.protocol) {
        out["protocol"] = protocolName(*spec.protocol);
    }
    if (spec.quick) {
        out["quick"] = scaleJson(*spec.quick);
    }
    json factors = json::array();
    for (const StudyFactor& factor : spec.factors) {
        json levels = json::array();
        for (const StudyLevel& level : factor.levels) {
            json l = {{"label", level.label}, {"set", level.set}};
            if (level.baseline) {
                l["baseline"] = *level.baseline;
            }
            if (level.protocol) {
                l["protocol"] = protocolName(*level.protocol);
            }
            if (level.decideFrom) {
                l = {{"label", level.label}, {"decide_from", *level.decideFrom}, {"decision", toJson(*level.decision)}};
            }
            levels.push_back(l);
        }
        json f = {{"name", factor.name}, {"levels", levels}};
        if (!factor.key.empty()) {
            f["key"] = factor.key; // the plots put a numeric factor's values on the x axis
        }
        factors.push_back(f);
    }
    out["factors"] = factors;
    if (!spec.metrics.empty()) {
        out["metrics"] = spec.metrics;
    }
    if (!spec.claims.empty()) {
        out["claims"] = toJson(spec.claims);
    }
    return out;
}

StudySpec loadStudySpec(const std::string& path)
{
    const json root = readJsonFile(path);
    try {
        return studySpecFromJson(root, "study");
    } catch (const InputError& error) {
        throw InputError(path + ": " + error.what());
    }
}

json toJson(const StudyOptions& options)
{
    return {{"quick", options.quick}, {"preset", options.preset}, {"set", options.set}, {"seeds", options.seeds}};
}

StudyOptions studyOptionsFromJson(const json& object, const std::string& source)
{
    JsonReader reader(object, source);
    StudyOptions options;
    reader.read("quick", options.quick);
    reader.read("preset", options.preset);
    if (reader.has("set")) {
        options.set = nestedPatch(reader.child("set"), source + ".set");
    }
    if (reader.has("seeds") && !reader.child("seeds").empty()) {
        options.seeds = readSeeds(reader.child("seeds"), source + ".seeds");
    }
    reader.rejectUnknown();
    return options;
}

ResolvedStudy resolveStudy(const StudySpec& spec, const StudyOptions& options)
{
    if (options.quick && !spec.quick) {
        throw InputError("study '" + spec.name + "' has no quick scale");
    }
    const StudyScale& scale = options.quick ? *spec.quick : spec.full;
    ResolvedStudy study;
    study.spec = spec;
    study.options = options;
    study.seeds = !options.seeds.empty() ? options.seeds : (!scale.seeds.empty() ? scale.seeds : spec.full.seeds);
    checkStudySeeds(study.seeds, "seeds"); // the command line's and the GUI's seeds as a study file's
    json base = baseConfig(scale, options);
    if (spec.protocol) {
        applyProtocolToJson(base, *spec.protocol); // at either scale: the quick preset follows it too
    }

    // The cartesian product, first factor slowest: index digits in mixed radix.
    size_t cells = 1;
    for (const StudyFactor& factor : spec.factors) {
        cells *= factor.levels.size();
        if (cells > kMaxStudyCells || cells * study.seeds.size() > 10000) {
            throw InputError("study '" + spec.name + "' has over " + std::to_string(kMaxStudyCells) + " cells or 10,000 runs");
        }
    }
    std::set<std::string> ids;
    for (size_t index = 0; index < cells; ++index) {
        StudyCell cell;
        cell.config = base;
        size_t rest = index;
        std::vector<const StudyLevel*> levels(spec.factors.size());
        for (size_t f = spec.factors.size(); f-- > 0;) {
            levels[f] = &spec.factors[f].levels[rest % spec.factors[f].levels.size()];
            rest /= spec.factors[f].levels.size();
        }
        for (const StudyLevel* level : levels) {
            if (level->baseline) {
                const bool particlesGiven = level->set.contains("model") && level->set["model"].contains("particles");
                setBaselineInConfigJson(cell.config, *level->baseline, particlesGiven);
            }
            if (level->protocol) {
                applyProtocolToJson(cell.config, *level->protocol);
            }
            mergeJson(cell.config, level->set);
            cell.levelLabels.push_back(level->label);
            cell.label += (cell.label.empty() ? "" : ", ") + level->label;
        }
        if (const auto note = mergeOverrides(cell.config, options.set)) {
            study.notes.push_back(cell.label + ": " + *note);
        }
        cell.id = slug(cell.label);
        for (int n = 2; !ids.insert(cell.id).second; ++n) {
            cell.id = slug(cell.label) + "-" + std::to_string(n);
        }
        cell.config["name"] = spec.name + "-" + cell.id;
        study.cells.push_back(cell);
    }
    linkDecisionCells(study); // a decision-only cell takes its source's config
    for (int c = 0; c < static_cast<int>(study.cells.size()); ++c) {
        for (const int64_t seed : study.seeds) {
            study.runs.push_back({c, seed, "runs/" + study.cells[c].id + "/seed-" + std::to_string(seed)});
        }
        try {
            trainConfigFromJson(runConfigJson(study, study.runs.back()), "cell");
        } catch (const InputError& error) {
            throw InputError("study '" + spec.name + "', cell '" + study.cells[c].label + "': " + error.what());
        }
    }
    return study;
}

json runConfigJson(const ResolvedStudy& study, const StudyRunRef& run)
{
    json config = study.cells.at(run.cell).config;
    config["data"]["seed"] = run.seed;
    config["train"]["seed"] = run.seed;
    return config;
}

StudySpec findStudySpec(const std::string& nameOrPath)
{
    std::error_code ec;
    const bool endsInJson = nameOrPath.size() > 5 && nameOrPath.substr(nameOrPath.size() - 5) == ".json";
    if (nameOrPath.find('/') != std::string::npos || endsInJson || std::filesystem::is_regular_file(nameOrPath, ec)) {
        return loadStudySpec(nameOrPath);
    }
    const json root = loadResourceJson(studyResources(), nameOrPath);
    try {
        return studySpecFromJson(root, "study");
    } catch (const InputError& error) {
        throw InputError("built-in study " + nameOrPath + ": " + error.what());
    }
}

std::vector<StudyInfo> listBuiltInStudies()
{
    std::vector<StudyInfo> studies;
    for (const ResourceFile& file : listResourceFiles(studyResources())) {
        StudyInfo info{file.name, "", "", "", file.path};
        try {
            const StudySpec spec = loadStudySpec(file.path);
            info.title = spec.title;
            info.paperTable = spec.paperTable;
            info.claim = spec.claim;
        } catch (const InputError& error) {
            info.title = std::string("(invalid: ") + error.what() + ")";
        }
        studies.push_back(info);
    }
    return studies;
}

} // namespace lbd
