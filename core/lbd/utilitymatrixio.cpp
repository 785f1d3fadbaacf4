// Reading and writing utility matrices (CSV, JSON) and the --utility spec. Kept apart from the
// value type so that its parsing rules (headers, reordering, error messages) live in one place.
#include "core/lbd/utilitymatrix.h"
#include "core/lbd/priorutility.h"
#include "core/lbd/utilityjson.h"
#include "core/util/jsonfile.h"

#include "core/util/atomicfile.h"
#include "core/util/csv.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace lbd {
namespace {

namespace fs = std::filesystem;

// A matrix as the file wrote it, before it is checked and put into the dataset's class order.
struct RawMatrix {
    std::vector<std::string> names; // empty when the file names no classes
    std::vector<std::vector<double>> rows;
};

std::string lowercase(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string extensionOf(const std::string& path)
{
    return lowercase(fs::path(path).extension().string());
}

// from_chars, not strtod: Qt applications set the C locale from the environment, and a
// German locale would make strtod read "0,5" and reject "0.5".
bool parseDouble(const std::string& cell, double& value)
{
    std::string text = trimBlanks(cell);
    if (!text.empty() && text.front() == '+') {
        text.erase(0, 1);
    }
    if (text.empty()) {
        return false;
    }
    const char* first = text.data();
    const char* last = text.data() + text.size();
    const auto result = std::from_chars(first, last, value);
    return result.ec == std::errc() && result.ptr == last;
}

std::string formatDouble(double value)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value); // shortest round trip
    return std::string(buffer, result.ptr);
}

// The number of a preset spec "<prefix><x>" (any case, blanks around), 0 <= x <= maximum.
std::optional<double> presetNumber(const std::string& spec, const std::string& prefix, double maximum)
{
    const std::string text = lowercase(trimBlanks(spec));
    double value = 0.0;
    if (text.rfind(prefix, 0) != 0 || !parseDouble(text.substr(prefix.size()), value) || !std::isfinite(value)
        || value < 0.0 || value > maximum) {
        return std::nullopt;
    }
    return value;
}

std::string listNames(const std::vector<std::string>& names)
{
    // Enough to show the user what the dataset calls its classes without printing 1000 names.
    constexpr size_t kShown = 10;
    std::string list;
    for (size_t i = 0; i < names.size() && i < kShown; ++i) {
        list += (i ? ", " : "") + names[i];
    }
    if (names.size() > kShown) {
        list += ", ... (" + std::to_string(names.size()) + " classes)";
    }
    return list;
}

// Checks size and values of what the file holds and returns it in the dataset's class order.
UtilityMatrix assemble(const RawMatrix& raw, const std::vector<std::string>& classNames, const std::string& source)
{
    const auto rowCount = static_cast<int64_t>(raw.rows.size());
    const int64_t expected = classNames.empty() ? rowCount : static_cast<int64_t>(classNames.size());
    const std::string expectedText = std::to_string(expected) + " x " + std::to_string(expected);

    if (rowCount == 0) {
        throw InputError(source + ": the utility matrix is empty; expected " + expectedText
                         + " numbers (one row and one column per class)");
    }
    const auto firstWidth = static_cast<int64_t>(raw.rows.front().size());
    for (int64_t r = 0; r < rowCount; ++r) {
        const auto width = static_cast<int64_t>(raw.rows[r].size());
        if (width != firstWidth) {
            throw InputError(source + ": utility matrix must be " + expectedText + ", but row "
                             + std::to_string(r + 1) + " has " + std::to_string(width) + " values and row 1 has "
                             + std::to_string(firstWidth));
        }
    }
    if (rowCount != expected || firstWidth != expected) {
        throw InputError(source + ": utility matrix must be " + expectedText
                         + " (one row and one column per class), found " + std::to_string(rowCount) + " x "
                         + std::to_string(firstWidth));
    }

    const bool named = !raw.names.empty();
    if (named && static_cast<int64_t>(raw.names.size()) != expected) {
        throw InputError(source + ": the class names list " + std::to_string(raw.names.size())
                         + " classes, but the matrix is " + expectedText);
    }
    // Name row and column in the file's own order: that is where the user has to look.
    std::vector<double> fileValues;
    fileValues.reserve(static_cast<size_t>(expected * expected));
    for (const auto& row : raw.rows) {
        fileValues.insert(fileValues.end(), row.begin(), row.end());
    }
    UtilityMatrix inFileOrder(expected, std::move(fileValues));
    inFileOrder.checkFinite(source, named ? raw.names : classNames);

    if (!named || classNames.empty()) {
        return inFileOrder;
    }
    std::unordered_map<std::string, int64_t> datasetIndex;
    for (size_t i = 0; i < classNames.size(); ++i) {
        datasetIndex.emplace(classNames[i], static_cast<int64_t>(i));
    }
    std::vector<int64_t> toDataset(raw.names.size());
    std::vector<bool> seen(classNames.size(), false);
    for (size_t i = 0; i < raw.names.size(); ++i) {
        const auto found = datasetIndex.find(raw.names[i]);
        if (found == datasetIndex.end()) {
            throw InputError(source + ": class '" + raw.names[i]
                             + "' is not a class of the dataset (its classes: " + listNames(classNames) + ")");
        }
        if (seen[static_cast<size_t>(found->second)]) {
            throw InputError(source + ": class '" + raw.names[i] + "' is named twice");
        }
        seen[static_cast<size_t>(found->second)] = true;
        toDataset[i] = found->second;
    }
    UtilityMatrix reordered(expected);
    for (int64_t t = 0; t < expected; ++t) {
        for (int64_t d = 0; d < expected; ++d) {
            reordered(toDataset[t], toDataset[d]) = inFileOrder(t, d);
        }
    }
    return reordered;
}

