#include "ui/runs/runcomparisonview.h"
#include "ui/runs/runtablemodel.h"
#include "ui/style/seriescolors.h"

#include "ui/widgets/throttledplot.h"

#include "core/train/runfolder.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QHeaderView>
#include <QSplitter>
#include <QTableWidget>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>

namespace lbd::ui {
namespace {

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

Qt::PenStyle runPenStyle(int index)
{
    // After ten runs the colours repeat; the dash pattern keeps the lines apart.
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    return styles[(index / 10) % 4];
}

QString percent(double fraction) { return QStringLiteral("%1 %").arg(100.0 * fraction, 0, 'f', 2); }

const QString kDash = QStringLiteral("\u2013");

QString optionalPercent(const std::optional<double>& value) { return value ? percent(*value) : kDash; }

QString optionalNumber(const std::optional<double>& value) { return value ? QString::number(*value, 'f', 4) : kDash; }

// One row of the side-by-side table: how to show it and which way is better (for the bold mark).
struct MetricRow {
    QString title;
    QString toolTip;
    std::function<QString(const ComparedRun&)> text;
    std::function<std::optional<double>(const ComparedRun&)> value; // for "best"; empty = no ranking
    int better = 0;                                                  // +1 higher is better, -1 lower
};

std::vector<MetricRow> metricRows()
{
    const auto none = [](const ComparedRun&) { return std::optional<double>(); };
    return {
        {QObject::tr("Status"), QObject::tr("The run's state, or 'damaged' when a run file is unreadable."),
         [](const ComparedRun& r) { return fromStd(r.summary.state) + (r.summary.damaged() ? QObject::tr(" (damaged)") : QString()); },
         none, 0},
        {QObject::tr("Data set"), QObject::tr("The data set the run trained on."),
         [](const ComparedRun& r) { return fromStd(r.summary.dataset); }, none, 0},
        {QObject::tr("Model"), QObject::tr("The particle network's architecture."),
         [](const ComparedRun& r) { return fromStd(r.summary.model); }, none, 0},
        {QObject::tr("M (particles)"), QObject::tr("Number of particles of the LBD ensemble."),
         [](const ComparedRun& r) { return QString::number(r.summary.particles); }, none, 0},
        {QObject::tr("Epochs"), QObject::tr("Epochs completed / planned."),
         [](const ComparedRun& r) { return QStringLiteral("%1/%2").arg(r.summary.epochsDone).arg(r.summary.epochs); }, none, 0},
        {QObject::tr("Device"), QObject::tr("Where the run trained."),
         [](const ComparedRun& r) { return fromStd(r.summary.device); }, none, 0},
        {QObject::tr("Training utility"),
         QObject::tr("The TRAINING utility matrix of the utility term and its form (bounded, published, paper)."),
         [](const ComparedRun& r) { return RunTableModel::trainingText(r.summary); }, none, 0},
        {QObject::tr("Decision"), QObject::tr("How the run decides: its decision matrix (stored by value), rule and defer utility r."),
         [](const ComparedRun& r) { return RunTableModel::decisionText(r.summary); }, none, 0},
        {QObject::tr("Warnings"),
         QObject::tr("The report's warnings: a flagged run's numbers would mislead, so it is never bold as the best."),
         [](const ComparedRun& r) {
             return r.summary.warnings.empty() ? QObject::tr("none") : QObject::tr("\u26a0 %1").arg(r.summary.warnings.size());
         },
         none, 0},
        {QObject::tr("Accuracy"), QObject::tr("Final test accuracy under the run's rule (report.json)."),
         [](const ComparedRun& r) { return optionalPercent(r.summary.accuracy); },
         [](const ComparedRun& r) { return r.summary.accuracy; }, +1},
        {QObject::tr("Head accuracy"), QObject::tr("Test accuracy on the head third of the classes (\u2013: no head classes)."),
         [](const ComparedRun& r) { return optionalPercent(RunTableModel::regionAccuracy(r.summary, lbd::Region::Head)); },
         [](const ComparedRun& r) { return RunTableModel::regionAccuracy(r.summary, lbd::Region::Head); }, +1},
        {QObject::tr("Medium accuracy"), QObject::tr("Test accuracy on the medium third of the classes (\u2013: none)."),
         [](const ComparedRun& r) { return optionalPercent(RunTableModel::regionAccuracy(r.summary, lbd::Region::Medium)); },
         [](const ComparedRun& r) { return RunTableModel::regionAccuracy(r.summary, lbd::Region::Medium); }, +1},
        {QObject::tr("Tail accuracy"), QObject::tr("Test accuracy on the tail third of the classes (the rarest)."),
         [](const ComparedRun& r) { return optionalPercent(RunTableModel::regionAccuracy(r.summary, lbd::Region::Tail)); },
         [](const ComparedRun& r) { return RunTableModel::regionAccuracy(r.summary, lbd::Region::Tail); }, +1},
        {QObject::tr("FHR 3-point mean"),
         QObject::tr("False Head Rate averaged over the paper's three points, whose head is the first int(C r + 0.5) classes "
                     "for r = 0.25, 0.5, 0.75 (the published code's convention): tail images decided as head. Lower is better."),
         [](const ComparedRun& r) { return optionalPercent(r.summary.fhrPointsMean); },
         [](const ComparedRun& r) { return r.summary.fhrPointsMean; }, -1},
        {QObject::tr("FHR curve mean"),
         QObject::tr("False Head Rate averaged over every head/tail split k = 1..C-1. Lower is better."),
         [](const ComparedRun& r) { return optionalPercent(r.summary.fhrCurveMean); },
         [](const ComparedRun& r) { return r.summary.fhrCurveMean; }, -1},
        {QObject::tr("AURC"), QObject::tr("Area under the risk-coverage curve (mean selective risk). Lower is better."),
         [](const ComparedRun& r) { return optionalNumber(r.summary.aurc); }, [](const ComparedRun& r) { return r.summary.aurc; }, -1},
        {QObject::tr("ECE"), QObject::tr("Expected calibration error (15 bins). Lower is better."),
         [](const ComparedRun& r) { return optionalNumber(r.summary.ece); }, [](const ComparedRun& r) { return r.summary.ece; }, -1},
        {QObject::tr("Mean utility"), QObject::tr("Mean U[true class, decision] over the test set under the run's matrix."),
         [](const ComparedRun& r) { return optionalNumber(r.summary.meanUtility); },
         [](const ComparedRun& r) { return r.summary.meanUtility; }, +1},
        {QObject::tr("Best accuracy (epoch)"),
         QObject::tr("The test accuracy at the best evaluation epoch. \"by validation\": the epoch with the highest "
                     "validation accuracy (the run has a validation split). \"test-selected\": the run has none, so the "
                     "epoch is the one with the highest test accuracy itself, an optimistic number."),
         [](const ComparedRun& r) { return bestEpochText(r); }, none, 0},
        {QObject::tr("Final training loss"), QObject::tr("The training objective L, mean over the last epoch."),
         [](const ComparedRun& r) { return r.loss.isEmpty() ? QStringLiteral("—") : QString::number(r.loss.last(), 'f', 4); },
         none, 0},
        {QObject::tr("Training time"), QObject::tr("Wall-clock seconds of training (report.json)."),
         [](const ComparedRun& r) {
             return r.summary.trainSeconds ? QStringLiteral("%1 s").arg(*r.summary.trainSeconds, 0, 'f', 1) : QStringLiteral("—");
         },
         none, 0},
    };
}

} // namespace


RunComparisonView::RunComparisonView(QWidget* parent) : QWidget(parent)
{
    m_plot = new ThrottledPlot(this);
    m_plot->setObjectName(QStringLiteral("runComparisonPlot"));
    m_plot->setMinimumSize(600, 260);
    m_plot->setToolTip(tr("Every compared run in its own colour. Drag to pan, wheel to zoom, double-click to fit, "
                          "right-click to export a PNG."));

    // Title row, a row of three titled panels, and the legend under them.
    QCPLayoutGrid* layout = m_plot->plotLayout();
    QCPAxisRect* first = m_plot->axisRect();
    layout->take(first);
    layout->simplify();
    QFont titleFont = font();
    titleFont.setPointSize(11);
    titleFont.setBold(true);
    m_title = new QCPTextElement(m_plot, tr("Run comparison: select two or more runs and press Compare"), titleFont);
    layout->addElement(0, 0, m_title);
    auto* panels = new QCPLayoutGrid;
    layout->addElement(1, 0, panels);
    auto* margins = new QCPMarginGroup(m_plot);
    QFont panelFont = font();
    panelFont.setBold(true);
    for (int i = 0; i < kPanels; ++i) {
        auto* column = new QCPLayoutGrid;
        panels->addElement(0, i, column);
        m_panelTitles[i] = new QCPTextElement(m_plot, QString(), panelFont);
        column->addElement(0, 0, m_panelTitles[i]);
        QCPAxisRect* rect = i == 0 ? first : new QCPAxisRect(m_plot);
        column->addElement(1, 0, rect);
        column->setRowStretchFactor(0, 0.001);
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
        rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
        rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
        m_rects[i] = rect;
    }

    first->insetLayout()->take(m_plot->legend);
    auto* legendRow = new QCPLayoutGrid;
    layout->addElement(2, 0, legendRow);
    legendRow->addElement(0, 0, m_plot->legend);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    m_plot->legend->setWrap(4);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);
    legendRow->setMargins(QMargins(0, 0, 0, 0));
    layout->setRowStretchFactor(0, 0.001);
    layout->setRowStretchFactor(2, 0.001);

    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("runComparisonTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setToolTip(tr("The compared runs side by side; the best value of each ranked metric is in bold, among the "
                           "runs whose report is not flagged degenerate (\u26a0)."));
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    // A metric picker per panel, over the metrics the compared runs recorded.
    auto* pickers = new QHBoxLayout;
    pickers->setContentsMargins(0, 0, 0, 0);
    const QString positions[kPanels] = {tr("Left"), tr("Middle"), tr("Right")};
    for (int i = 0; i < kPanels; ++i) {
        m_pickers[i] = new QComboBox(this);
        m_pickers[i]->setObjectName(QStringLiteral("comparisonMetric%1").arg(i));
        m_pickers[i]->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        m_pickers[i]->setToolTip(tr("%1 panel: the metric to plot against the epoch. The list holds every metric the "
                                    "compared runs recorded in metrics.jsonl.").arg(positions[i]));
        pickers->addWidget(m_pickers[i]);
        connect(m_pickers[i], &QComboBox::activated, this, [this, i] {
            setPanelMetric(i, m_pickers[i]->currentData().toString().toStdString());
        });
    }
    m_groupSeeds = new QCheckBox(tr("Seeds as one curve"), this);
    m_groupSeeds->setObjectName(QStringLiteral("comparisonGroupSeeds"));
    m_groupSeeds->setChecked(true);
    m_groupSeeds->setToolTip(tr("Runs whose settings differ only in their seeds are drawn as one curve, the mean over "
                                "the seeds, with a band of ± 1 sample standard deviation."));
    connect(m_groupSeeds, &QCheckBox::toggled, this, [this] { setRuns(std::move(m_runs)); });
    pickers->addWidget(m_groupSeeds);
    pickers->addStretch();
    auto* figure = new QWidget(this);
    auto* figureLayout = new QVBoxLayout(figure);
    figureLayout->setContentsMargins(0, 0, 0, 0);
    figureLayout->addLayout(pickers);
    figureLayout->addWidget(m_plot, 1);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(figure);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({900, 520});
    auto* box = new QHBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->addWidget(splitter);
    fillPickers();
    rebuildPlot();
    rebuildTable();
}

