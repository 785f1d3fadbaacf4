#pragma once
// The utility matrix the user is working on: one shared document that the utility editor
// paints, the decision lab and the Classify page decide with, and the next training uses
// (saved to a file whose path becomes the run's `utility` setting). Plain value in, signal out:
// the views never hold a copy that could drift.
#include <QObject>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

#include "core/lbd/utilitymatrix.h"

namespace lbd::ui {

class UtilityDocument final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UtilityDocument)

public:
    explicit UtilityDocument(QObject* parent = nullptr);

    // The classes the matrix is about, head to tail. A different class list (another dataset)
    // resets the matrix to one-hot of the new size; the same list keeps the matrix.
    void setClassNames(const QStringList& classNames);
    const QStringList& classNames() const { return m_classNames; }
    int classCount() const { return static_cast<int>(m_classNames.size()); }

    const lbd::UtilityMatrix& matrix() const { return m_matrix; }
    // Replaces the matrix. Returns false and sets `error` when its size does not match the class
    // count or a value is not finite; the document is then unchanged.
    bool setMatrix(const lbd::UtilityMatrix& matrix, QString* error = nullptr);
    // The reason setMatrix would refuse `matrix` (wrong size, a non-finite value), or empty.
    QString checkMatrix(const lbd::UtilityMatrix& matrix) const;
    // The class names as core's io functions take them (file headers, reordering on import).
    std::vector<std::string> classNameList() const;

    // A short description for labels: "one-hot", "tail-sensitive", or "custom".
    QString description() const;

signals:
    void classNamesChanged();
    void matrixChanged();

private:
    QStringList m_classNames;
    lbd::UtilityMatrix m_matrix;
};

} // namespace lbd::ui
