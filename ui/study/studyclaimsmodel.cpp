#include "ui/study/studyclaimsmodel.h"

#include "core/study/studysummary.h"

#include <QBrush>
#include <QColor>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace lbd::ui {
namespace {

// Light tints, so the default text colour stays readable; the word says the same.
QColor verdictColour(lbd::ClaimOutcome outcome)
{
    switch (outcome) {
    case lbd::ClaimOutcome::Holds: return QColor(198, 239, 206);
    case lbd::ClaimOutcome::Opposite: return QColor(255, 199, 206);
    case lbd::ClaimOutcome::NotDetected: return QColor(255, 235, 156);
    case lbd::ClaimOutcome::NotEnoughSeeds: return QColor(230, 230, 230);
    }
    return {};
}

constexpr lbd::ClaimOutcome kOutcomesByStrength[] = {lbd::ClaimOutcome::Holds, lbd::ClaimOutcome::Opposite,
                                                     lbd::ClaimOutcome::NotDetected, lbd::ClaimOutcome::NotEnoughSeeds};

int countOf(const std::vector<lbd::ClaimVerdict>& verdicts, lbd::ClaimOutcome outcome)
{
    return static_cast<int>(std::count_if(verdicts.begin(), verdicts.end(),
                                          [outcome](const lbd::ClaimVerdict& v) { return v.outcome == outcome; }));
}

} // namespace

StudyClaimsModel::StudyClaimsModel(QObject* parent) : QAbstractTableModel(parent) {}

void StudyClaimsModel::setVerdicts(std::vector<lbd::ClaimVerdict> verdicts)
{
    beginResetModel();
    m_verdicts = std::move(verdicts);
    endResetModel();
}

QString StudyClaimsModel::verdictText(lbd::ClaimOutcome outcome)
{
    switch (outcome) {
    case lbd::ClaimOutcome::Holds: return tr("✓ holds");
    case lbd::ClaimOutcome::Opposite: return tr("✗ opposite");
    case lbd::ClaimOutcome::NotDetected: return tr("○ not detected");
    case lbd::ClaimOutcome::NotEnoughSeeds: return tr("… not enough seeds");
    }
    return {};
}

QString StudyClaimsModel::countsText(const std::vector<lbd::ClaimVerdict>& verdicts)
{
    QStringList parts;
    for (const lbd::ClaimOutcome outcome : kOutcomesByStrength) {
        if (const int n = countOf(verdicts, outcome); n > 0) {
            parts << QStringLiteral("%1 %2").arg(verdictText(outcome).section(QLatin1Char(' '), 0, 0)).arg(n);
        }
    }
    return parts.join(QStringLiteral(" · "));
}

QString StudyClaimsModel::countsSentence(const std::vector<lbd::ClaimVerdict>& verdicts)
{
    const int total = static_cast<int>(verdicts.size());
    QStringList parts;
    parts << tr("%1 of %2 claims hold").arg(countOf(verdicts, lbd::ClaimOutcome::Holds)).arg(total);
    if (const int n = countOf(verdicts, lbd::ClaimOutcome::Opposite); n > 0) {
        parts << tr("%1 opposite").arg(n);
    }
    if (const int n = countOf(verdicts, lbd::ClaimOutcome::NotDetected); n > 0) {
        parts << tr("%1 not detected").arg(n);
    }
    if (const int n = countOf(verdicts, lbd::ClaimOutcome::NotEnoughSeeds); n > 0) {
        parts << tr("%1 without enough seeds").arg(n);
    }
    return parts.join(QStringLiteral(", "));
}

int StudyClaimsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_verdicts.size());
}

int StudyClaimsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString StudyClaimsModel::rowToolTip(const lbd::ClaimVerdict& verdict) const
{
    const lbd::StudyMetric& metric = lbd::studyMetric(verdict.claim.metric);
    QStringList seeds;
    for (size_t i = 0; i < verdict.seeds.size(); ++i) {
        seeds << tr("seed %1: %2").arg(verdict.seeds[i]).arg(verdict.differences[i] * metric.scale, 0, 'f', metric.decimals);
    }
    QString text = QString::fromStdString(lbd::describeComparison(verdict.claim));
    text += tr("\nPaired difference (%1 − %2, same split and training seed): %3")
                .arg(QString::fromStdString(verdict.claim.cell), QString::fromStdString(verdict.claim.against),
                     seeds.isEmpty() ? tr("no seed that both finished") : seeds.join(QStringLiteral("; ")));
    text += tr("\nMean and 95 % Student-t interval over the pairs; holds: the interval lies on the claimed side, "
               "opposite: wholly on the other side, not detected: it straddles it.");
    text += tr("\nThe paper (its own setting, not these runs): %1")
                .arg(verdict.claim.paper.empty() ? tr("no figure") : QString::fromStdString(verdict.claim.paper));
    return text;
}

QVariant StudyClaimsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const lbd::ClaimVerdict& verdict = m_verdicts[static_cast<size_t>(index.row())];
    if (role == Qt::ToolTipRole) {
        return rowToolTip(verdict);
    }
    switch (index.column()) {
    case Claim:
        return role == Qt::DisplayRole ? QVariant(QString::fromStdString(verdict.claim.text)) : QVariant();
    case Effect:
        if (role == Qt::DisplayRole) {
            return QString::fromStdString(lbd::formatPairedEffect(verdict));
        }
        return role == Qt::TextAlignmentRole ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case Seeds:
        if (role == Qt::DisplayRole) {
            return verdict.n;
        }
        return role == Qt::TextAlignmentRole ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case Verdict:
        if (role == Qt::DisplayRole) {
            return verdictText(verdict.outcome);
        }
        if (role == Qt::BackgroundRole) {
            return QBrush(verdictColour(verdict.outcome));
        }
        return role == Qt::ForegroundRole ? QVariant(QBrush(Qt::black)) : QVariant();
    }
    return {};
}

QVariant StudyClaimsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Claim: return tr("The paper's claim");
    case Effect: return tr("Paired difference [95 %]");
    case Seeds: return tr("n");
    case Verdict: return tr("Verdict");
    }
    return {};
}

} // namespace lbd::ui
