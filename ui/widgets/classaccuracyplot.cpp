#include "ui/widgets/classaccuracyplot.h"

#include "ui/style/regioncolors.h"
#include "ui/widgets/throttledplot.h"

#include <algorithm>
#include <limits>

namespace lbd::ui {

void setUpClassAccuracyPlot(ThrottledPlot* plot)
{
    plot->xAxis->setLabel(QObject::tr("training images of the class (log scale)"));
    plot->yAxis->setLabel(QObject::tr("test accuracy of the class (%)"));
    plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setSubTickCount(8);
    plot->xAxis->setTicker(ticker);
    plot->setFixedValueRange(-3, 103);
    plot->placeLegendBelow();
    plot->setToolTip(QObject::tr("One point per class: its test accuracy under the run's rule against how many training "
                                 "images it had. Right-click to export."));
}

void drawClassAccuracy(ThrottledPlot* plot, const std::vector<lbd::GroupAccuracy>& perClass,
                       const std::vector<int64_t>& trainCounts, const std::vector<lbd::Region>& regions)
{
    plot->clearGraphs();
    double lowest = std::numeric_limits<double>::infinity();
    double highest = 0;
    for (lbd::Region region : {lbd::Region::Head, lbd::Region::Medium, lbd::Region::Tail}) {
        QCPGraph* graph = plot->addGraph();
        const QColor colour = regionColor(region);
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour.darker(130), colour, 8));
        int classes = 0;
        const size_t n = std::min({perClass.size(), trainCounts.size(), regions.size()});
        for (size_t c = 0; c < n; ++c) {
            if (regions[c] != region || perClass[c].total == 0 || trainCounts[c] <= 0) {
                continue;
            }
            graph->addData(double(trainCounts[c]), 100.0 * perClass[c].accuracy);
            lowest = std::min(lowest, double(trainCounts[c]));
            highest = std::max(highest, double(trainCounts[c]));
            ++classes;
        }
        graph->setName(QObject::tr("%1 (%2 classes)")
                           .arg(QString::fromStdString(lbd::regionName(region, lbd::RegionScheme::ThirdsByIndex)))
                           .arg(classes));
    }
    if (highest > 0) {
        // A third of a decade of room on each side, so points at the ends are not cut in half.
        plot->setFixedRange(plot->xAxis, lowest / 1.6, highest * 1.6);
    }
    plot->requestReplot();
}

} // namespace lbd::ui