std::string readFile(const std::string& path)
{
    try {
        return readTextFile(path);
    } catch (const InputError& error) {
        throw InputError(std::string("cannot read the utility matrix: ") + error.what());
    }
}

// The atomic write (temporary file + rename) is the project's one implementation. A matrix the
// user asked to save is their input, so a missing folder is refused rather than created (a typo
// in a path should not make new folders) and every failure is an InputError naming the file.
void writeMatrixFile(const std::string& path, const std::string& content)
{
    const fs::path folder = fs::path(path).parent_path();
    std::error_code ec;
    if (!folder.empty() && !fs::is_directory(folder, ec)) {
        throw InputError(path + ": cannot write the utility matrix: the folder " + folder.string()
                         + " does not exist");
    }
    try {
        writeFileAtomically(path, content);
    } catch (const RunError& error) {
        throw InputError(std::string("cannot write the utility matrix: ") + error.what());
    }
}

void checkSaveNames(const UtilityMatrix& matrix, const std::vector<std::string>& classNames, const std::string& path)
{
    if (!classNames.empty() && static_cast<int64_t>(classNames.size()) != matrix.classCount()) {
        throw InputError(path + ": cannot save a " + std::to_string(matrix.classCount()) + " x "
                         + std::to_string(matrix.classCount()) + " utility matrix with "
                         + std::to_string(classNames.size()) + " class names");
    }
}

} // namespace

UtilityMatrix parseUtilityCsv(const std::string& text, const std::vector<std::string>& classNames,
                              const std::string& sourceName)
{
    RawMatrix raw;
    std::vector<std::string> firstCells; // kept in case an all-numeric first line is a header
    std::istringstream lines(text);
    std::string line;
    bool first = true;
    int64_t lineNumber = 0;
    while (std::getline(lines, line)) {
        ++lineNumber;
        const std::string trimmed = trimBlanks(line);
        if (trimmed.empty() || trimmed.front() == '#') {
            continue;
        }
        const std::vector<std::string> cells = splitCsvLine(trimmed);
        std::vector<double> values(cells.size());
        size_t badCell = cells.size();
        for (size_t i = 0; i < cells.size(); ++i) {
            if (!parseDouble(cells[i], values[i])) {
                badCell = i;
                break;
            }
        }
        if (first && badCell != cells.size()) {
            raw.names = cells; // a first line that is not all numbers is the header of class names
        } else if (badCell != cells.size()) {
            throw InputError(sourceName + ": line " + std::to_string(lineNumber) + ", column "
                             + std::to_string(badCell + 1) + ": '" + cells[badCell] + "' is not a number");
        } else {
            if (first) {
                firstCells = cells;
            }
            raw.rows.push_back(std::move(values));
        }
        first = false;
    }
    // Classes named "0", "1", ... (image folders of digits) make the header look like numbers;
    // one line more than there are classes gives it away.
    if (raw.names.empty() && !classNames.empty() && raw.rows.size() == classNames.size() + 1
        && firstCells.size() == classNames.size()) {
        raw.names = firstCells;
        raw.rows.erase(raw.rows.begin());
    }
    return assemble(raw, classNames, sourceName);
}

