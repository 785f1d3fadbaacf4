#include "ui/utility/utilitydocument.h"

#include "ui/utility/utilitycommands.h"

#include <QFileInfo>
#include <QUndoStack>

#include <cmath>

namespace lbd::ui {

UtilityDocument::UtilityDocument(QObject* parent) : QObject(parent), m_undo(new QUndoStack(this)) {}

void UtilityDocument::setClassNames(const QStringList& classNames)
{
    if (classNames == m_classNames || classNames.isEmpty()) {
        return;
    }
    std::optional<SetAside> aside;
    if (!m_matrix.empty() && !m_matrix.isOneHot()) {
        aside = SetAside{m_classNames, m_matrix, description(), m_source, m_sourceLocation, m_sourceMatrix};
    }
    const bool comesBack = m_setAside && m_setAside->classNames == classNames;
    m_classNames = classNames;
    m_matrix = lbd::UtilityMatrix::oneHot(classNames.size());
    // Undo steps and the source are about matrices of the old size.
    m_undo->clear();
    m_source = Source::None;
    m_sourceLocation.clear();
    m_sourceMatrix = {};
    if (comesBack) {
        m_matrix = m_setAside->matrix;
        m_source = m_setAside->source;
        m_sourceLocation = m_setAside->sourceLocation;
        m_sourceMatrix = m_setAside->sourceMatrix;
    }
    m_wasModified = modifiedSinceSource();
    // The matrix replaced now is kept; one brought back is no longer aside. A one-hot matrix
    // replaced by another keeps the earlier set-aside one waiting for its classes.
    const bool asideChanged = aside.has_value() || comesBack;
    if (aside) {
        m_setAside = std::move(aside);
    } else if (comesBack) {
        m_setAside.reset();
    }
    emit classNamesChanged();
    emit matrixChanged();
    emit sourceChanged();
    if (asideChanged) {
        emit setAsideChanged();
    }
}

QString UtilityDocument::setAsideText() const
{
    if (!m_setAside) {
        return {};
    }
    const QStringList& names = m_setAside->classNames;
    const QString classes = names.size() <= 4 ? names.join(QStringLiteral(", "))
                                              : tr("%1, %2, ... %3").arg(names.value(0), names.value(1), names.last());
    return tr("Your %1 %2 x %2 matrix (classes %3) is kept aside while other classes (%4) are shown. It comes back when "
              "a run or data set with its classes is shown again.")
        .arg(m_setAside->description)
        .arg(names.size())
        .arg(classes)
        .arg(m_classNames.size());
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
    if (modifiedSinceSource() != m_wasModified) {
        m_wasModified = modifiedSinceSource();
        emit sourceChanged();
    }
    return true;
}

bool UtilityDocument::editMatrix(const lbd::UtilityMatrix& after, const QString& text, QString* error)
{
    const QString problem = checkMatrix(after);
    if (!problem.isEmpty()) {
        if (error != nullptr) {
            *error = problem;
        }
        return false;
    }
    if (after != m_matrix) {
        m_undo->push(new UtilityEditCommand(this, m_matrix, after, text));
    }
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
    if (const auto c = tailPenalty()) {
        return tr("tail-sensitive (c = %1)").arg(*c);
    }
    return tr("custom");
}

std::optional<double> UtilityDocument::tailPenalty() const
{
    return lbd::tailPenaltyOf(m_matrix);
}

lbd::UtilitySetting UtilityDocument::setting() const
{
    // The file name (not the path) is kept for people: "matrix from tail2.csv". A matrix edited
    // since no longer is that file's.
    QString origin;
    if ((m_source == Source::SavedFile || m_source == Source::ImportedFile) && !modifiedSinceSource()) {
        origin = QFileInfo(m_sourceLocation).fileName();
    }
    return lbd::utilityFromMatrix(m_matrix, classNameList(), origin.toStdString());
}

bool UtilityDocument::saveToFile(const QString& path, QString* error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("csv") && suffix != QLatin1String("json")) {
        *error = tr("%1 must end in .csv or .json.").arg(path);
        return false;
    }
    try {
        lbd::saveUtilityMatrix(m_matrix, path.toStdString(), classNameList());
    } catch (const std::exception& e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    setSource(Source::SavedFile, path);
    return true;
}

void UtilityDocument::setSource(Source source, const QString& where)
{
    m_source = source;
    m_sourceLocation = source == Source::None ? QString() : where;
    m_sourceMatrix = source == Source::None ? lbd::UtilityMatrix() : m_matrix;
    m_wasModified = false;
    emit sourceChanged();
}

bool UtilityDocument::modifiedSinceSource() const
{
    return m_source != Source::None && m_matrix != m_sourceMatrix;
}

QString UtilityDocument::sourceText() const
{
    const QString name = m_source == Source::Run ? QFileInfo(m_sourceLocation).fileName() : m_sourceLocation;
    const bool modified = modifiedSinceSource();
    switch (m_source) {
    case Source::None: return tr("Not saved to a file");
    case Source::SavedFile: return modified ? tr("Modified since saved to %1").arg(name) : tr("Saved to %1").arg(name);
    case Source::ImportedFile:
        return modified ? tr("Modified since imported from %1").arg(name) : tr("Imported from %1").arg(name);
    case Source::Run:
        return modified ? tr("Modified since taken from run %1").arg(name) : tr("Taken from run %1").arg(name);
    }
    return {};
}

void UtilityDocument::setRule(lbd::DecisionRule rule)
{
    if (rule == m_rule) {
        return;
    }
    m_rule = rule;
    emit ruleChanged();
}

void UtilityDocument::setDeferUtility(std::optional<double> deferUtility)
{
    if (deferUtility && !std::isfinite(*deferUtility)) {
        return; // the controls cannot produce one; a non-finite r has no meaning
    }
    if (deferUtility == m_defer) {
        return;
    }
    m_defer = deferUtility;
    emit deferUtilityChanged();
}

std::optional<double> UtilityDocument::effectiveDeferUtility() const
{
    return lbd::decisionRuleInfo(m_rule).supportsDefer ? m_defer : std::nullopt;
}

QString UtilityDocument::ruleWarning() const
{
    if (m_matrix.empty()) {
        return {};
    }
    const auto warning = lbd::decisionRuleWarning(m_rule, m_matrix);
    return warning ? QString::fromStdString(*warning) : QString();
}

} // namespace lbd::ui