void RunComparisonView::clear()
{
    setRuns({});
}

void RunComparisonView::setRuns(std::vector<ComparedRun> runs)
{
    std::map<std::string, int> nameCount;
    for (const ComparedRun& run : runs) {
        ++nameCount[run.summary.name];
    }
    for (ComparedRun& run : runs) {
        const bool unique = !run.summary.name.empty() && nameCount[run.summary.name] == 1;
        run.label = fromStd(unique ? run.summary.name : run.summary.folderName);
    }
    m_runs = std::move(runs);
    std::vector<lbd::RunSummary> summaries;
    for (const ComparedRun& run : m_runs) {
        summaries.push_back(run.summary);
    }
    m_groups.clear();
    for (lbd::RunGroup& group : m_groupSeeds->isChecked() ? lbd::groupRunsBySeed(summaries) // reads each config.json
                                                           : std::vector<lbd::RunGroup>{}) {
        // A run without curves (metrics.jsonl unreadable) is drawn alone, so its legend says why.
        lbd::RunGroup readable{group.name, {}, {}};
        for (size_t k = 0; k < group.members.size(); ++k) {
            if (m_runs[group.members[k]].error.isEmpty()) {
                readable.members.push_back(group.members[k]);
                readable.seeds.push_back(group.seeds[k]);
            }
        }
        if (!readable.members.empty()) {
            m_groups.push_back(std::move(readable));
        }
    }
    for (size_t i = 0; i < m_runs.size(); ++i) {
        bool grouped = false;
        for (const lbd::RunGroup& group : m_groups) {
            grouped = grouped || std::find(group.members.begin(), group.members.end(), i) != group.members.end();
        }
        if (!grouped) {
            m_groups.push_back({m_runs[i].label.toStdString(), {i}, {}});
        }
    }
    std::sort(m_groups.begin(), m_groups.end(), [](const lbd::RunGroup& a, const lbd::RunGroup& b) {
        return a.members.front() < b.members.front(); // in the order of the runs given
    });
    m_runColor.assign(m_runs.size(), 0);
    for (size_t g = 0; g < m_groups.size(); ++g) {
        for (const size_t member : m_groups[g].members) {
            m_runColor[member] = static_cast<int>(g);
        }
    }
    fillPickers();
    rebuildPlot();
    rebuildTable();
}

