#pragma once
// The Studies page's claims under the table: one row per claim of the study (core/study/
// studyclaims.h), the paired difference over seeds with its 95 % interval, the number of seed
// pairs and the verdict, as a word and a colour (never the colour alone), in the first column so
// that a glance down the left edge says which claims hold. The same numbers as the
// "claims" section of table.md (core/study/claimverdict.h); the tooltip adds the comparison, each
// seed's difference and the paper's own figure with its setting.
#include <QAbstractTableModel>
#include <QString>

#include "core/study/claimverdict.h"

#include <vector>

namespace lbd::ui {

class StudyClaimsModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StudyClaimsModel)

public:
    enum Column { Verdict, Claim, Effect, Seeds, ColumnCount };

    explicit StudyClaimsModel(QObject* parent = nullptr);

    void setVerdicts(std::vector<lbd::ClaimVerdict> verdicts);
    const std::vector<lbd::ClaimVerdict>& verdicts() const { return m_verdicts; }

    // "✓ holds", "✗ opposite", "○ not detected", "… not enough seeds".
    static QString verdictText(lbd::ClaimOutcome outcome);
    // "✓ 2 · ○ 4 · … 3": how many claims have each verdict, in verdictText's order of strength
    // (holds, opposite, not detected, not enough seeds), verdicts with no claim left out.
    static QString countsText(const std::vector<lbd::ClaimVerdict>& verdicts);
    // "2 of 9 claims hold, 4 not detected, 3 without enough seeds": the same in words.
    static QString countsSentence(const std::vector<lbd::ClaimVerdict>& verdicts);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString rowToolTip(const lbd::ClaimVerdict& verdict) const;

    std::vector<lbd::ClaimVerdict> m_verdicts;
};

} // namespace lbd::ui
