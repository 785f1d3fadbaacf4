#pragma once
// Training images per class after the long-tailed split, as a Qt Charts bar chart coloured by
// region (head / med / tail, thirds by class index as in the paper). Hovering a bar names the
// class and its count. Its colours follow the window palette (chartpalette.h).
#include <QtCharts/QChartView>

#include <QStringList>

#include <cstdint>
#include <vector>

namespace lbd::ui {

class ClassCountChart final : public QChartView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClassCountChart)

public:
    explicit ClassCountChart(QWidget* parent = nullptr);

    void setCounts(const QStringList& classNames, const std::vector<int64_t>& counts, const QString& note = {});
    void showMessage(const QString& message); // no counts (yet): e.g. "reading the folder..."
    const std::vector<int64_t>& counts() const { return m_counts; }
    QString title() const { return m_title; } // whole; the chart shows it elided to its width

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void setTitle(const QString& title);
    void elideTitle();

    QString m_title;
    QString m_about; // what the chart shows, the tooltip after the title
    std::vector<int64_t> m_counts;
    QStringList m_names;
};

} // namespace lbd::ui