QString RunComparisonView::groupLabel(const QString& name, const std::vector<int64_t>& seeds)
{
    QStringList list;
    for (const int64_t seed : seeds) {
        list << QString::number(seed);
    }
    return tr("%1: mean of seeds %2").arg(name, list.join(QStringLiteral(", ")));
}

void RunComparisonView::fillPickers()
{
    for (int i = 0; i < kPanels; ++i) {
        QComboBox* picker = m_pickers[i];
        const QSignalBlocker blocker(picker);
        picker->clear();
        for (const ComparisonMetric& metric : comparisonMetrics()) {
            bool recorded = m_runs.empty(); // nothing compared yet: list everything
            for (const ComparedRun& run : m_runs) {
                recorded = recorded || run.curves.count(metric.key) > 0;
            }
            if (recorded || metric.key == m_panelMetrics[i]) {
                picker->addItem(metric.title, QString::fromStdString(metric.key));
                picker->setItemData(picker->count() - 1, metric.help, Qt::ToolTipRole);
            }
        }
        picker->setCurrentIndex(picker->findData(QString::fromStdString(m_panelMetrics[i])));
    }
}

bool RunComparisonView::setPanelMetric(int panel, const std::string& key)
{
    if (panel < 0 || panel >= kPanels || !comparisonMetric(key)) {
        return false;
    }
    const int index = m_pickers[panel]->findData(QString::fromStdString(key));
    if (index < 0) {
        return false;
    }
    m_panelMetrics[panel] = key;
    const QSignalBlocker blocker(m_pickers[panel]);
    m_pickers[panel]->setCurrentIndex(index);
    rebuildPlot();
    return true;
}

