#pragma once
// UtilitySetting: a utility matrix as a config names it, either by a text spec ("onehot",
// "tail:<c>", a .csv / .json path) or by value (the matrix itself, with the classes it is about).
// A run folder keeps its matrices by value, so reopening a run never reads the user's file again
// (lbd-math.md section 5: "never only a path to a user file"). Torch-free: the GUI edits it.
#include "core/lbd/utilitymatrix.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace lbd {

struct UtilitySetting {
    std::string spec = "onehot";         // used when `matrix` is empty
    UtilityMatrix matrix;                // by value: wins over `spec` when it has classes
    std::vector<std::string> classNames; // the classes of `matrix` in its row order (may be empty)
    std::string origin;                  // what a by-value matrix was made from (a file name); for people

    bool byValue() const { return !matrix.empty(); }
    // "onehot", "tail:2", "matrix from tail2.csv", "custom matrix": for tables and labels.
    std::string describe() const;

    bool operator==(const UtilitySetting& other) const
    {
        return spec == other.spec && matrix == other.matrix && classNames == other.classNames && origin == other.origin;
    }
    bool operator!=(const UtilitySetting& other) const { return !(*this == other); }
};

UtilitySetting utilityFromSpec(const std::string& spec);
UtilitySetting utilityFromMatrix(const UtilityMatrix& matrix, const std::vector<std::string>& classNames,
                                 const std::string& origin = {});

// The matrix for a data set with these classes (head to tail). A by-value matrix that names its
// classes is reordered into the data set's order; throws InputError naming `context` and what
// does not fit.
UtilityMatrix resolveUtility(const UtilitySetting& setting, const std::vector<std::string>& classNames,
                             const std::string& context);

// The same setting with any file read into a by-value matrix ("onehot" and "tail:<c>" are values
// already and stay as text). What a run folder's config.json records.
UtilitySetting utilityByValue(const UtilitySetting& setting, const std::vector<std::string>& classNames,
                              const std::string& context);

// JSON: the spec as a string, or {"matrix": [[...]], "classes": [...], "origin": "..."}.
nlohmann::json toJson(const UtilitySetting& setting);
// Throws InputError naming `context` for anything else.
UtilitySetting utilitySettingFromJson(const nlohmann::json& json, const std::string& context);

} // namespace lbd
