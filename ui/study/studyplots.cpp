#include "ui/study/studyplots.h"

#include "ui/style/seriescolors.h"
#include "ui/widgets/plottitle.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace lbd::ui {
namespace {

constexpr int kExportWidth = 1000;
constexpr int kExportHeight = 650;

QString axisLabel(const lbd::StudyMetric& metric)
{
    const QString title = QString::fromStdString(metric.title);
    return metric.unit.empty() ? title : QStringLiteral("%1 (%2)").arg(title, QString::fromStdString(metric.unit));
}

// NaN (one seed: no spread) draws no error bar rather than a zero-length one that reads as certainty.
double spread(const lbd::SampleSummary& sample, double scale)
{
    return sample.n >= 2 && std::isfinite(sample.std) ? sample.std * scale : 0.0;
}

const lbd::SampleSummary* cellSample(const lbd::CellSummary& cell, const std::string& key)
{
    const auto found = cell.metrics.find(key);
    return found != cell.metrics.end() && found->second.n > 0 ? &found->second : nullptr;
}

QCustomPlot* makePlot(const QString& objectName, const QString& toolTip, QWidget* parent)
{
    auto* plot = new QCustomPlot(parent);
    plot->setObjectName(objectName);
    plot->setToolTip(toolTip);
    plot->setMinimumSize(320, 240);
    plot->setNoAntialiasingOnDrag(true);
    return plot;
}

void resetPlot(QCustomPlot* plot, const QString& title)
{
    plot->clearPlottables();
    plot->clearItems();
    if (plot->plotLayout()->rowCount() > 1) {
        plot->plotLayout()->remove(plot->plotLayout()->element(0, 0)); // the old title
        plot->plotLayout()->simplify();
    }
    addPlotTitle(plot, title, 10);
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot->xAxis->setTickLabelRotation(0);
    plot->legend->setVisible(true);
    plot->legend->setBrush(QColor(255, 255, 255, 220));
}

void addErrorBars(QCustomPlot* plot, QCPAbstractPlottable* data, const QVector<double>& errors, const QColor& color)
{
    auto* bars = new QCPErrorBars(plot->xAxis, plot->yAxis);
    bars->setDataPlottable(data);
    bars->setData(errors);
    bars->setPen(QPen(color.darker(160), 1.5));
    bars->setWhiskerWidth(8);
    bars->removeFromLegend();
}

} // namespace

std::optional<double> levelNumber(const std::string& label)
{
    const size_t equals = label.rfind('=');
    const QString text = QString::fromStdString(equals == std::string::npos ? label : label.substr(equals + 1)).trimmed();
    bool ok = false;
    const double value = text.toDouble(&ok);
    return ok && std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

StudyPlots::StudyPlots(QWidget* parent) : QWidget(parent)
{
    m_metric = new QComboBox(this);
    m_metric->setObjectName(QStringLiteral("studyPlotMetric"));
    m_metric->setToolTip(tr("The metric of the bar chart and of the plot against a numeric factor: the mean over "
                            "seeds with ± 1 sample standard deviation as error bars."));
    for (const lbd::StudyMetric& metric : lbd::studyMetrics()) {
        m_metric->addItem(axisLabel(metric), QString::fromStdString(metric.key));
        m_metric->setItemData(m_metric->count() - 1, QString::fromStdString(metric.help), Qt::ToolTipRole);
    }
    m_bars = makePlot(QStringLiteral("studyBarPlot"),
                      tr("One bar per cell: the mean over its finished seeds, ± 1 sample std as error bars; the "
                         "dots are the single seeds."), this);
    m_factor = makePlot(QStringLiteral("studyFactorPlot"),
                        tr("The metric against a factor whose levels are numbers (the paper's Figure 3 for M): "
                           "mean over seeds ± 1 sample std."), this);
    m_fhr = makePlot(QStringLiteral("studyFhrPlot"),
                     tr("False Head Rate curve per cell: the share of tail test images decided as one of the k "
                        "largest classes, for every k; the band is ± 1 sample std over seeds. Lower is better."), this);
    m_zoomBars = new QCheckBox(tr("Zoom bars"), this);
    m_zoomBars->setObjectName(QStringLiteral("studyZoomBars"));
    m_zoomBars->setToolTip(tr("Fit the bar chart's value axis to the values instead of starting it at 0: cells a "
                              "point or two apart (90 % against 91 %) become visible. The plot's title then says "
                              "that the axis does not start at 0, since the bars' heights no longer compare."));
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("studyPlotTabs"));
    m_tabs->addTab(m_bars, tr("Bars"));
    m_tabs->addTab(m_factor, tr("Against a factor"));
    m_tabs->addTab(m_fhr, tr("FHR curves"));
    m_pngButton = new QPushButton(tr("Save plot as PNG…"), this);
    m_pngButton->setObjectName(QStringLiteral("saveStudyPlotPng"));
    m_pngButton->setToolTip(tr("Save the plot of the open tab as a PNG image (%1 x %2 pixels).")
                                .arg(kExportWidth).arg(kExportHeight));
    m_pdfButton = new QPushButton(tr("Save plot as PDF…"), this);
    m_pdfButton->setObjectName(QStringLiteral("saveStudyPlotPdf"));
    m_pdfButton->setToolTip(tr("Save the plot of the open tab as a vector PDF, for a paper or report."));

    auto* top = new QHBoxLayout;
    auto* metricLabel = new QLabel(tr("Metric"), this);
    metricLabel->setBuddy(m_metric);
    top->addWidget(metricLabel);
    top->addWidget(m_metric, 1);
    top->addWidget(m_zoomBars);
    top->addWidget(m_pngButton);
    top->addWidget(m_pdfButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_tabs, 1);

    connect(m_metric, &QComboBox::currentIndexChanged, this, &StudyPlots::redraw);
    connect(m_zoomBars, &QCheckBox::toggled, this, &StudyPlots::redraw);
    connect(m_pngButton, &QPushButton::clicked, this, [this] { askSave(false); });
    connect(m_pdfButton, &QPushButton::clicked, this, [this] { askSave(true); });
    clear();
}