void RunComparisonView::setGroupSeeds(bool on)
{
    m_groupSeeds->setChecked(on); // toggled rebuilds
}

void RunComparisonView::addCurve(const std::vector<size_t>& members, const QString& name, const QColor& color, int index)
{
    const QPen pen(color, 2.0, runPenStyle(index));
    for (int panel = 0; panel < kPanels; ++panel) {
        QCPAxisRect* rect = m_rects[panel];
        QCPGraph* graph = m_plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        graph->setPen(pen);
        graph->setName(name);
        if (panel > 0) {
            graph->removeFromLegend(); // one legend entry per curve
        }
        std::vector<const MetricCurve*> curves;
        for (const size_t member : members) {
            const auto it = m_runs[member].curves.find(m_panelMetrics[panel]);
            curves.push_back(it == m_runs[member].curves.end() ? nullptr : &it->second);
        }
        if (members.size() == 1) {
            if (curves[0]) {
                graph->setData(curves[0]->epochs, curves[0]->values, true);
            }
            if (!curves[0] || curves[0]->epochs.size() <= 12) {
                graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, pen.color(), pen.color(), 5));
            }
            continue;
        }
        // A seed group: the mean, and a band of ± 1 sample std where two or more seeds recorded the epoch.
        const GroupCurve group = groupCurve(curves);
        graph->setData(group.epochs, group.mean, true);
        QVector<double> upper, lower;
        for (int i = 0; i < group.epochs.size(); ++i) {
            const double spread = std::isfinite(group.std[i]) ? group.std[i] : 0.0;
            upper << group.mean[i] + spread;
            lower << group.mean[i] - spread;
        }
        QCPGraph* high = m_plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        QCPGraph* low = m_plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        high->setName(name + tr(" + 1 std"));
        low->setName(name + tr(" - 1 std"));
        high->setData(group.epochs, upper, true);
        low->setData(group.epochs, lower, true);
        QColor fill = color;
        fill.setAlpha(55);
        for (QCPGraph* edge : {high, low}) {
            edge->setPen(Qt::NoPen);
            edge->removeFromLegend();
        }
        low->setBrush(fill);
        low->setChannelFillGraph(high);
    }
}

