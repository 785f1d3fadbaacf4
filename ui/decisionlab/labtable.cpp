#include "ui/decisionlab/labtable.h"

#include "ui/decisionlab/labtext.h"
#include "ui/widgets/fhraxes.h"

#include <QHeaderView>

#include <vector>

namespace lbd::ui {
namespace {

// "-3.2 pts (-36 %)": the table's narrow form of labtext::change.
QString shortChange(double lab, double baseline)
{
    const QString pts = labtext::points(lab, baseline);
    return baseline > 0.0 ? QStringLiteral("%1 (%2 %)").arg(pts, labtext::signedNumber(100.0 * (lab - baseline) / baseline, 0))
                          : pts;
}

struct Row {
    QString name;
    QString tip;
    QString baseline;
    QString chosen;
    QString difference;
};

} // namespace

DecisionLabTable::DecisionLabTable(QWidget* parent) : QTableWidget(0, 3, parent)
{
    setObjectName(QStringLiteral("labTable"));
    setHorizontalHeaderLabels({tr("one-hot argmax"), tr("chosen rule"), tr("difference")});
    horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // One line per row: the numbers are short, and uneven rows hid the last ones below the fold.
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    setWordWrap(false);
    // Shares a row with a plot: take half the width, not the width of the longest text.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Expanding);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setToolTip(tr("Test-set metrics of the baseline (argmax, U = I) and of the chosen rule under the shared matrix. "
                  "Regions: thirds by class index (the paper). FHR points: head = first int(C*r + 0.5) classes (the "
                  "published code's convention). \u2013: the group has no test images."));
}

void DecisionLabTable::showReports(const lbd::EvaluationReport& base, const lbd::EvaluationReport& lab,
                                   const QString& chosenTitle)
{
    using namespace labtext;
    // Short headers (the table has half the page's width); the full rule and matrix in the tooltip.
    setHorizontalHeaderLabels({tr("one-hot argmax"), tr("chosen"), tr("difference")});
    horizontalHeaderItem(1)->setToolTip(tr("The chosen rule and matrix: %1").arg(chosenTitle));
    horizontalHeaderItem(2)->setToolTip(tr("Chosen minus one-hot argmax, in percentage points (and relative to the "
                                           "baseline, for the False Head Rates)."));
    std::vector<Row> rows;
    rows.push_back({tr("accuracy"), tr("Share of all %1 test images decided as their true class.").arg(lab.imageCount),
                    percent(base.overall), percent(lab.overall), points(lab.overall, base.overall)});
    for (size_t r = 0; r < lab.regionsThirds.regions.size() && r < base.regionsThirds.regions.size(); ++r) {
        const lbd::RegionAccuracy& l = lab.regionsThirds.regions[r];
        const lbd::RegionAccuracy& b = base.regionsThirds.regions[r];
        rows.push_back({tr("%1 accuracy").arg(QString::fromStdString(l.name)),
                        l.counts.total > 0 ? tr("Accuracy on the %1 test images of the %2 classes (thirds by class index).")
                                                 .arg(l.counts.total)
                                                 .arg(QString::fromStdString(l.name))
                                           : tr("The %1 third has no test images here: no accuracy to show.")
                                                 .arg(QString::fromStdString(l.name)),
                        percent(b.counts), percent(l.counts), points(l.counts, b.counts)});
    }
    for (size_t p = 0; p < lab.fhrPoints.size() && p < base.fhrPoints.size(); ++p) {
        const lbd::FhrPoint& l = lab.fhrPoints[p];
        const lbd::FhrPoint& b = base.fhrPoints[p];
        const bool empty = l.split.tailImages == 0;
        rows.push_back({tr("FHR, %1").arg(fhrPointShortName(l.split.headClasses, lab.classCount, l.ratio)),
                        tr("False Head Rate with the first %1 of %2 classes as head: tail images decided as head "
                           "(paper table point; %3 / %4 images for the chosen rule).")
                            .arg(l.split.headClasses)
                            .arg(lab.classCount)
                            .arg(l.split.falseHeads)
                            .arg(l.split.tailImages),
                        empty ? dash() : percent(b.split.rate), empty ? dash() : percent(l.split.rate),
                        empty ? dash() : shortChange(l.split.rate, b.split.rate)});
    }
    rows.push_back({tr("FHR 3-point mean"),
                    tr("Mean of the three FHR points above (r = 0.25 / 0.5 / 0.75, the head being the first int(C r + 0.5) "
                       "classes as in the published code): what the paper's tables average."),
                    percent(base.fhrPointsMean), percent(lab.fhrPointsMean), shortChange(lab.fhrPointsMean, base.fhrPointsMean)});
    rows.push_back({tr("FHR curve mean"), tr("Mean of FHR(k) over every head/tail split k = 1..C-1 (the whole curve)."),
                    percent(base.fhrCurveMean), percent(lab.fhrCurveMean), shortChange(lab.fhrCurveMean, base.fhrCurveMean)});
    rows.push_back({tr("AURC"),
                    tr("Area under the risk-coverage curve: the mean selective risk when only the k most confident "
                       "images are decided, over k = 1..N. Lower is better."),
                    QString::number(base.riskCoverage.aurc, 'f', 4), QString::number(lab.riskCoverage.aurc, 'f', 4),
                    signedNumber(lab.riskCoverage.aurc - base.riskCoverage.aurc, 4)});
    rows.push_back({tr("mean utility"),
                    tr("Mean of U[true class, decision] over the test images under the shared matrix; under one-hot it "
                       "equals the accuracy."),
                    QString::number(base.meanUtility, 'f', 4), QString::number(lab.meanUtility, 'f', 4),
                    signedNumber(lab.meanUtility - base.meanUtility, 4)});

    setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const Row& row = rows[size_t(r)];
        auto* header = new QTableWidgetItem(row.name);
        header->setToolTip(row.tip);
        setVerticalHeaderItem(r, header);
        const QString cells[3] = {row.baseline, row.chosen, row.difference};
        for (int c = 0; c < 3; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(row.tip);
            setItem(r, c, item);
        }
    }
}

QString DecisionLabTable::chosenCell(const QString& row) const
{
    for (int r = 0; r < rowCount(); ++r) {
        if (verticalHeaderItem(r) != nullptr && verticalHeaderItem(r)->text() == row && item(r, 1) != nullptr) {
            return item(r, 1)->text();
        }
    }
    return {};
}

} // namespace lbd::ui
