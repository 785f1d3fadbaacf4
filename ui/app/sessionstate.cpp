#include "ui/app/sessionstate.h"

#include "core/eval/decisionrule.h"
#include "core/lbd/utilitysetting.h"
#include "core/util/jsonfile.h"
#include "datasets/catalogue.h"
#include "ui/app/appsettings.h"
#include "ui/app/mainwindow.h"
#include "ui/panels/experimentpanel.h"
#include "ui/utility/utilitydocument.h"

#include <QDir>
#include <QFileInfo>
#include <QTabWidget>

namespace lbd::ui {
namespace {

QString pageTitle(const QTabWidget* pages, int index)
{
    return pages->tabText(index).remove(QLatin1Char('&'));
}

} // namespace

void SessionState::save(MainWindow& window)
{
    ExperimentPanel* panel = window.experimentPanel();
    // The preset is restored over the last run's settings only when the panel showed it as is.
    AppSettings::setLastPreset(panel->chosenPreset(), !panel->currentPreset().isEmpty());
    AppSettings::setLastRun(window.shownRun());
    AppSettings::setCurrentPage(pageTitle(window.pages(), window.pages()->currentIndex()));
    const UtilityDocument* decisions = window.utilityDocument();
    const QString matrix = decisions->classCount() > 0 ? QString::fromStdString(lbd::toJson(decisions->setting()).dump()) : QString();
    AppSettings::setDecisions(matrix, QString::fromStdString(lbd::decisionRuleName(decisions->rule())), decisions->deferUtility());
}

void SessionState::restore(MainWindow& window)
{
    ExperimentPanel* panel = window.experimentPanel();
    const QString preset = AppSettings::lastPreset();
    if (!preset.isEmpty()) {
        panel->selectPreset(preset); // a preset removed since: keep the default
    }
    restoreLastDataset(window);
    // The last run opens as a user would open it (its settings in the panel, its epochs and results
    // on every page); the preset goes back over its settings when it was what the panel showed.
    const QString run = AppSettings::lastRun();
    if (!run.isEmpty() && QFileInfo::exists(QDir(run).filePath(QStringLiteral("config.json"))) && window.openRun(run)
        && !preset.isEmpty() && AppSettings::lastPresetShown()) {
        panel->selectPreset(preset);
    }
    restoreDecisions(window);
    const QString page = AppSettings::currentPage();
    QTabWidget* pages = window.pages();
    for (int i = 0; i < pages->count(); ++i) {
        if (pageTitle(pages, i) == page) {
            pages->setCurrentIndex(i);
        }
    }
}

void SessionState::restoreDecisions(MainWindow& window)
{
    UtilityDocument* decisions = window.utilityDocument();
    try {
        const QString rule = AppSettings::decisionRule();
        if (!rule.isEmpty()) {
            decisions->setRule(lbd::parseDecisionRule(rule.toStdString()));
        }
    } catch (const std::exception&) {
        // a rule from another version: keep the default
    }
    decisions->setDeferUtility(AppSettings::deferUtility());
    const QString matrix = AppSettings::decisionMatrix();
    if (matrix.isEmpty()) {
        return;
    }
    try {
        const lbd::UtilitySetting setting =
            lbd::utilitySettingFromJson(lbd::parseJsonText(matrix.toStdString(), "saved decision matrix"), "saved decision matrix");
        // Only for the same classes (resolveUtility reorders a by-value matrix and refuses others).
        decisions->setMatrix(lbd::resolveUtility(setting, decisions->classNameList(), "saved decision matrix"));
    } catch (const std::exception&) {
        // saved for another data set: the document keeps its one-hot matrix
    }
}

void SessionState::restoreLastDataset(MainWindow& window)
{
    // The last data set the user trained on, so the next session opens where they left off.
    const QString kind = AppSettings::lastDatasetKind();
    if (kind.isEmpty()) {
        return;
    }
    try {
        lbd::TrainConfig config = window.experimentPanel()->config();
        const std::string name = lbd::datasetEntry(kind.toStdString()).name;
        const std::string directory = AppSettings::lastDatasetDirectory().toStdString();
        if (config.data.dataset != name || config.data.directory != directory) {
            config.data.dataset = name;
            config.data.directory = directory;
            // The user's own folder or lists come back as given, as when chosen in the panel: the
            // preset's long tail was made for its own data set (it resampled a restored icon folder
            // of 201 images to 59).
            config.data.useAsGiven();
            window.experimentPanel()->setConfig(config, QObject::tr("%1 on the last data set")
                                                            .arg(window.experimentPanel()->chosenPreset()));
        }
    } catch (const std::exception&) {
        // an unknown kind from another version: keep the preset's
    }
}

} // namespace lbd::ui