void RunComparisonView::rebuildPlot()
{
    m_plot->clearGraphs();
    m_title->setText(m_runs.empty() ? tr("Run comparison: select two or more runs and press Compare")
                                    : tr("Run comparison (%1 runs)").arg(m_runs.size()));
    for (int panel = 0; panel < kPanels; ++panel) {
        const ComparisonMetric* metric = comparisonMetric(m_panelMetrics[panel]);
        QCPAxisRect* rect = m_rects[panel];
        m_panelTitles[panel]->setText(metric->title);
        rect->axis(QCPAxis::atLeft)->setLabel(metric->axis);
        rect->axis(QCPAxis::atBottom)->setLabel(tr("epoch"));
        if (metric->percent) {
            // A little beyond [0, 100] so that runs at 0 % or 100 % are not drawn on the frame.
            m_plot->setFixedRange(rect->axis(QCPAxis::atLeft), -3, 103);
        } else {
            m_plot->clearFixedRange(rect->axis(QCPAxis::atLeft));
        }
    }
    for (size_t g = 0; g < m_groups.size(); ++g) {
        const lbd::RunGroup& group = m_groups[g];
        const int colorIndex = static_cast<int>(g);
        if (group.members.size() == 1) {
            const ComparedRun& run = m_runs[group.members.front()];
            const QString name = run.error.isEmpty() ? run.label : tr("%1 (no curves: metrics.jsonl unreadable)").arg(run.label);
            addCurve(group.members, name, seriesColor(colorIndex), colorIndex);
        } else {
            addCurve(group.members, groupLabel(QString::fromStdString(group.name), group.seeds), seriesColor(colorIndex), colorIndex);
        }
    }
    m_plot->fitToData();
    // Single-epoch runs: give the epoch axes some width.
    for (QCPAxisRect* rect : m_rects) {
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        if (x->range().size() < 1) {
            x->setRange(x->range().center() - 1, x->range().center() + 1);
        }
    }
    // fitToData pads only the first panel's value axis; keep the other panels' curves off the frame too.
    for (int panel = 1; panel < kPanels; ++panel) {
        if (!comparisonMetric(m_panelMetrics[panel])->percent) {
            QCPAxis* axis = m_rects[panel]->axis(QCPAxis::atLeft);
            const QCPRange range = axis->range();
            axis->setRange(range.lower - 0.05 * range.size(), range.upper + 0.05 * range.size());
        }
    }
    m_plot->replot();
}