void StudyPlots::setSummary(const lbd::StudySummary& summary, const std::vector<std::string>& factorKeys)
{
    m_summary = summary;
    m_numericFactor.reset();
    // A factor is numeric when it sets one config key and every cell's level of it is a number.
    for (size_t f = 0; f < factorKeys.size() && !m_numericFactor; ++f) {
        const bool numeric = !factorKeys[f].empty() && !summary.cells.empty()
                             && std::all_of(summary.cells.begin(), summary.cells.end(), [f](const lbd::CellSummary& cell) {
                                    return f < cell.levelLabels.size() && levelNumber(cell.levelLabels[f]).has_value();
                                });
        if (numeric) {
            m_numericFactor = f;
        }
    }
    m_tabs->setTabVisible(1, m_numericFactor.has_value());
    if (m_numericFactor) {
        m_tabs->setTabText(1, tr("Against %1").arg(QString::fromStdString(summary.factorNames[*m_numericFactor])));
    }
    redraw();
}

void StudyPlots::clear()
{
    setSummary({}, {});
}

void StudyPlots::setMetric(const std::string& key)
{
    const int index = m_metric->findData(QString::fromStdString(key));
    if (index >= 0) {
        m_metric->setCurrentIndex(index);
    }
}

std::string StudyPlots::metric() const
{
    return m_metric->currentData().toString().toStdString();
}

void StudyPlots::redraw()
{
    const std::string key = metric();
    const lbd::StudyMetric& chosen = lbd::studyMetric(key.empty() ? "accuracy" : key);
    drawBars(chosen);
    drawFactor(chosen);
    drawFhr();
    const bool any = !m_summary.cells.empty();
    m_pngButton->setEnabled(any);
    m_pdfButton->setEnabled(any);
}

