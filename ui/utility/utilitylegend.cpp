#include "ui/utility/utilitylegend.h"

#include "ui/style/regioncolors.h"
#include "ui/utility/utilityheatmap.h"

#include <QLinearGradient>
#include <QPainter>

namespace lbd::ui {

UtilityLegend::UtilityLegend(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("utilityLegend"));
    setToolTip(tr("Colour of a cell: green = positive utility (a good decision), white = 0, purple = negative "
                  "(a penalised decision, e.g. a false head). The bar spans -max|U| .. +max|U| (at least -1 .. 1).\n"
                  "Bands along the axes: the class region of each row and column."));
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
}

void UtilityLegend::setScale(double scale)
{
    m_scale = scale;
    update();
}

void UtilityLegend::setRegionScheme(lbd::RegionScheme scheme)
{
    m_scheme = scheme;
    update();
}

QSize UtilityLegend::sizeHint() const
{
    const QFontMetrics fm(font());
    return {std::max(110, fm.horizontalAdvance(tr("Utility U[t, d]")) + 12), 360};
}

void UtilityLegend::paintEvent(QPaintEvent* event)
{
    (void)event;
    QPainter p(this);
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRect(0, 0, width(), fm.height() + 4), Qt::AlignLeft | Qt::AlignVCenter, tr("Utility U[t, d]"));
    p.setFont(font());

    // Colour bar: +scale at the top, -scale at the bottom.
    const int top = fm.height() + 10;
    const int barHeight = std::max(80, height() - top - 5 * (fm.height() + 6) - 10);
    const QRect bar(4, top, 18, barHeight);
    QLinearGradient gradient(bar.topLeft(), bar.bottomLeft());
    for (int i = 0; i <= 20; ++i) {
        const double f = i / 20.0;
        gradient.setColorAt(f, UtilityHeatmap::colorFor(m_scale * (1.0 - 2.0 * f), m_scale));
    }
    p.fillRect(bar, gradient);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    for (int i = 0; i <= 4; ++i) {
        const double f = i / 4.0;
        const int y = bar.top() + int(f * (bar.height() - 1));
        p.drawLine(bar.right(), y, bar.right() + 4, y);
        p.drawText(QRect(bar.right() + 7, y - fm.height() / 2, width() - bar.right() - 7, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, QString::number(m_scale * (1.0 - 2.0 * f), 'g', 3));
    }

    // Region key.
    int y = bar.bottom() + 12;
    p.setFont(bold);
    p.drawText(QRect(0, y, width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter, tr("Regions"));
    p.setFont(font());
    y += fm.height() + 4;
    for (lbd::Region region : {lbd::Region::Head, lbd::Region::Medium, lbd::Region::Tail}) {
        p.fillRect(QRect(4, y + 2, 18, fm.height() - 4), regionColor(region));
        p.drawText(QRect(28, y, width() - 28, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::fromStdString(lbd::regionName(region, m_scheme)));
        y += fm.height() + 4;
    }
}

} // namespace lbd::ui
