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

QString fhrPointName(int64_t headClasses, int64_t classCount, double ratio)
{
    return QObject::tr("head = first %1 of %2 classes (r = %3, published-code convention)")
        .arg(headClasses)
        .arg(classCount)
        .arg(ratio, 0, 'g', 3);
}

QString fhrPointShortName(int64_t headClasses, int64_t classCount, double ratio)
{
    return QObject::tr("head %1 of %2 (r = %3)").arg(headClasses).arg(classCount).arg(ratio, 0, 'g', 3);
}

} // namespace lbd::ui
