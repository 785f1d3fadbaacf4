#pragma once
// The Studies page's figures, one tab each: (a) one bar per cell, mean ± 1 sample std over seeds,
// with every seed's value as a dot, for the metric chosen above them; (b) that metric against a
// factor whose levels are numbers (M=1, M=2 ...; hidden when no factor is numeric); (c) the False
// Head Rate curve of every cell with a ± 1 std band. Each can be saved as PNG or PDF.
#include <QString>
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

#include "core/study/studysummary.h"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QPushButton;
class QTabWidget;

namespace lbd::ui {

class StudyPlots final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StudyPlots)

public:
    explicit StudyPlots(QWidget* parent = nullptr);

    // `factorKeys`: the config key of each factor ("" for a factor of named levels).
    void setSummary(const lbd::StudySummary& summary, const std::vector<std::string>& factorKeys);
    void clear();

    void setMetric(const std::string& key);
    std::string metric() const;

    QCustomPlot* barPlot() const { return m_bars; }
    QCustomPlot* factorPlot() const { return m_factor; }
    QCustomPlot* fhrPlot() const { return m_fhr; }
    QTabWidget* tabs() const { return m_tabs; }
    bool hasFactorPlot() const { return m_numericFactor.has_value(); }

    // The plot of the current tab; false with the reason in *error.
    bool saveCurrent(const QString& path, bool pdf, QString* error);

signals:
    void message(const QString& text, bool error);

private:
    void redraw();
    void drawBars(const lbd::StudyMetric& metric);
    void drawFactor(const lbd::StudyMetric& metric);
    void drawFhr();
    void askSave(bool pdf);

    QComboBox* m_metric = nullptr;
    QCheckBox* m_zoomBars = nullptr; // the bar chart's value axis fitted to the values, not from 0
    QTabWidget* m_tabs = nullptr;
    QCustomPlot* m_bars = nullptr;
    QCustomPlot* m_factor = nullptr;
    QCustomPlot* m_fhr = nullptr;
    QPushButton* m_pngButton = nullptr;
    QPushButton* m_pdfButton = nullptr;

    lbd::StudySummary m_summary;
    std::optional<size_t> m_numericFactor; // index into the factors
};

// The number of a numeric level label ("M=3" -> 3, "lr=0.1" -> 0.1); nothing for "CE".
std::optional<double> levelNumber(const std::string& label);

} // namespace lbd::ui