UtilityMatrix parseUtilityJson(const std::string& text, const std::vector<std::string>& classNames,
                               const std::string& sourceName)
{
    return utilityFromJsonDocument(parseJsonText(text, sourceName), classNames, sourceName);
}

UtilityMatrix utilityFromJsonDocument(const nlohmann::json& document, const std::vector<std::string>& classNames,
                                      const std::string& sourceName)
{
    if (!document.is_object() || !document.contains("matrix") || !document.at("matrix").is_array()) {
        throw InputError(sourceName + ": expected a JSON object with a \"matrix\" array of rows "
                                      "(and optionally a \"classes\" array of names)");
    }
    RawMatrix raw;
    if (document.contains("classes")) {
        const auto& classes = document.at("classes");
        if (!classes.is_array()) {
            throw InputError(sourceName + ": \"classes\" must be an array of class names");
        }
        for (const auto& name : classes) {
            if (!name.is_string()) {
                throw InputError(sourceName + ": \"classes\" must hold only strings, found " + name.dump());
            }
            raw.names.push_back(name.get<std::string>());
        }
    }
    const auto& matrix = document.at("matrix");
    for (size_t r = 0; r < matrix.size(); ++r) {
        const auto& row = matrix[r];
        if (!row.is_array()) {
            throw InputError(sourceName + ": \"matrix\" row " + std::to_string(r + 1) + " is not an array");
        }
        std::vector<double> values;
        for (size_t c = 0; c < row.size(); ++c) {
            if (!row[c].is_number()) {
                // JSON has no NaN: writers turn it into null, which lands here.
                throw InputError(sourceName + ": utility matrix value at row " + std::to_string(r + 1) + ", column "
                                 + std::to_string(c + 1) + " is " + row[c].dump() + ", not a finite number");
            }
            values.push_back(row[c].get<double>());
        }
        raw.rows.push_back(std::move(values));
    }
    return assemble(raw, classNames, sourceName);
}

UtilityMatrix loadUtilityCsv(const std::string& path, const std::vector<std::string>& classNames)
{
    return parseUtilityCsv(readFile(path), classNames, path);
}

UtilityMatrix loadUtilityJson(const std::string& path, const std::vector<std::string>& classNames)
{
    return parseUtilityJson(readFile(path), classNames, path);
}

UtilityMatrix loadUtilityMatrix(const std::string& path, const std::vector<std::string>& classNames)
{
    const std::string extension = extensionOf(path);
    if (extension == ".csv") {
        return loadUtilityCsv(path, classNames);
    }
    if (extension == ".json") {
        return loadUtilityJson(path, classNames);
    }
    throw InputError(path + ": a utility matrix file must end in .csv or .json");
}

void saveUtilityCsv(const UtilityMatrix& matrix, const std::string& path, const std::vector<std::string>& classNames)
{
    checkSaveNames(matrix, classNames, path);
    std::string content;
    for (size_t i = 0; i < classNames.size(); ++i) {
        content += (i ? "," : "") + quoteCsvField(classNames[i]);
    }
    if (!classNames.empty()) {
        content += '\n';
    }
    for (int64_t t = 0; t < matrix.classCount(); ++t) {
        for (int64_t d = 0; d < matrix.classCount(); ++d) {
            content += (d ? "," : "") + formatDouble(matrix(t, d));
        }
        content += '\n';
    }
    writeMatrixFile(path, content);
}

void saveUtilityJson(const UtilityMatrix& matrix, const std::string& path, const std::vector<std::string>& classNames)
{
    checkSaveNames(matrix, classNames, path);
    nlohmann::json document = nlohmann::json::object();
    if (!classNames.empty()) {
        document["classes"] = classNames;
    }
    nlohmann::json rows = nlohmann::json::array();
    for (int64_t t = 0; t < matrix.classCount(); ++t) {
        nlohmann::json row = nlohmann::json::array();
        for (int64_t d = 0; d < matrix.classCount(); ++d) {
            row.push_back(matrix(t, d));
        }
        rows.push_back(std::move(row));
    }
    document["matrix"] = std::move(rows);
    writeMatrixFile(path, document.dump(2) + "\n");
}

void saveUtilityMatrix(const UtilityMatrix& matrix, const std::string& path, const std::vector<std::string>& classNames)
{
    const std::string extension = extensionOf(path);
    if (extension == ".csv") {
        saveUtilityCsv(matrix, path, classNames);
    } else if (extension == ".json") {
        saveUtilityJson(matrix, path, classNames);
    } else {
        throw InputError(path + ": a utility matrix file must end in .csv or .json");
    }
}

