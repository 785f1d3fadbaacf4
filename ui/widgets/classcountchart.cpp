#include "ui/widgets/classcountchart.h"

#include "core/data/regions.h"
#include "ui/style/regioncolors.h"
#include "ui/widgets/chartpalette.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>
#include <QEvent>
#include <QFontMetrics>
#include <QToolTip>

#include <algorithm>

namespace lbd::ui {

ClassCountChart::ClassCountChart(QWidget* parent) : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(190);
    chart()->setMargins(QMargins(2, 2, 2, 2));
    chart()->legend()->setAlignment(Qt::AlignTop);
    chart()->setBackgroundRoundness(0);
    m_about = tr("Training images per class after the long-tailed split, head to tail. "
                 "Colours: head / med / tail thirds by class index (the paper's regions).");
    setToolTip(m_about);
    showMessage(tr("No data set chosen"));
}

void ClassCountChart::showMessage(const QString& message)
{
    m_counts.clear();
    m_names.clear();
    chart()->removeAllSeries();
    for (QAbstractAxis* axis : chart()->axes()) {
        chart()->removeAxis(axis);
        delete axis;
    }
    setTitle(message);
    applyChartPalette(chart(), palette());
}

void ClassCountChart::setTitle(const QString& title)
{
    m_title = title;
    elideTitle();
}

void ClassCountChart::elideTitle()
{
    // A chart's title does not wrap: in the narrow panel it is elided to the chart's width (the
    // whole title is the tooltip's first line) rather than cut at both ends.
    const int room = std::max(40, width() - 16);
    chart()->setTitle(QFontMetrics(chart()->titleFont()).elidedText(m_title, Qt::ElideRight, room));
    setToolTip(m_title.isEmpty() ? m_about : m_title + QStringLiteral("\n") + m_about);
}

void ClassCountChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    elideTitle();
}

void ClassCountChart::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyChartPalette(chart(), palette()); // a theme changed while the app runs
    }
}

void ClassCountChart::setCounts(const QStringList& classNames, const std::vector<int64_t>& counts, const QString& note)
{
    showMessage({});
    m_counts = counts;
    m_names = classNames;
    if (counts.empty()) {
        setTitle(note.isEmpty() ? tr("No classes") : note);
        return;
    }
    const std::vector<lbd::Region> regions = lbd::classRegions(counts, lbd::RegionScheme::ThirdsByIndex);
    const QString titles[3] = {tr("head"), tr("med"), tr("tail")};
    QBarSet* sets[3];
    auto* series = new QStackedBarSeries;
    for (int r = 0; r < 3; ++r) {
        sets[r] = new QBarSet(titles[r]);
        sets[r]->setColor(regionColor(static_cast<lbd::Region>(r)));
        sets[r]->setBorderColor(regionColor(static_cast<lbd::Region>(r)).darker(130));
        series->append(sets[r]);
    }
    QStringList categories;
    // Class indices on the axis (as in the weight plot below it); hovering a bar names the class.
    const bool nameAxis = false;
    for (size_t c = 0; c < counts.size(); ++c) {
        const int r = static_cast<int>(regions[c]);
        for (int s = 0; s < 3; ++s) {
            *sets[s] << (s == r ? double(counts[c]) : 0.0);
        }
        QString label = nameAxis && c < size_t(classNames.size()) ? classNames[int(c)] : QString::number(c);
        if (label.size() > 9) {
            label = label.left(8) + QChar(0x2026);
        }
        // Category names must be unique.
        while (categories.contains(label)) {
            label += QLatin1Char(' ');
        }
        categories << label;
    }
    series->setBarWidth(0.85);
    chart()->addSeries(series);

    auto* xAxis = new QBarCategoryAxis;
    xAxis->append(categories);
    xAxis->setLabelsAngle(0);
    xAxis->setTitleText(tr("class (head to tail)"));
    QFont small = xAxis->labelsFont();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.8));
    xAxis->setLabelsFont(small);
    if (counts.size() > 30) {
        xAxis->setLabelsVisible(false);
        xAxis->setTitleText(tr("%1 classes, head to tail").arg(counts.size()));
    }
    auto* yAxis = new QValueAxis;
    yAxis->setLabelFormat(QStringLiteral("%d"));
    yAxis->setRange(0, double(*std::max_element(counts.begin(), counts.end())) * 1.05);
    yAxis->setTitleText(tr("images"));
    yAxis->setLabelsFont(small);
    yAxis->applyNiceNumbers();
    chart()->addAxis(xAxis, Qt::AlignBottom);
    chart()->addAxis(yAxis, Qt::AlignLeft);
    series->attachAxis(xAxis);
    series->attachAxis(yAxis);
    applyChartPalette(chart(), palette()); // the new axes too

    int64_t total = 0;
    for (int64_t n : counts) {
        total += n;
    }
    // A user's folder is in name order, not by count: the range is the largest to the smallest.
    const auto [smallest, largest] = std::minmax_element(counts.begin(), counts.end());
    setTitle(tr("%1 training images, %2 to %3 per class%4")
                          .arg(total)
                          .arg(*largest)
                          .arg(*smallest)
                          .arg(note.isEmpty() ? QString() : QStringLiteral(" (") + note + QLatin1Char(')')));
    connect(series, &QStackedBarSeries::hovered, this, [this](bool status, int index, QBarSet*) {
        if (status && index >= 0 && index < int(m_counts.size())) {
            const QString name = index < m_names.size() ? m_names[index] : QString::number(index);
            QToolTip::showText(QCursor::pos(), tr("class %1 %2: %3 training images").arg(index).arg(name).arg(m_counts[index]), this);
        }
    });
}

} // namespace lbd::ui
