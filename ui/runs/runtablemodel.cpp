#include "ui/runs/runtablemodel.h"

#include "core/util/csv.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QDir>
#include <QFont>
#include <QApplication>
#include <QIcon>
#include <QStyle>
#include <QLocale>

#include <limits>
#include <optional>

namespace lbd::ui {
namespace {

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

const QString kDash = QStringLiteral("\u2013");

QString percentText(const std::optional<double>& value)
{
    return value ? QStringLiteral("%1 %").arg(100.0 * *value, 0, 'f', 2) : kDash;
}

QString warningsText(const lbd::RunSummary& run)
{
    QStringList lines;
    for (const std::string& warning : run.warnings) {
        lines << QStringLiteral("\u2022 ") + QString::fromStdString(warning);
    }
    return QObject::tr("This run's report is flagged: its numbers would mislead without these warnings, and it is "
                       "never highlighted as the best.\n%1")
        .arg(lines.join(QLatin1Char('\n')));
}

// A failure message can be a paragraph: the cell shows its start (the tooltip has all of it), so
// the metric columns stay on screen after resizeColumnsToContents.
constexpr int kStatusCellChars = 48;

QString elided(const QString& text, int chars)
{
    return text.size() <= chars ? text : text.left(chars - 1).trimmed() + QStringLiteral("\u2026");
}

QVariant optionalValue(const std::optional<double>& value)
{
    // Runs without a value sort below every run that has one.
    return value ? QVariant(*value) : QVariant(-std::numeric_limits<double>::infinity());
}

QDateTime createdTime(const lbd::RunSummary& run)
{
    return QDateTime::fromString(fromStd(run.created), Qt::ISODate);
}

QString columnTitle(int column)
{
    switch (column) {
    case RunTableModel::Name: return QObject::tr("Name");
    case RunTableModel::Status: return QObject::tr("Status");
    case RunTableModel::Dataset: return QObject::tr("Data set");
    case RunTableModel::Model: return QObject::tr("Model");
    case RunTableModel::Particles: return QObject::tr("M");
    case RunTableModel::Epochs: return QObject::tr("Epochs");
    case RunTableModel::Device: return QObject::tr("Device");
    case RunTableModel::Created: return QObject::tr("Created");
    case RunTableModel::TrainingUtility: return QObject::tr("Training U");
    case RunTableModel::Decision: return QObject::tr("Decision");
    case RunTableModel::Warnings: return QObject::tr("\u26a0");
    case RunTableModel::Accuracy: return QObject::tr("Accuracy");
    case RunTableModel::HeadAccuracy: return QObject::tr("Head");
    case RunTableModel::MediumAccuracy: return QObject::tr("Med");
    case RunTableModel::TailAccuracy: return QObject::tr("Tail");
    case RunTableModel::FhrPointsMean: return QObject::tr("FHR 3-pt mean");
    case RunTableModel::FhrCurveMean: return QObject::tr("FHR curve mean");
    case RunTableModel::Aurc: return QObject::tr("AURC");
    case RunTableModel::Ece: return QObject::tr("ECE");
    case RunTableModel::Folder: return QObject::tr("Folder");
    case RunTableModel::Problems: return QObject::tr("Problems");
    }
    return {};
}

QString columnToolTip(int column)
{
    switch (column) {
    case RunTableModel::Name: return QObject::tr("The run's name from its config.json.");
    case RunTableModel::Status:
        return QObject::tr("created (no status yet), running, finished, stopped (by request; last checkpoint kept), "
                           "failed (with the reason), or damaged (a run file is missing or unreadable).");
    case RunTableModel::Dataset: return QObject::tr("The data set the run trained on (run.json).");
    case RunTableModel::Model: return QObject::tr("The particle network's architecture.");
    case RunTableModel::Particles: return QObject::tr("M: the number of particles (ensemble members) of the LBD ensemble.");
    case RunTableModel::Epochs: return QObject::tr("Epochs completed / planned.");
    case RunTableModel::Device: return QObject::tr("Where the run trained.");
    case RunTableModel::Created: return QObject::tr("When training started (local time).");
    case RunTableModel::TrainingUtility:
        return QObject::tr("The TRAINING utility matrix of the utility term and its form (bounded, published, paper).");
    case RunTableModel::Decision:
        return QObject::tr("How the run decides: its decision matrix (stored by value), rule and defer utility r, and the "
                           "paper protocol it follows when it follows one (paper-standard: one-hot training, mean-logit "
                           "decisions; paper-tail: tail:1 training, mean-logit).");
    case RunTableModel::Warnings:
        return QObject::tr("\u26a0: the run's report is flagged degenerate (a region at 0 %, accuracy near chance, "
                           "decisions piled into a few classes, eq7 with negative utilities). Hover it for the warnings.");
    case RunTableModel::Accuracy:
        return QObject::tr("Test accuracy of the final evaluation, decided by the run's rule under its utility matrix (report.json).");
    case RunTableModel::HeadAccuracy: return QObject::tr("Test accuracy on the head third of the classes (by class index).");
    case RunTableModel::MediumAccuracy: return QObject::tr("Test accuracy on the medium third of the classes.");
    case RunTableModel::TailAccuracy: return QObject::tr("Test accuracy on the tail third of the classes (the rarest).");
    case RunTableModel::FhrPointsMean:
        return QObject::tr("False Head Rate 3-point mean: the share of tail images decided as a head class, averaged "
                           "over the paper's three points, whose head is the first int(C r + 0.5) classes for r = 0.25, 0.5, 0.75 (the published "
                           "code's convention; the paper's table calls them tail ratio 25 / 50 / 75 %). Lower is better.");
    case RunTableModel::FhrCurveMean:
        return QObject::tr("False Head Rate curve mean: FHR(k) averaged over every head/tail split k = 1..C-1. Lower is better.");
    case RunTableModel::Aurc:
        return QObject::tr("Area under the risk-coverage curve: the mean error rate among the k most confident test "
                           "images, over k = 1..N. Lower is better.");
    case RunTableModel::Ece:
        return QObject::tr("Expected calibration error of the ensemble's confidence max pbar (15 bins). Lower is better.");
    case RunTableModel::Folder: return QObject::tr("The run folder's name under the runs folder.");
    case RunTableModel::Problems: return QObject::tr("Run files that are missing or damaged.");
    }
    return {};
}

} // namespace

RunTableModel::RunTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunTableModel::setRuns(std::vector<lbd::RunSummary> runs)
{
    beginResetModel();
    m_runs = std::move(runs);
    endResetModel();
}

int RunTableModel::rowOf(const QString& directory) const
{
    const QString wanted = QDir::cleanPath(directory);
    for (size_t i = 0; i < m_runs.size(); ++i) {
        if (QDir::cleanPath(fromStd(m_runs[i].directory)) == wanted) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

void RunTableModel::setShownRun(const QString& directory)
{
    m_shownRun = QDir::cleanPath(directory);
    if (!m_runs.empty()) {
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::FontRole});
    }
}

int RunTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RunTableModel::statusText(const lbd::RunSummary& run)
{
    QString state = fromStd(run.state);
    if (run.state == "failed" && !run.statusMessage.empty()) {
        state += QStringLiteral(": ") + fromStd(run.statusMessage);
    }
    if (!run.damaged()) {
        return state;
    }
    // "created" only means that status.json is absent; for a damaged folder that says nothing.
    return run.state == "created" ? QObject::tr("damaged") : QObject::tr("damaged (%1)").arg(state);
}

QString RunTableModel::trainingText(const lbd::RunSummary& run)
{
    if (run.trainingUtility.empty()) {
        return kDash;
    }
    return QStringLiteral("%1 (%2)").arg(fromStd(run.trainingUtility),
                                         run.trainingUtilityForm.empty() ? tr("no utility term") : fromStd(run.trainingUtilityForm));
}

QString RunTableModel::decisionText(const lbd::RunSummary& run)
{
    if (run.decisionUtility.empty() && run.decisionRule.empty()) {
        return kDash;
    }
    QString text = QStringLiteral("%1, %2").arg(fromStd(run.decisionUtility), fromStd(run.decisionRule));
    if (run.deferUtility) {
        text += tr(", defer r = %1").arg(*run.deferUtility);
    }
    // A paper protocol is named: its numbers are the ones to compare with the paper's tables.
    if (run.protocol != "app") {
        text += tr(" (%1)").arg(fromStd(run.protocol));
    }
    return text;
}

std::optional<double> RunTableModel::regionAccuracy(const lbd::RunSummary& run, lbd::Region region)
{
    const std::optional<double>& value = region == lbd::Region::Head     ? run.headAccuracy
                                         : region == lbd::Region::Medium ? run.mediumAccuracy
                                                                         : run.tailAccuracy;
    if (!value || run.classCount <= 0) {
        return value;
    }
    // Thirds by class index need only C (lbd-math.md section 2).
    for (const lbd::Region r : lbd::classRegions(std::vector<int64_t>(size_t(run.classCount), 0), lbd::RegionScheme::ThirdsByIndex)) {
        if (r == region) {
            return value;
        }
    }
    return std::nullopt;
}

QStringList RunTableModel::problemTexts(const lbd::RunSummary& run)
{
    QStringList texts;
    const QString prefix = QDir::cleanPath(fromStd(run.directory)) + QLatin1Char('/');
    for (const std::string& problem : run.problems) {
        QString text = fromStd(problem);
        if (text.startsWith(prefix)) {
            text = text.mid(prefix.size());
        }
        texts << text;
    }
    return texts;
}

QVariant RunTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const lbd::RunSummary& run = m_runs[static_cast<size_t>(index.row())];
    const int column = index.column();
    if (role == DirectoryRole) {
        return fromStd(run.directory);
    }
    if (role == Qt::DecorationRole && column == Name && !run.warnings.empty()) {
        return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
    }
    if (role == Qt::FontRole) {
        if (!m_shownRun.isEmpty() && QDir::cleanPath(fromStd(run.directory)) == m_shownRun) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    }
    if (role == Qt::ForegroundRole) {
        if (run.damaged() && (column == Status || column == Problems)) {
            return QBrush(QColor(0xb0, 0x1e, 0x1e));
        }
        if (run.state == "failed" && column == Status) {
            return QBrush(QColor(0xb0, 0x1e, 0x1e));
        }
        if (!run.warnings.empty() && (column == Warnings || column == Accuracy)) {
            return QBrush(QColor(0xb3, 0x5c, 0x00));
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        return column >= Particles && column <= Epochs || column >= Accuracy && column <= Ece || column == Warnings
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole) {
        switch (column) {
        case Status:
        case Problems: {
            QStringList lines;
            lines << tr("Status: %1").arg(statusText(run));
            for (const QString& problem : problemTexts(run)) {
                lines << tr("Problem: %1").arg(problem);
            }
            return lines.join(QLatin1Char('\n'));
        }
        case Folder: return fromStd(run.directory);
        case Name: return run.warnings.empty() ? fromStd(run.directory) : fromStd(run.directory) + QStringLiteral("\n\n") + warningsText(run);
        case Warnings:
        case Accuracy:
        case FhrPointsMean:
        case FhrCurveMean: return run.warnings.empty() ? columnToolTip(column) : warningsText(run);
        case TrainingUtility: return trainingText(run) + QLatin1Char('\n') + columnToolTip(column);
        case Decision: return decisionText(run) + QLatin1Char('\n') + columnToolTip(column);
        default: return columnToolTip(column);
        }
    }
    if (role == Qt::DisplayRole) {
        switch (column) {
        case Name: return fromStd(run.name);
        case Status: return elided(statusText(run), kStatusCellChars);
        case Dataset: return fromStd(run.dataset);
        case Model: return fromStd(run.model);
        case Particles: return run.particles > 0 ? QString::number(run.particles) : kDash;
        case Epochs: return run.epochs > 0 ? QStringLiteral("%1/%2").arg(run.epochsDone).arg(run.epochs) : kDash;
        case Device: return fromStd(run.device);
        case Created: {
            const QDateTime time = createdTime(run);
            return time.isValid() ? QLocale().toString(time.toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm")) : QString();
        }
        case TrainingUtility: return trainingText(run);
        case Decision: return decisionText(run);
        case Warnings: return run.warnings.empty() ? QString() : QStringLiteral("\u26a0 %1").arg(run.warnings.size());
        case Accuracy: return percentText(run.accuracy);
        case HeadAccuracy: return percentText(regionAccuracy(run, lbd::Region::Head));
        case MediumAccuracy: return percentText(regionAccuracy(run, lbd::Region::Medium));
        case TailAccuracy: return percentText(regionAccuracy(run, lbd::Region::Tail));
        case FhrPointsMean: return percentText(run.fhrPointsMean);
        case FhrCurveMean: return percentText(run.fhrCurveMean);
        case Aurc: return run.aurc ? QString::number(*run.aurc, 'f', 4) : kDash;
        case Ece: return run.ece ? QString::number(*run.ece, 'f', 4) : kDash;
        case Folder: return fromStd(run.folderName);
        case Problems: return problemTexts(run).join(QStringLiteral("; "));
        }
        return {};
    }
    if (role == SortRole) {
        switch (column) {
        case Name: return fromStd(run.name).toLower();
        case Status: return statusText(run);
        case Dataset: return fromStd(run.dataset);
        case Model: return fromStd(run.model);
        case Particles: return run.particles;
        case Epochs: return run.epochsDone;
        case Device: return fromStd(run.device);
        case Created: return createdTime(run).toMSecsSinceEpoch();
        case TrainingUtility: return trainingText(run);
        case Decision: return decisionText(run);
        case Warnings: return static_cast<int>(run.warnings.size());
        case Accuracy: return optionalValue(run.accuracy);
        case HeadAccuracy: return optionalValue(regionAccuracy(run, lbd::Region::Head));
        case MediumAccuracy: return optionalValue(regionAccuracy(run, lbd::Region::Medium));
        case TailAccuracy: return optionalValue(regionAccuracy(run, lbd::Region::Tail));
        case FhrPointsMean: return optionalValue(run.fhrPointsMean);
        case FhrCurveMean: return optionalValue(run.fhrCurveMean);
        case Aurc: return optionalValue(run.aurc);
        case Ece: return optionalValue(run.ece);
        case Folder: return fromStd(run.folderName);
        case Problems: return static_cast<int>(run.problems.size());
        }
    }
    return {};
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    if (role == Qt::DisplayRole) {
        return columnTitle(section);
    }
    if (role == Qt::ToolTipRole) {
        return columnToolTip(section);
    }
    return {};
}

QString csvField(const QString& text)
{
    return QString::fromStdString(lbd::quoteCsvField(text.toStdString()));
}

QString runsToCsv(const std::vector<lbd::RunSummary>& runs)
{
    const auto number = [](const std::optional<double>& value) {
        return value ? QString::number(*value, 'g', 10) : QString();
    };
    const QStringList header = {QStringLiteral("name"), QStringLiteral("folder"), QStringLiteral("status"),
                                QStringLiteral("dataset"), QStringLiteral("model"), QStringLiteral("particles"),
                                QStringLiteral("epochs_done"), QStringLiteral("epochs"), QStringLiteral("device"),
                                QStringLiteral("created_utc"), QStringLiteral("training_utility"),
                                QStringLiteral("training_utility_form"), QStringLiteral("decision_utility"),
                                QStringLiteral("decision_rule"), QStringLiteral("defer_utility"), QStringLiteral("accuracy"),
                                QStringLiteral("head_accuracy"), QStringLiteral("medium_accuracy"),
                                QStringLiteral("tail_accuracy"), QStringLiteral("fhr_points_mean"),
                                QStringLiteral("fhr_curve_mean"), QStringLiteral("aurc"), QStringLiteral("ece"),
                                QStringLiteral("mean_utility"), QStringLiteral("train_seconds"), QStringLiteral("warnings"),
                                QStringLiteral("problems"), QStringLiteral("directory"), QStringLiteral("protocol")};
    QString csv = header.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    for (const lbd::RunSummary& run : runs) {
        QStringList warnings;
        for (const std::string& warning : run.warnings) {
            warnings << fromStd(warning);
        }
        const QStringList fields = {fromStd(run.name),
                                    fromStd(run.folderName),
                                    RunTableModel::statusText(run),
                                    fromStd(run.dataset),
                                    fromStd(run.model),
                                    run.particles > 0 ? QString::number(run.particles) : QString(),
                                    QString::number(run.epochsDone),
                                    run.epochs > 0 ? QString::number(run.epochs) : QString(),
                                    fromStd(run.device),
                                    fromStd(run.created),
                                    fromStd(run.trainingUtility),
                                    fromStd(run.trainingUtilityForm),
                                    fromStd(run.decisionUtility),
                                    fromStd(run.decisionRule),
                                    number(run.deferUtility),
                                    number(run.accuracy),
                                    number(RunTableModel::regionAccuracy(run, lbd::Region::Head)),
                                    number(RunTableModel::regionAccuracy(run, lbd::Region::Medium)),
                                    number(RunTableModel::regionAccuracy(run, lbd::Region::Tail)),
                                    number(run.fhrPointsMean),
                                    number(run.fhrCurveMean),
                                    number(run.aurc),
                                    number(run.ece),
                                    number(run.meanUtility),
                                    number(run.trainSeconds),
                                    warnings.join(QStringLiteral("; ")),
                                    RunTableModel::problemTexts(run).join(QStringLiteral("; ")),
                                    fromStd(run.directory),
                                    fromStd(run.protocol)};
        QStringList quoted;
        for (const QString& field : fields) {
            quoted << csvField(field);
        }
        csv += quoted.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    }
    return csv;
}

} // namespace lbd::ui
