#pragma once
// The plots of a run report, drawn offscreen from the run's files: test accuracy overall and by
// region at every evaluation, the training objective at every epoch (metrics.jsonl), and the
// final report's False Head Rate curve (report.json). Titles, axis labels and legends, light
// background whatever the window palette (a report is printed).
#include <QImage>
#include <QList>
#include <QString>

#include <nlohmann/json.hpp>

#include <vector>

namespace lbd::ui {

struct ReportPlot {
    QString fileName; // "accuracy.png"
    QString title;
    QImage image;     // at twice the nominal size
};

// `metricsLines`: metrics.jsonl; `report`: report.json. A plot without data is left out.
QList<ReportPlot> reportPlots(const std::vector<nlohmann::json>& metricsLines, const nlohmann::json& report);

} // namespace lbd::ui