UtilityMatrix parseUtilitySpec(const std::string& text, const std::vector<std::string>& classNames)
{
    const std::string spec = trimBlanks(text);
    const std::string lower = lowercase(spec);
    const auto classCount = static_cast<int64_t>(classNames.size());
    const bool preset = lower == "onehot" || lower == "one-hot" || lower.rfind("tail:", 0) == 0;
    if (preset && classCount == 0) {
        throw InputError("--utility '" + spec + "': the dataset's classes must be known to build a preset");
    }
    if (lower == "onehot" || lower == "one-hot") {
        return UtilityMatrix::oneHot(classCount);
    }
    if (lower.rfind("tail:", 0) == 0) {
        const auto penalty = tailPenaltyOf(spec);
        if (!penalty) {
            throw InputError("--utility '" + spec + "': the tail penalty after 'tail:' must be a number from 0 to 1e6");
        }
        return UtilityMatrix::tailSensitive(classCount, *penalty);
    }
    if (isUtilityFileSpec(spec)) {
        return loadUtilityMatrix(spec, classNames);
    }
    if (lower.rfind("prior:", 0) == 0) {
        throw InputError("--utility '" + spec + "': prior:<tau> is built from a run's training class counts; use it "
                         "where a run is decided (lbd eval, the Decision lab), not here");
    }
    throw InputError("--utility '" + spec + "' is not known: use 'onehot', 'tail:<c>', 'prior:<tau>' or a .csv / .json "
                     "file");
}

bool isPriorUtilitySpec(const std::string& spec)
{
    return lowercase(trimBlanks(spec)).rfind("prior:", 0) == 0;
}

std::string priorSpec(double tau)
{
    return "prior:" + formatDouble(tau);
}

std::optional<double> priorTauOf(const std::string& spec)
{
    return presetNumber(spec, "prior:", kMaxPriorTau);
}

UtilityMatrix priorAdjusted(const std::vector<int64_t>& trainCounts, double tau)
{
    if (!(tau >= 0.0 && tau <= kMaxPriorTau)) {
        throw InputError("prior:<tau>: tau must be a number from 0 to " + formatDouble(kMaxPriorTau) + ", got "
                         + formatDouble(tau));
    }
    int64_t smallest = 0;
    for (size_t y = 0; y < trainCounts.size(); ++y) {
        if (trainCounts[y] <= 0) {
            throw InputError("prior:" + formatDouble(tau) + ": class " + std::to_string(y)
                             + " has no training image, so its prior is 0 and 1 / pi^tau is undefined");
        }
        smallest = smallest == 0 ? trainCounts[y] : std::min(smallest, trainCounts[y]);
    }
    const auto classCount = static_cast<int64_t>(trainCounts.size());
    UtilityMatrix u(classCount);
    for (int64_t y = 0; y < classCount; ++y) {
        // (min pi / pi_y)^tau: the total count cancels in the ratio.
        u(y, y) = std::pow(static_cast<double>(smallest) / static_cast<double>(trainCounts[static_cast<size_t>(y)]), tau);
    }
    return u;
}

UtilityMatrix parseUtilitySpec(const std::string& text, const std::vector<std::string>& classNames,
                               const std::vector<int64_t>& trainCounts)
{
    if (lowercase(trimBlanks(text)).rfind("prior:", 0) != 0) {
        return parseUtilitySpec(text, classNames);
    }
    const auto tau = priorTauOf(text);
    if (!tau) {
        throw InputError("--utility '" + trimBlanks(text) + "': tau after 'prior:' must be a number from 0 to "
                         + formatDouble(kMaxPriorTau));
    }
    if (trainCounts.size() != classNames.size()) {
        throw InputError("--utility '" + trimBlanks(text) + "': " + std::to_string(trainCounts.size())
                         + " training counts for " + std::to_string(classNames.size()) + " classes");
    }
    return priorAdjusted(trainCounts, *tau);
}

std::string tailSpec(double penalty)
{
    return "tail:" + formatDouble(penalty);
}

std::optional<double> tailPenaltyOf(const std::string& spec)
{
    return presetNumber(spec, "tail:", kMaxUtilityMagnitude);
}

bool isUtilityFileSpec(const std::string& spec)
{
    const std::string extension = extensionOf(trimBlanks(spec));
    return extension == ".csv" || extension == ".json";
}

} // namespace lbd
