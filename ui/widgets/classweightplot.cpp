#include "ui/widgets/classweightplot.h"

#include "core/data/regions.h"
#include "ui/style/regioncolors.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace lbd::ui {

ClassWeightPlot::ClassWeightPlot(QWidget* parent) : QWidget(parent)
{
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("classWeightPlot"));
    m_plot->setMinimumHeight(140);
    m_plot->xAxis->setLabel(tr("class (head to tail)"));
    m_plot->yAxis->setLabel(tr("w_c / mean"));
    m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setTickLabelFont(small);
        axis->setLabelFont(small);
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setToolTip(tr("Relative weight of one training image of each class in the weighted cross-entropy "
                  "(after the DRW epoch), normalised to mean 1."));
}

std::vector<double> ClassWeightPlot::setWeights(const std::vector<int64_t>& counts, const lbd::DiscrepancySpec& spec)
{
    m_plot->clearPlottables();
    std::vector<double> weights;
    try {
        weights = lbd::classWeights(counts, spec);
    } catch (const std::exception&) {
        weights.clear();
    }
    if (weights.empty()) {
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return weights;
    }
    double mean = 0;
    for (double w : weights) {
        mean += w;
    }
    mean /= double(weights.size());
    const std::vector<lbd::Region> regions = lbd::classRegions(counts, lbd::RegionScheme::ThirdsByIndex);
    double lo = 1, hi = 1;
    for (int r = 0; r < 3; ++r) {
        auto* bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setWidth(0.8);
        bars->setBrush(regionColor(static_cast<lbd::Region>(r)));
        bars->setPen(Qt::NoPen);
        bars->setBaseValue(1e-6);
        for (size_t c = 0; c < weights.size(); ++c) {
            if (static_cast<int>(regions[c]) == r) {
                const double v = mean > 0 ? weights[c] / mean : weights[c];
                bars->addData(double(c), v);
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
    }
    m_plot->xAxis->setRange(-0.6, double(weights.size()) - 0.4);
    m_plot->yAxis->setRange(lo / 1.6, hi * 1.6);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    return weights;
}

} // namespace lbd::ui
