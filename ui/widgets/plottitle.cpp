#include "ui/widgets/plottitle.h"

#include <qcustomplot.h>

namespace lbd::ui {

void addPlotTitle(QCustomPlot* plot, const QString& title, int pointSize)
{
    plot->plotLayout()->insertRow(0);
    QFont font = plot->font();
    font.setPointSize(pointSize);
    font.setBold(true);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, title, font));
}

} // namespace lbd::ui
