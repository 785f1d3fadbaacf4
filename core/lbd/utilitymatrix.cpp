#include "core/lbd/utilitymatrix.h"

#include "core/util/error.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace lbd {
namespace {

// 1e+308, not the 309 digits std::to_string writes for it.
std::string shortNumber(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

} // namespace

UtilityMatrix::UtilityMatrix(int64_t classCount)
    : m_classCount(classCount)
{
    if (classCount < 0) {
        throw InputError("utility matrix: class count " + std::to_string(classCount) + " is negative");
    }
    m_values.assign(static_cast<size_t>(classCount * classCount), 0.0);
}

UtilityMatrix::UtilityMatrix(int64_t classCount, std::vector<double> rowMajor)
    : m_classCount(classCount)
    , m_values(std::move(rowMajor))
{
    if (classCount < 0 || m_values.size() != static_cast<size_t>(classCount * classCount)) {
        throw InputError("utility matrix: expected " + std::to_string(classCount) + " x "
                         + std::to_string(classCount) + " = " + std::to_string(classCount * classCount)
                         + " values, found " + std::to_string(m_values.size()));
    }
}

UtilityMatrix UtilityMatrix::oneHot(int64_t classCount)
{
    UtilityMatrix u(classCount);
    for (int64_t c = 0; c < classCount; ++c) {
        u(c, c) = 1.0;
    }
    return u;
}

UtilityMatrix UtilityMatrix::tailSensitive(int64_t classCount, double penalty)
{
    UtilityMatrix u = oneHot(classCount);
    for (int64_t t = 0; t < classCount; ++t) {
        for (int64_t d = 0; d < t; ++d) {
            u(t, d) = -penalty; // a false head: the decision is more head-ward than the truth
        }
    }
    return u;
}

double UtilityMatrix::at(int64_t t, int64_t d) const
{
    if (t < 0 || d < 0 || t >= m_classCount || d >= m_classCount) {
        throw std::out_of_range("UtilityMatrix::at(" + std::to_string(t) + ", " + std::to_string(d)
                                + ") outside " + std::to_string(m_classCount) + " x "
                                + std::to_string(m_classCount));
    }
    return (*this)(t, d);
}

bool UtilityMatrix::isOneHot() const
{
    for (int64_t t = 0; t < m_classCount; ++t) {
        for (int64_t d = 0; d < m_classCount; ++d) {
            if ((*this)(t, d) != (t == d ? 1.0 : 0.0)) {
                return false;
            }
        }
    }
    return true;
}

void UtilityMatrix::checkFinite(const std::string& source, const std::vector<std::string>& classNames) const
{
    const bool named = classNames.size() == static_cast<size_t>(m_classCount);
    for (int64_t t = 0; t < m_classCount; ++t) {
        for (int64_t d = 0; d < m_classCount; ++d) {
            const double v = (*this)(t, d);
            if (!std::isfinite(v) || std::abs(v) > kMaxUtilityMagnitude) {
                std::string where = "row " + std::to_string(t + 1) + ", column " + std::to_string(d + 1);
                if (named) {
                    where += " (true class '" + classNames[t] + "', decision '" + classNames[d] + "')";
                }
                throw InputError(source + ": utility matrix value at " + where + " is "
                                 + shortNumber(v) + "; every value must be a finite number between -1e+06 and 1e+06");
            }
        }
    }
}

bool hasNegativeEntry(const UtilityMatrix& matrix)
{
    for (const double value : matrix.values()) {
        if (value < 0.0) {
            return true;
        }
    }
    return false;
}

std::optional<double> tailPenaltyOf(const UtilityMatrix& matrix)
{
    const int64_t n = matrix.classCount();
    if (n < 2) {
        return std::nullopt;
    }
    const double c = -matrix(1, 0);
    if (c > 0 && matrix == UtilityMatrix::tailSensitive(n, c)) {
        return c;
    }
    return std::nullopt;
}

} // namespace lbd
