#include "ui/utility/utilitydocument.h"

#include <cmath>

namespace lbd::ui {

UtilityDocument::UtilityDocument(QObject* parent) : QObject(parent) {}

void UtilityDocument::setClassNames(const QStringList& classNames)
{
    if (classNames == m_classNames) {
        return;
    }
    m_classNames = classNames;
    m_matrix = lbd::UtilityMatrix::oneHot(classNames.size());
    emit classNamesChanged();
    emit matrixChanged();
}

bool UtilityDocument::setMatrix(const lbd::UtilityMatrix& matrix, QString* error)
{
    const QString problem = checkMatrix(matrix);
    if (!problem.isEmpty()) {
        if (error != nullptr) {
            *error = problem;
        }
        return false;
    }
    if (matrix == m_matrix) {
        return true;
    }
    m_matrix = matrix;
    emit matrixChanged();
    return true;
}

QString UtilityDocument::checkMatrix(const lbd::UtilityMatrix& matrix) const
{
    if (matrix.classCount() != classCount()) {
        return tr("The matrix is %1 x %1 but the data set has %2 classes.").arg(matrix.classCount()).arg(classCount());
    }
    for (int64_t t = 0; t < matrix.classCount(); ++t) {
        for (int64_t d = 0; d < matrix.classCount(); ++d) {
            if (!std::isfinite(matrix(t, d))) {
                return tr("U[%1, %2] (true %3, decision %4) is not a finite number.")
                    .arg(t)
                    .arg(d)
                    .arg(m_classNames.value(static_cast<int>(t)), m_classNames.value(static_cast<int>(d)));
            }
        }
    }
    return {};
}

std::vector<std::string> UtilityDocument::classNameList() const
{
    std::vector<std::string> names;
    names.reserve(static_cast<size_t>(m_classNames.size()));
    for (const QString& name : m_classNames) {
        names.push_back(name.toStdString());
    }
    return names;
}

QString UtilityDocument::description() const
{
    if (m_matrix.isOneHot()) {
        return tr("one-hot");
    }
    // Tail-sensitive(c) is I minus c below the diagonal; recognise it so labels stay short.
    const int64_t n = m_matrix.classCount();
    if (n > 1) {
        const double c = -m_matrix(1, 0);
        if (c > 0 && m_matrix == lbd::UtilityMatrix::tailSensitive(n, c)) {
            return tr("tail-sensitive (c = %1)").arg(c);
        }
    }
    return tr("custom");
}

} // namespace lbd::ui