void StudyPlots::drawBars(const lbd::StudyMetric& metric)
{
    const bool zoom = m_zoomBars->isChecked();
    resetPlot(m_bars, (zoom ? tr("%1 per cell (mean ± 1 std over seeds; axis zoomed, not from 0)")
                            : tr("%1 per cell (mean ± 1 std over seeds)"))
                          .arg(QString::fromStdString(metric.title)));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    auto* bars = new QCPBars(m_bars->xAxis, m_bars->yAxis);
    bars->setName(tr("mean over seeds (± 1 std)"));
    bars->setWidth(0.6);
    bars->setBrush(seriesColor(0).lighter(130));
    bars->setPen(QPen(seriesColor(0).darker(130)));
    auto* seeds = m_bars->addGraph();
    seeds->setName(tr("single seeds"));
    seeds->setLineStyle(QCPGraph::lsNone);
    seeds->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(0x33, 0x33, 0x33), Qt::white, 6));
    QVector<double> x, y, errors;
    double top = 0;
    double bottom = std::numeric_limits<double>::infinity(); // the lowest value or error bar drawn
    for (size_t i = 0; i < m_summary.cells.size(); ++i) {
        const lbd::CellSummary& cell = m_summary.cells[i];
        const double position = static_cast<double>(i + 1);
        ticker->addTick(position, QString::fromStdString(cell.label));
        const lbd::SampleSummary* sample = cellSample(cell, metric.key);
        if (!sample) {
            continue; // no finished run: no bar (a zero-height bar would read as 0 %)
        }
        x << position;
        y << sample->mean * metric.scale;
        errors << spread(*sample, metric.scale);
        top = std::max(top, y.back() + errors.back());
        bottom = std::min(bottom, y.back() - errors.back());
        for (double value : sample->values) {
            seeds->addData(position, value * metric.scale);
            top = std::max(top, value * metric.scale);
            bottom = std::min(bottom, value * metric.scale);
        }
    }
    bars->setData(x, y, true);
    addErrorBars(m_bars, bars, errors, seriesColor(0));
    m_bars->xAxis->setTicker(ticker);
    m_bars->xAxis->setTickLabelRotation(m_summary.cells.size() > 4 ? 30 : 0);
    m_bars->xAxis->setLabel(m_summary.factorNames.size() == 1 ? QString::fromStdString(m_summary.factorNames[0]) : tr("cell"));
    m_bars->xAxis->setRange(0.4, static_cast<double>(m_summary.cells.size()) + 0.6);
    m_bars->yAxis->setLabel(axisLabel(metric));
    if (zoom && !x.isEmpty()) {
        // A margin of a fifth of the values' span below them, and room for the legend above.
        const double span = std::max(top - bottom, 1e-3 * std::max(std::abs(top), 1.0));
        m_bars->yAxis->setRange(bottom - 0.2 * span, top + 0.6 * span);
    } else {
        m_bars->yAxis->setRange(0, top > 0 ? top * 1.3 : 1); // room for the legend above the bars
    }
    m_bars->legend->setVisible(!x.isEmpty());
    m_bars->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_bars->replot(QCustomPlot::rpQueuedReplot);
}

void StudyPlots::drawFactor(const lbd::StudyMetric& metric)
{
    if (!m_numericFactor) {
        resetPlot(m_factor, tr("No factor of this study has numeric levels"));
        m_factor->legend->setVisible(false);
        m_factor->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const size_t f = *m_numericFactor;
    const QString factor = QString::fromStdString(m_summary.factorNames[f]);
    resetPlot(m_factor, tr("%1 against %2 (mean ± 1 std over seeds)").arg(QString::fromStdString(metric.title), factor));
    // One series per combination of the other factors' levels, in the order cells first show it.
    struct Point { double x, mean, error; };
    std::vector<std::pair<QString, std::vector<Point>>> series;
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (const lbd::CellSummary& cell : m_summary.cells) {
        QStringList others;
        for (size_t g = 0; g < cell.levelLabels.size(); ++g) {
            if (g != f) {
                others << QString::fromStdString(cell.levelLabels[g]);
            }
        }
        const QString name = others.isEmpty() ? tr("mean over seeds (± 1 std)") : others.join(QStringLiteral(", "));
        auto it = std::find_if(series.begin(), series.end(), [&](const auto& s) { return s.first == name; });
        if (it == series.end()) {
            it = series.insert(series.end(), {name, {}});
        }
        if (const lbd::SampleSummary* sample = cellSample(cell, metric.key)) {
            const Point point{*levelNumber(cell.levelLabels[f]), sample->mean * metric.scale, spread(*sample, metric.scale)};
            it->second.push_back(point);
            low = std::min(low, point.mean - point.error);
            high = std::max(high, point.mean + point.error);
        }
    }
    auto levelTicks = QSharedPointer<QCPAxisTickerText>::create(); // ticks at the levels only: no "M = 1.5"
    for (const lbd::CellSummary& cell : m_summary.cells) {
        const double value = *levelNumber(cell.levelLabels[f]);
        levelTicks->addTick(value, QString::number(value));
    }
    m_factor->xAxis->setTicker(levelTicks);
    for (size_t s = 0; s < series.size(); ++s) {
        std::vector<Point>& points = series[s].second;
        std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
        QVector<double> x, y, errors;
        for (const Point& point : points) {
            x << point.x;
            y << point.mean;
            errors << point.error;
        }
        const QColor color = seriesColor(static_cast<int>(s));
        QCPGraph* graph = m_factor->addGraph();
        graph->setName(series[s].first);
        graph->setPen(QPen(color, 2));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, 7));
        graph->setData(x, y, true);
        addErrorBars(m_factor, graph, errors, color);
    }
    m_factor->xAxis->setLabel(tr("%1 (the level's number)").arg(factor));
    m_factor->yAxis->setLabel(axisLabel(metric));
    m_factor->rescaleAxes();
    m_factor->xAxis->scaleRange(1.15, m_factor->xAxis->range().center());
    if (std::isfinite(low) && std::isfinite(high)) {
        const double margin = std::max(0.5, 0.15 * (high - low));
        m_factor->yAxis->setRange(low - margin, high + margin);
    }
    m_factor->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    m_factor->replot(QCustomPlot::rpQueuedReplot);
}

