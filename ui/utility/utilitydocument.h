#pragma once
// The shared decision settings: ONE decision utility matrix, ONE decision rule and ONE optional
// defer utility r that the Utility page, the Decision lab, Classify and the experiment panel all
// show and edit (lbd-math.md section 5). Every view reads the document and writes it back; none
// holds a copy that could drift, so changing the rule on Classify changes it in the lab.
//
// The document also knows where its matrix came from (a saved or imported file, a run) and says
// when the matrix no longer matches that source, so a page that replaces the matrix cannot leave
// another page claiming "Saved to tail2.csv". Matrix edits go through one undo stack, whichever
// page makes them, so a preset chosen in the lab can be undone on the Utility page and vice versa.
#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <string>
#include <vector>

#include "core/eval/decisionrule.h"
#include "core/lbd/utilitymatrix.h"
#include "core/lbd/utilitysetting.h"

class QUndoStack;

namespace lbd::ui {

class UtilityDocument final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UtilityDocument)

public:
    // Where the matrix was last written to or read from; compared by value with the current one.
    enum class Source { None, SavedFile, ImportedFile, Run };

    explicit UtilityDocument(QObject* parent = nullptr);

    // The classes the matrix is about, head to tail. A different class list (another data set, an
    // opened run of other classes) resets the matrix to one-hot of the new size (the old one cannot
    // apply) and clears the undo stack; the same list keeps the matrix. A matrix other than one-hot
    // is not lost: it is kept aside (setAsideText() says so) and comes back, with its source, when
    // its classes do. An empty list means the classes are not known yet (a folder still being
    // read, one that cannot be read): the matrix stays as it is.
    void setClassNames(const QStringList& classNames);
    // "Your custom 3 x 3 matrix (classes a, b, c) is kept aside ...", or empty when none is.
    QString setAsideText() const;
    const QStringList& classNames() const { return m_classNames; }
    int classCount() const { return static_cast<int>(m_classNames.size()); }
    // The class names as core's io functions take them (file headers, reordering on import).
    std::vector<std::string> classNameList() const;

    // ---- Matrix --------------------------------------------------------------------------------
    const lbd::UtilityMatrix& matrix() const { return m_matrix; }
    // Replaces the matrix without an undo step (the undo commands, tests). Returns false and sets
    // `error` when its size does not match the class count or a value is not finite.
    bool setMatrix(const lbd::UtilityMatrix& matrix, QString* error = nullptr);
    // One undoable edit named `text` ("one-hot preset (Decision lab)"); false with `error` when
    // refused. A matrix equal to the current one pushes nothing and returns true.
    bool editMatrix(const lbd::UtilityMatrix& after, const QString& text, QString* error = nullptr);
    QUndoStack* undoStack() const { return m_undo; }
    // The reason setMatrix would refuse `matrix` (wrong size, a non-finite value), or empty.
    QString checkMatrix(const lbd::UtilityMatrix& matrix) const;
    // "one-hot", "tail-sensitive (c = 2)" or "custom".
    QString description() const;
    // c when the matrix is exactly tail-sensitive(c), c > 0.
    std::optional<double> tailPenalty() const;
    // The matrix by value with the class names, as a run's config records it (decision.utility).
    lbd::UtilitySetting setting() const;

    // ---- Where the matrix came from --------------------------------------------------------------
    // Writes the matrix with the class names to a .csv or .json file (atomic, core's io) and makes
    // that file the source; false with the reason in `error`.
    bool saveToFile(const QString& path, QString* error);
    // The current matrix is what `where` holds (a file path, a run folder).
    void setSource(Source source, const QString& where);
    Source source() const { return m_source; }
    QString sourceLocation() const { return m_sourceLocation; }
    // The matrix differs from its source's (false when there is no source).
    bool modifiedSinceSource() const;
    // "Not saved to a file", "Saved to tail2.csv", "Modified since saved to tail2.csv", ...
    QString sourceText() const;

    // ---- Rule and defer ----------------------------------------------------------------------------
    lbd::DecisionRule rule() const { return m_rule; }
    void setRule(lbd::DecisionRule rule);
    // The user's r, kept while a rule without a defer option is chosen.
    std::optional<double> deferUtility() const { return m_defer; }
    void setDeferUtility(std::optional<double> deferUtility);
    // r when the rule can defer (supportsDefer), else nothing: what evaluations and runs use.
    std::optional<double> effectiveDeferUtility() const;
    // The registry's warning for this rule and matrix (eq7 with a negative entry), or empty.
    QString ruleWarning() const;

signals:
    void classNamesChanged();
    void matrixChanged();
    void ruleChanged();
    void deferUtilityChanged();
    // The source, or whether the matrix still matches it, changed.
    void sourceChanged();
    // A matrix was kept aside or brought back (setAsideText()).
    void setAsideChanged();

private:
    QStringList m_classNames;
    lbd::UtilityMatrix m_matrix;
    QUndoStack* m_undo = nullptr;
    lbd::DecisionRule m_rule = lbd::kDefaultDecisionRule;
    std::optional<double> m_defer;
    Source m_source = Source::None;
    QString m_sourceLocation;
    lbd::UtilityMatrix m_sourceMatrix;
    bool m_wasModified = false;

    // The last matrix other than one-hot that a change of classes replaced, with its classes and
    // source: brought back when those classes return.
    struct SetAside {
        QStringList classNames;
        lbd::UtilityMatrix matrix;
        QString description;
        Source source = Source::None;
        QString sourceLocation;
        lbd::UtilityMatrix sourceMatrix;
    };
    std::optional<SetAside> m_setAside;
};

} // namespace lbd::ui
