#include "ui/widgets/fhraxes.h"

#include "ui/widgets/throttledplot.h"

#include <QObject>

namespace lbd::ui {

void setUpFhrAxes(ThrottledPlot* plot)
{
    plot->xAxis->setLabel(QObject::tr("head fraction k/C (head = classes before k, head-to-tail order)"));
    // Short enough for a plot half a page high: the definition is in the plot's tooltip and title.
    plot->yAxis->setLabel(QObject::tr("FHR (% of tail images)"));
    plot->setFixedValueRange(0, 100);
    plot->setFixedRange(plot->xAxis, 0, 1);
}

} // namespace lbd::ui