void StudyPlots::drawFhr()
{
    resetPlot(m_fhr, tr("False Head Rate per cell (band: ± 1 std over seeds)"));
    int drawn = 0;
    for (size_t i = 0; i < m_summary.cells.size(); ++i) {
        const lbd::CellSummary& cell = m_summary.cells[i];
        if (cell.fhrCurve.empty()) {
            continue;
        }
        const QColor color = seriesColor(static_cast<int>(i));
        QCPGraph* mean = m_fhr->addGraph();
        QCPGraph* lower = m_fhr->addGraph();
        QCPGraph* upper = m_fhr->addGraph();
        for (const lbd::FhrCurvePoint& point : cell.fhrCurve) {
            const double x = point.headClasses;
            const double y = point.rate.mean * 100;
            const double error = spread(point.rate, 100);
            mean->addData(x, y);
            lower->addData(x, y - error);
            upper->addData(x, y + error);
        }
        mean->setName(QString::fromStdString(cell.label));
        mean->setPen(QPen(color, 2));
        mean->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, 5));
        for (QCPGraph* edge : {lower, upper}) {
            edge->setPen(Qt::NoPen);
            edge->removeFromLegend();
        }
        QColor band = color;
        band.setAlpha(50);
        upper->setBrush(band);
        upper->setChannelFillGraph(lower);
        ++drawn;
    }
    auto wholeClasses = QSharedPointer<QCPAxisTickerFixed>::create(); // k counts classes: whole numbers
    wholeClasses->setTickStep(1.0);
    wholeClasses->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_fhr->xAxis->setTicker(wholeClasses);
    m_fhr->xAxis->setLabel(tr("Head classes k (the k largest classes count as head)"));
    m_fhr->yAxis->setLabel(tr("False Head Rate (%)"));
    m_fhr->rescaleAxes();
    m_fhr->xAxis->scaleRange(1.1, m_fhr->xAxis->range().center());
    m_fhr->yAxis->setRange(0, std::max(10.0, std::min(100.0, m_fhr->yAxis->range().upper * 1.1)));
    m_fhr->legend->setVisible(drawn > 0);
    m_fhr->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    m_fhr->replot(QCustomPlot::rpQueuedReplot);
}

bool StudyPlots::saveCurrent(const QString& path, bool pdf, QString* error)
{
    auto* plot = qobject_cast<QCustomPlot*>(m_tabs->currentWidget());
    if (!plot || m_summary.cells.empty()) {
        *error = tr("Nothing to save: no study results are shown.");
        return false;
    }
    const bool ok = pdf ? plot->savePdf(path, kExportWidth, kExportHeight, QCP::epAllowCosmetic, tr("LBD Studio"),
                                        m_tabs->tabText(m_tabs->currentIndex()))
                        : plot->savePng(path, kExportWidth, kExportHeight);
    if (!ok || QFileInfo(path).size() == 0) {
        *error = tr("Could not write %1 (is the folder writable?).").arg(path);
        return false;
    }
    return true;
}

void StudyPlots::askSave(bool pdf)
{
    const QString suffix = pdf ? QStringLiteral("pdf") : QStringLiteral("png");
    const QString name = QString::fromStdString(m_summary.name) + QLatin1Char('-')
                         + m_tabs->tabText(m_tabs->currentIndex()).toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
    QString path = QFileDialog::getSaveFileName(this, pdf ? tr("Save the plot as PDF") : tr("Save the plot as PNG"),
                                                name + QLatin1Char('.') + suffix,
                                                pdf ? tr("PDF document (*.pdf)") : tr("PNG image (*.png)"));
    if (path.isEmpty()) {
        return;
    }
    if (QFileInfo(path).suffix().compare(suffix, Qt::CaseInsensitive) != 0) {
        path += QLatin1Char('.') + suffix;
    }
    QString error;
    if (saveCurrent(path, pdf, &error)) {
        emit message(tr("Saved the plot as %1.").arg(path), false);
    } else {
        emit message(error, true);
    }
}

} // namespace lbd::ui
