#pragma once
// UtilityMatrix: the C x C table U[t][d] that says how good deciding d is when the truth is t
// (lbd-math.md section 5). Rows are the true class, columns the decision, classes in the
// dataset's head-to-tail order. A plain value type without torch so that the Qt utility page
// can edit it; the engine turns it into a tensor where it needs one.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lbd {

// Largest utility magnitude accepted anywhere (files, specs, the editor): far beyond any sensible
// preference, small enough that sums over 1000 classes and probabilities stay finite.
inline constexpr double kMaxUtilityMagnitude = 1e6;

class UtilityMatrix {
public:
    UtilityMatrix() = default;
    // classCount x classCount zeros.
    explicit UtilityMatrix(int64_t classCount);
    // Row-major values; throws InputError unless values.size() == classCount^2.
    UtilityMatrix(int64_t classCount, std::vector<double> rowMajor);

    // U = I: every rule reduces to its plain (utility-free) form.
    static UtilityMatrix oneHot(int64_t classCount);
    // Paper Fig. 1b: I plus -penalty where the decision is more head-ward than the truth (d < t).
    static UtilityMatrix tailSensitive(int64_t classCount, double penalty);

    int64_t classCount() const { return m_classCount; }
    bool empty() const { return m_classCount == 0; }
    // Unchecked access (t = true class row, d = decision column).
    double operator()(int64_t t, int64_t d) const { return m_values[static_cast<size_t>(t * m_classCount + d)]; }
    double& operator()(int64_t t, int64_t d) { return m_values[static_cast<size_t>(t * m_classCount + d)]; }
    // Bounds-checked access; throws std::out_of_range.
    double at(int64_t t, int64_t d) const;
    const std::vector<double>& values() const { return m_values; }

    // Exactly the identity: training then skips the utility term (lbd-math.md section 4).
    bool isOneHot() const;
    // Throws InputError naming the first non-finite cell, or one whose magnitude exceeds
    // kMaxUtilityMagnitude; `source` names the file or option.
    void checkFinite(const std::string& source, const std::vector<std::string>& classNames = {}) const;

    bool operator==(const UtilityMatrix& other) const
    {
        return m_classCount == other.m_classCount && m_values == other.m_values;
    }
    bool operator!=(const UtilityMatrix& other) const { return !(*this == other); }

private:
    int64_t m_classCount = 0;
    std::vector<double> m_values;
};

// ---- Files and specs (implemented in utilitymatrixio.cpp) ------------------------------------
// `classNames` are the dataset's class names in head-to-tail order; their count is the expected
// matrix size. When a file names its classes, the names must be a permutation of classNames and
// the matrix is reordered into the dataset's order. With empty classNames any square matrix is
// accepted in the file's order. Every problem throws InputError naming the file.

// CSV: C lines of C numbers; optionally a first line with the C class names (the order of both
// rows and columns). Blank lines and lines starting with '#' are skipped.
UtilityMatrix parseUtilityCsv(const std::string& text, const std::vector<std::string>& classNames,
                              const std::string& sourceName);
// JSON: {"classes": [names...] (optional), "matrix": [[...], ...]}.
UtilityMatrix parseUtilityJson(const std::string& text, const std::vector<std::string>& classNames,
                               const std::string& sourceName);

UtilityMatrix loadUtilityCsv(const std::string& path, const std::vector<std::string>& classNames);
UtilityMatrix loadUtilityJson(const std::string& path, const std::vector<std::string>& classNames);
// Chooses the format from the extension (.csv or .json, any case).
UtilityMatrix loadUtilityMatrix(const std::string& path, const std::vector<std::string>& classNames);

// Atomic saves (temporary file in the same folder, then rename). classNames, when not empty,
// are written as the header / "classes" so that the file can be checked when loaded again.
void saveUtilityCsv(const UtilityMatrix& matrix, const std::string& path,
                    const std::vector<std::string>& classNames = {});
void saveUtilityJson(const UtilityMatrix& matrix, const std::string& path,
                     const std::vector<std::string>& classNames = {});
void saveUtilityMatrix(const UtilityMatrix& matrix, const std::string& path,
                       const std::vector<std::string>& classNames = {});

// The --utility option / preset box: "onehot", "tail:<c>" (0 <= c <= kMaxUtilityMagnitude) or a
// .csv / .json file path.
UtilityMatrix parseUtilitySpec(const std::string& text, const std::vector<std::string>& classNames);

// The one place the "tail:<c>" text is written and read: tailSpec(2) == "tail:2";
// tailPenaltyOf("tail:2") == 2, nothing for any other text.
std::string tailSpec(double penalty);
std::optional<double> tailPenaltyOf(const std::string& spec);
// c when `matrix` is exactly UtilityMatrix::tailSensitive(C, c) with c > 0.
std::optional<double> tailPenaltyOf(const UtilityMatrix& matrix);
// The spec names a .csv / .json file (as opposed to a preset).
bool isUtilityFileSpec(const std::string& spec);
// Some entry is negative (the case where eq7 and the unbounded training forms break down).
bool hasNegativeEntry(const UtilityMatrix& matrix);

} // namespace lbd
