// A run as the comparison shows it, read from its folder (loadComparedRun), and its best epoch
// in words (bestEpochText): declared in runcomparisonview.h.
#include "ui/runs/comparisonmetrics.h"
#include "ui/runs/configdiff.h"
#include "ui/runs/runcomparisonview.h"

#include "core/train/runfolder.h"
#include "core/train/runsummary.h"

#include <QObject>

#include <cmath>
#include <limits>

namespace lbd::ui {
namespace {

const QString kDash = QStringLiteral("\u2013");

} // namespace

ComparedRun loadComparedRun(const QString& directory)
{
    ComparedRun run;
    run.summary = lbd::readRunSummary(directory.toStdString());
    run.config = readFlatConfig(directory);
    run.environment = readFlatEnvironment(directory);
    try {
        for (const lbd::EpochMetrics& epoch : lbd::readRunHistory(directory.toStdString())) {
            run.epochs << epoch.epoch;
            run.loss << epoch.objective.total;
            if (epoch.evaluation) {
                run.evalEpochs << epoch.epoch;
                run.accuracy << 100.0 * epoch.evaluation->overall.accuracy;
                run.validationAccuracy << (epoch.validationEvaluation ? 100.0 * epoch.validationEvaluation->overall.accuracy
                                                                      : std::numeric_limits<double>::quiet_NaN());
                const auto& regions = epoch.evaluation->regionsThirds.regions;
                run.tailAccuracy << (regions.size() == 3 ? 100.0 * regions[2].counts.accuracy : 0.0);
            }
        }
        run.curves = metricCurves(lbd::RunFolder(directory.toStdString()).readJsonLines(lbd::RunFolder::kMetrics));
    } catch (const std::exception& error) {
        run.evalEpochs.clear();
        run.accuracy.clear();
        run.tailAccuracy.clear();
        run.validationAccuracy.clear();
        run.epochs.clear();
        run.loss.clear();
        run.curves.clear();
        run.error = QString::fromUtf8(error.what());
    }
    return run;
}

QString bestEpochText(const ComparedRun& run)
{
    if (run.accuracy.isEmpty()) {
        return kDash;
    }
    int best = -1;
    for (int i = 0; i < run.validationAccuracy.size(); ++i) {
        if (!std::isnan(run.validationAccuracy[i]) && (best < 0 || run.validationAccuracy[i] > run.validationAccuracy[best])) {
            best = i;
        }
    }
    if (best >= 0) {
        return QObject::tr("%1 % (epoch %2, by validation)").arg(run.accuracy[best], 0, 'f', 2).arg(run.evalEpochs[best]);
    }
    best = 0;
    for (int i = 1; i < run.accuracy.size(); ++i) {
        best = run.accuracy[i] > run.accuracy[best] ? i : best;
    }
    return QObject::tr("%1 % (epoch %2, test-selected)").arg(run.accuracy[best], 0, 'f', 2).arg(run.evalEpochs[best]);
}

} // namespace lbd::ui
