#include "app/cli/configflags.h"

#include "app/cli/command.h"
#include "core/train/configfields.h"
#include "core/util/error.h"
#include "datasets/catalogue.h"

#include <map>

namespace lbd::cli {
namespace {

const ConfigField& field(const std::string& key)
{
    const ConfigField* found = findConfigField(key);
    if (found == nullptr) {
        throw std::logic_error("no config field '" + key + "'"); // a programming error, caught by every test run
    }
    return *found;
}

// "fp16|bf16|fp32" -> the words, for fields whose values are names.
std::vector<std::string> namesOf(const ConfigField& f)
{
    std::vector<std::string> words;
    if (f.type.find('|') == std::string::npos || f.type.find('<') != std::string::npos || f.type == "true|false") {
        return words;
    }
    size_t begin = 0;
    while (true) {
        const size_t bar = f.type.find('|', begin);
        words.push_back(f.type.substr(begin, bar == std::string::npos ? std::string::npos : bar - begin));
        if (bar == std::string::npos) {
            return words;
        }
        begin = bar + 1;
    }
}

// The placeholder --help shows for a value of this type.
std::string typeLabel(const std::string& type)
{
    if (type == "number") {
        return "X";
    }
    if (type == "integer") {
        return "N";
    }
    if (type == "number or null") {
        return "X|none";
    }
    if (type == "list of numbers") {
        return "X,Y,...";
    }
    if (type == "true|false") {
        return "true|false";
    }
    if (type.find("tail:") != std::string::npos) {
        return "onehot|tail:c|FILE";
    }
    return "VALUE";
}

void setAt(nlohmann::json& patch, const std::string& key, nlohmann::json value)
{
    std::string pointer = "/" + key;
    for (char& c : pointer) {
        c = c == '.' ? '/' : c;
    }
    patch[nlohmann::json::json_pointer(pointer)] = std::move(value);
}

} // namespace

CLI::Option* ConfigFlags::add(CLI::App& command, const std::string& flag, const std::string& key)
{
    const ConfigField& f = field(key);
    std::string& value = m_values.emplace_back();
    CLI::Option* option = command.add_option(flag, value, f.help + " (config " + f.key + ")");
    const std::vector<std::string> words = namesOf(f);
    if (!words.empty()) {
        choices(option, words)->type_name("NAME"); // CLI11 lists the names after it
    } else {
        option->type_name(typeLabel(f.type));
    }
    m_entries.push_back({{flag, key, std::nullopt, option}, &value});
    return option;
}

CLI::Option* ConfigFlags::addSwitch(CLI::App& command, const std::string& flag, const std::string& key,
                                    nlohmann::json value, const std::string& help)
{
    field(key);
    const std::string description = help + " (config " + key + " = " + value.dump() + ")";
    CLI::Option* option = command.add_flag(flag, description);
    m_entries.push_back({{flag, key, std::move(value), option}, nullptr});
    return option;
}

CLI::Option* ConfigFlags::addSet(CLI::App& command)
{
    return command
        .add_option("--set", m_sets,
                    "set any config key, e.g. --set objective.tau=20 --set optimizer.decay_epochs=160,180 (repeatable; "
                    "applied after the other options)")
        ->type_name("KEY=VALUE")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

nlohmann::json ConfigFlags::patch() const
{
    nlohmann::json patch = nlohmann::json::object();
    // A key set twice (by two --set, or by --set and its option) is an error, as a repeated
    // option is: neither value may win silently.
    std::map<std::string, std::string> givenBy;
    const auto claim = [&](const std::string& key, const std::string& how) {
        const auto [it, fresh] = givenBy.emplace(key, how);
        if (!fresh) {
            throw InputError(how + ": " + key + " is already given by " + it->second + " (give each setting once)");
        }
    };
    for (const auto& [entry, value] : m_entries) {
        if (entry.option->count() == 0) {
            continue;
        }
        claim(entry.key, entry.flag);
        if (entry.fixed) {
            setAt(patch, entry.key, *entry.fixed);
            continue;
        }
        try {
            setAt(patch, entry.key, parseConfigValue(field(entry.key), *value));
        } catch (const InputError& error) {
            throw InputError(entry.flag + " " + *value + ": " + error.what());
        }
    }
    for (const std::string& item : m_sets) {
        const size_t equals = item.find('=');
        if (equals == std::string::npos) {
            throw InputError("--set " + item + ": expected KEY=VALUE, e.g. --set objective.alpha=0.5");
        }
        const std::string key = item.substr(0, equals);
        const ConfigField* f = findConfigField(key);
        if (f == nullptr) {
            throw InputError("--set " + item + ": '" + key + "' is not a config key (lbd train --help lists them)");
        }
        claim(key, "--set " + item);
        setAt(patch, key, parseConfigValue(*f, item.substr(equals + 1)));
    }
    return patch;
}

std::vector<std::string> ConfigFlags::givenKeys() const
{
    std::vector<std::string> keys;
    for (const auto& [entry, value] : m_entries) {
        if (entry.option->count() > 0) {
            keys.push_back(entry.key);
        }
    }
    for (const std::string& item : m_sets) {
        keys.push_back(item.substr(0, item.find('=')));
    }
    return keys;
}

bool ConfigFlags::given(const std::string& key) const
{
    for (const std::string& k : givenKeys()) {
        if (k == key) {
            return true;
        }
    }
    return false;
}

namespace {

// `text` in lines of at most `width` characters, each after `indent`.
std::string wrapped(const std::string& text, size_t indent, size_t width)
{
    std::string out;
    std::string line;
    size_t begin = 0;
    while (begin < text.size()) {
        size_t end = text.find(' ', begin);
        end = end == std::string::npos ? text.size() : end;
        const std::string word = text.substr(begin, end - begin);
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            out += std::string(indent, ' ') + line + '\n';
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        begin = end + 1;
    }
    return line.empty() ? out : out + std::string(indent, ' ') + line + '\n';
}

// The catalogue's entries for --help: what each is, where it is looked for, how to get it.
std::string datasetHelp()
{
    std::string help = "Data sets (--dataset NAME, config data.dataset):\n";
    for (const DatasetEntry* entry : datasetEntries()) {
        help += "  " + entry->name + "\n";
        std::string about = entry->description;
        if (!entry->defaultDirectory.empty()) {
            about += " Default --data-dir: " + entry->defaultDirectory + ".";
        } else if (entry->settings.directory) {
            about += " Needs --data-dir.";
        }
        about += " Get it: " + entry->obtain + ". Licence: " + entry->licence + ".";
        help += wrapped(about, 6, 94);
    }
    return help;
}

} // namespace

void addDataFlags(CLI::App& command, ConfigFlags& flags)
{
    const std::string group = "Data set";
    command.footer(datasetHelp); // before the command's own footer; built when --help is shown
    flags.add(command, "--dataset", "data.dataset")->group(group);
    flags.add(command, "--data-dir", "data.data_dir")->group(group)->type_name("DIR");
    flags.add(command, "--train-list", "data.train_list")->group(group)->type_name("FILE");
    flags.add(command, "--test-list", "data.test_list")->group(group)->type_name("FILE");
    flags.add(command, "--val-list", "data.val_list")->group(group)->type_name("FILE");
    flags.add(command, "--class-names", "data.class_names")->group(group)->type_name("FILE");
    flags.add(command, "--profile", "data.profile")->group(group);
    flags.add(command, "--imbalance-ratio", "data.imbalance_ratio")->group(group);
    flags.add(command, "--seed", "data.seed")->group(group);
    flags.add(command, "--val-fraction", "data.val_fraction")->group(group);
    flags.add(command, "--channels", "data.channels")->group(group);
    flags.add(command, "--image-size", "data.image_size")->group(group);
    flags.add(command, "--held-out", "data.held_out_fraction")->group(group);
}

} // namespace lbd::cli