void RunComparisonView::rebuildTable()
{
    std::vector<MetricRow> rows = metricRows();
    // Then only the settings that differ, so what changed between the runs is read at a glance.
    std::vector<FlatConfig> configs;
    for (const ComparedRun& run : m_runs) {
        configs.push_back(run.config);
    }
    for (const std::string& key : differingKeys(configs)) {
        rows.push_back({QObject::tr("config: %1").arg(fromStd(key)),
                        QObject::tr("A config.json setting that differs between the compared runs (settings that are the "
                                    "same in every run are not listed)."),
                        [key](const ComparedRun& r) {
                            const auto it = r.config.find(key);
                            return it == r.config.end() ? kDash : fromStd(it->second);
                        },
                        [](const ComparedRun&) { return std::optional<double>(); }, 0});
    }
    // And where and how they were made, when that differs (another commit, machine, GPU or data).
    std::vector<FlatConfig> environments;
    for (const ComparedRun& run : m_runs) {
        environments.push_back(run.environment);
    }
    for (const std::string& key : differingKeys(environments)) {
        rows.push_back({QObject::tr("environment: %1").arg(fromStd(key)),
                        QObject::tr("Where and how the runs were made differs here (run.json's provenance: the build and "
                                    "its commit, the command line, the machine, the GPU software, the data's "
                                    "fingerprint; what is the same in every run is not listed)."),
                        [key](const ComparedRun& r) {
                            const auto it = r.environment.find(key);
                            return it == r.environment.end() ? kDash : fromStd(it->second);
                        },
                        [](const ComparedRun&) { return std::optional<double>(); }, 0});
    }
    m_table->clear();
    m_table->setRowCount(static_cast<int>(rows.size()));
    m_table->setColumnCount(static_cast<int>(m_runs.size()));
    for (size_t c = 0; c < m_runs.size(); ++c) {
        const lbd::RunSummary& summary = m_runs[c].summary;
        auto* header = new QTableWidgetItem(summary.warnings.empty() ? m_runs[c].label : QStringLiteral("\u26a0 ") + m_runs[c].label);
        header->setForeground(seriesColor(m_runColor.empty() ? static_cast<int>(c) : m_runColor[c])); // its curve's colour
        QString tip = fromStd(summary.directory) // the folder, kept out of the cells for width
                      + (m_runs[c].error.isEmpty() ? QString() : QStringLiteral("\n") + m_runs[c].error);
        for (const std::string& warning : summary.warnings) {
            tip += QStringLiteral("\nWarning: ") + fromStd(warning);
        }
        header->setToolTip(tip);
        m_table->setHorizontalHeaderItem(static_cast<int>(c), header);
    }
    for (size_t r = 0; r < rows.size(); ++r) {
        const MetricRow& row = rows[r];
        auto* header = new QTableWidgetItem(row.title);
        header->setToolTip(row.toolTip);
        m_table->setVerticalHeaderItem(static_cast<int>(r), header);
        std::optional<double> best;
        if (row.better != 0) {
            for (const ComparedRun& run : m_runs) {
                if (!run.summary.warnings.empty()) {
                    continue; // a degenerate run is never the best (a collapsed rule's 0 % FHR is no win)
                }
                const auto value = row.value(run);
                if (value && (!best || (row.better > 0 ? *value > *best : *value < *best))) {
                    best = value;
                }
            }
        }
        for (size_t c = 0; c < m_runs.size(); ++c) {
            auto* item = new QTableWidgetItem(row.text(m_runs[c]));
            item->setToolTip(row.toolTip);
            item->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter); // right-aligned, a wide column hid its values off-screen
            const auto value = row.better != 0 ? row.value(m_runs[c]) : std::nullopt;
            if (!m_runs[c].summary.warnings.empty() && row.better != 0) {
                item->setForeground(QColor(0xb3, 0x5c, 0x00));
                item->setToolTip(row.toolTip + QObject::tr("\nThis run's report is flagged (see the \u26a0 in its column header): "
                                                          "not ranked."));
            } else if (m_runs.size() > 1 && best && value && *value == *best) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            m_table->setItem(static_cast<int>(r), static_cast<int>(c), item);
        }
    }
}

bool RunComparisonView::savePng(const QString& path, QString* error)
{
    if (m_runs.empty()) {
        *error = tr("Nothing to save: compare two or more runs first.");
        return false;
    }
    if (!m_plot->savePng(path, kExportWidth, kExportHeight) || QFileInfo(path).size() == 0) {
        *error = tr("Could not write the PNG %1 (is the folder writable?).").arg(path);
        return false;
    }
    return true;
}

bool RunComparisonView::savePdf(const QString& path, QString* error)
{
    if (m_runs.empty()) {
        *error = tr("Nothing to save: compare two or more runs first.");
        return false;
    }
    if (!m_plot->savePdf(path, kExportWidth, kExportHeight, QCP::epAllowCosmetic, tr("LBD Studio"), tr("Run comparison"))
        || QFileInfo(path).size() == 0) {
        *error = tr("Could not write the PDF %1 (is the folder writable?).").arg(path);
        return false;
    }
    return true;
}

} // namespace lbd::ui
