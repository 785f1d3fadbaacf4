#include "ui/pages/decisionlabpage.h"
#include "ui/pooltask.h"
#include "ui/decisionruletext.h"
#include "ui/widgets/fhraxes.h"
#include "ui/widgets/plottitle.h"

#include "core/infer/runresults.h"

#include "ui/utility/utilitydocument.h"
#include "ui/widgets/throttledplot.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPromise>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableWidget>
#include <QThreadPool>
#include <QVBoxLayout>

#include <exception>
#include <numeric>

namespace lbd::ui {

struct DecisionLabPage::Loaded {
    int generation = 0;
    std::shared_ptr<const lbd::RunResults> results;
    QString error;
};

struct DecisionLabPage::Evaluated {
    int generation = 0;
    lbd::UtilityMatrix matrix;
    lbd::EvaluationReport lab;
    lbd::EvaluationReport baseline;
    QString error;
};

namespace {

const QColor kBaselineColor(110, 110, 110);
const QColor kLabColor(0xc0, 0x39, 0x2b);

// Mean of FHR(k) over k = 1..C-1: one number for the whole curve.
double meanFhr(const lbd::EvaluationReport& report)
{
    if (report.fhrCurve.empty()) {
        return 0.0;
    }
    double sum = 0.0;
    for (const lbd::FhrSplit& split : report.fhrCurve) {
        sum += split.rate;
    }
    return sum / double(report.fhrCurve.size());
}

QString percent(double rate) { return QString::number(100.0 * rate, 'f', 1) + QLatin1Char('%'); }

QString signedNumber(double value, int decimals)
{
    const QString text = QString::number(value, 'f', decimals);
    return value > 0 && text.toDouble() != 0.0 ? QLatin1Char('+') + text : text;
}

// "-3.1 pts"; rates as fractions in, percentage points out.
QString points(double labRate, double baselineRate)
{
    return QObject::tr("%1 pts").arg(signedNumber(100.0 * (labRate - baselineRate), 1));
}

// "-34% relative" or "" when the baseline is 0 (no relative change defined).
QString relative(double lab, double baseline)
{
    if (baseline <= 0.0) {
        return {};
    }
    return QObject::tr("%1% relative").arg(signedNumber(100.0 * (lab - baseline) / baseline, 0));
}

} // namespace

DecisionLabPage::DecisionLabPage(UtilityDocument* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    setObjectName(QStringLiteral("decisionLabPage"));

    // ---- Controls --------------------------------------------------------------------------
    m_rule = new QComboBox(this);
    m_rule->setObjectName(QStringLiteral("decisionRule"));
    for (const lbd::DecisionRuleInfo& info : lbd::decisionRules()) {
        m_rule->addItem(QString::fromStdString(info.title), int(info.rule));
        m_rule->setItemData(m_rule->count() - 1, QString::fromStdString(info.description), Qt::ToolTipRole);
    }
    m_rule->setCurrentIndex(m_rule->findData(int(lbd::kDefaultDecisionRule)));
    m_rule->setToolTip(tr("How each test image is decided from the particles' cached probabilities:\n"
                          "argmax: the class with the largest mean probability pbar (ignores U);\n"
                          "LBD rule: argmax_d (1/M) sum_j sum_k U[d,k] log p_j(k|x) (paper Eq. 7);\n"
                          "expected utility: argmax_d sum_t pbar(t) U[t,d]."));
    connect(m_rule, &QComboBox::currentIndexChanged, this, [this] { requestEvaluation(); });

    m_oneHotButton = new QPushButton(tr("One-hot"), this);
    m_oneHotButton->setObjectName(QStringLiteral("oneHotPreset"));
    m_oneHotButton->setToolTip(tr("Set the shared utility matrix to U = I: every correct decision is worth 1, "
                                  "every mistake 0 (the utility page shows the same matrix)."));
    connect(m_oneHotButton, &QPushButton::clicked, this,
            [this] { applyPreset(lbd::UtilityMatrix::oneHot(m_results ? m_results->classes : m_document->classCount())); });

    m_tailPenalty = new QDoubleSpinBox(this);
    m_tailPenalty->setObjectName(QStringLiteral("tailPenalty"));
    m_tailPenalty->setRange(0.0, 100.0);
    m_tailPenalty->setDecimals(2);
    m_tailPenalty->setSingleStep(0.25);
    m_tailPenalty->setValue(1.0);
    m_tailPenalty->setPrefix(tr("c = "));
    m_tailPenalty->setToolTip(tr("The penalty c of the tail-sensitive matrix (paper Fig. 1b): U = I with -c wherever "
                                 "the decision is more head-ward than the truth (a false head)."));
    m_tailButton = new QPushButton(tr("Tail-sensitive"), this);
    m_tailButton->setObjectName(QStringLiteral("tailPreset"));
    m_tailButton->setToolTip(tr("Set the shared utility matrix to tail-sensitive(c): I minus c below the diagonal "
                                "(true class t, decision d < t)."));
    connect(m_tailButton, &QPushButton::clicked, this, [this] {
        applyPreset(lbd::UtilityMatrix::tailSensitive(m_results ? m_results->classes : m_document->classCount(),
                                                      m_tailPenalty->value()));
    });

    m_matrixLabel = new QLabel(this);
    m_matrixLabel->setObjectName(QStringLiteral("matrixDescription"));
    m_matrixLabel->setToolTip(tr("The utility matrix U[true, decision] being edited on the utility page; the lab "
                                 "re-decides whenever it changes."));
    m_runLabel = new QLabel(this);
    m_runLabel->setObjectName(QStringLiteral("labRun"));
    m_runLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runLabel->setToolTip(tr("The run whose cached test probabilities (test_probabilities.pt) are re-decided."));
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("labMessage"));
    m_message->setWordWrap(true);
    m_message->setVisible(false);
    m_headline = new QLabel(this);
    m_headline->setObjectName(QStringLiteral("labHeadline"));
    m_headline->setWordWrap(true);
    m_headline->setTextFormat(Qt::RichText);
    m_headline->setToolTip(tr("The chosen rule under the edited matrix compared with plain argmax under one-hot, on "
                              "the same test images. FHR avg = mean of FHR(k) over every head/tail split k."));

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Decision rule:"), this));
    controls->addWidget(m_rule);
    controls->addSpacing(16);
    controls->addWidget(new QLabel(tr("Quick presets:"), this));
    controls->addWidget(m_oneHotButton);
    controls->addWidget(m_tailPenalty);
    controls->addWidget(m_tailButton);
    controls->addSpacing(16);
    controls->addWidget(m_matrixLabel, 1);

    // ---- Results ---------------------------------------------------------------------------
    m_table = new QTableWidget(0, 3, this);
    m_table->setObjectName(QStringLiteral("labTable"));
    m_table->setHorizontalHeaderLabels({tr("one-hot argmax"), tr("chosen rule"), tr("difference")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setToolTip(tr("Test-set metrics of the baseline (argmax, U = I) and of the chosen rule under the edited "
                           "matrix. Regions: thirds by class index (the paper). FHR points: head = first int(C*r + 0.5) "
                           "classes (the published code's convention)."));

    m_fhrPlot = new ThrottledPlot(this);
    m_fhrPlot->setObjectName(QStringLiteral("labFhrPlot"));
    addPlotTitle(m_fhrPlot, tr("False Head Rate: chosen rule vs one-hot argmax"));
    setUpFhrAxes(m_fhrPlot);
    m_fhrPlot->placeLegendBelow();

    m_regionPlot = new ThrottledPlot(this);
    m_regionPlot->setObjectName(QStringLiteral("labRegionPlot"));
    addPlotTitle(m_regionPlot, tr("Accuracy by region: chosen rule vs one-hot argmax"));
    m_regionPlot->yAxis->setLabel(tr("accuracy (%)"));
    m_regionPlot->xAxis->setLabel(tr("test images of the region's classes (thirds by class index)"));
    m_regionPlot->setFixedValueRange(0, 105);
    m_regionPlot->setFixedRange(m_regionPlot->xAxis, 0.4, 4.6);
    m_regionPlot->setInteractions({});
    m_regionPlot->placeLegendBelow();

    auto* results = new QWidget(this);
    auto* grid = new QGridLayout(results);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(m_headline, 0, 0, 1, 2);
    grid->addWidget(m_fhrPlot, 1, 0);
    grid->addWidget(m_regionPlot, 1, 1);
    grid->addWidget(m_table, 2, 0, 1, 2);
    grid->setRowStretch(1, 3);
    grid->setRowStretch(2, 2);

    m_emptyLabel = new QLabel(tr("<h3>No run yet</h3><p>Train a run or open one (File &gt; Open run...). The decision lab "
                                 "re-decides its cached test probabilities with any rule and utility matrix, without "
                                 "retraining, and compares the result with one-hot argmax.</p>"),
                              this);
    m_emptyLabel->setObjectName(QStringLiteral("labEmptyState"));
    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->setWordWrap(true);

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_emptyLabel);
    m_stack->addWidget(results);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_runLabel);
    layout->addWidget(m_message);
    layout->addWidget(m_stack, 1);

    connect(&m_loadWatcher, &QFutureWatcher<std::shared_ptr<Loaded>>::finished, this, &DecisionLabPage::onLoaded);
    connect(&m_evalWatcher, &QFutureWatcher<std::shared_ptr<Evaluated>>::finished, this, &DecisionLabPage::onEvaluated);
    connect(m_document, &UtilityDocument::matrixChanged, this, [this] {
        updateMatrixLabel();
        requestEvaluation();
    });
    connect(m_document, &UtilityDocument::classNamesChanged, this, &DecisionLabPage::updateMatrixLabel);
    updateMatrixLabel();
}

DecisionLabPage::~DecisionLabPage()
{
    // The tasks own their inputs (shared pointers, values); only the watchers must stop listening.
    m_loadWatcher.disconnect(this);
    m_evalWatcher.disconnect(this);
}

void DecisionLabPage::setRule(lbd::DecisionRule rule) { m_rule->setCurrentIndex(m_rule->findData(int(rule))); }

lbd::DecisionRule DecisionLabPage::rule() const { return static_cast<lbd::DecisionRule>(m_rule->currentData().toInt()); }

bool DecisionLabPage::isBusy() const { return m_loadWatcher.isRunning() || m_evalWatcher.isRunning() || m_evaluationPending; }

QString DecisionLabPage::message() const { return m_message->isHidden() ? QString() : m_message->text(); }

QString DecisionLabPage::headline() const { return m_headline->text(); }

void DecisionLabPage::showRun(const QString& directory)
{
    m_directory = directory;
    m_runLabel->setText(tr("Run: %1 (loading the cached test probabilities...)").arg(QDir::toNativeSeparators(directory)));
    showMessage({}, false);
    const int generation = ++m_loadGeneration;
    const std::string path = directory.toStdString();
    m_loadWatcher.setFuture(runOnPool<std::shared_ptr<Loaded>>([generation, path] {
        auto loaded = std::make_shared<Loaded>();
        loaded->generation = generation;
        try {
            loaded->results = std::make_shared<const lbd::RunResults>(lbd::loadRunResults(path));
        } catch (const std::exception& error) {
            loaded->error = QString::fromUtf8(error.what());
        }
        return loaded;
    }));
}

void DecisionLabPage::onLoaded()
{
    const std::shared_ptr<Loaded> loaded = m_loadWatcher.result();
    if (!loaded || loaded->generation != m_loadGeneration) {
        return;
    }
    m_lab.reset();
    m_baseline.reset();
    if (!loaded->error.isEmpty()) {
        m_results.reset();
        m_runLabel->setText(tr("Run: %1").arg(QDir::toNativeSeparators(m_directory)));
        m_stack->setCurrentIndex(0);
        showMessage(tr("Cannot use this run in the decision lab: %1").arg(loaded->error), true);
        emit failed(loaded->error);
        return;
    }
    m_results = loaded->results;
    // Start from the run's own decision rule; the user changes it from there.
    {
        const QSignalBlocker block(m_rule);
        m_rule->setCurrentIndex(m_rule->findData(int(m_results->decisions.rule)));
    }
    m_runLabel->setText(tr("Run: %1: %2 test images, %3 classes, %4 particles (trained with utility %5, rule %6)")
                            .arg(QDir::toNativeSeparators(m_directory))
                            .arg(m_results->images)
                            .arg(m_results->classes)
                            .arg(m_results->particles)
                            .arg(QString::fromStdString(m_results->decisions.decisionDescription),
                                 QString::fromStdString(lbd::decisionRuleName(m_results->decisions.rule))));
    updateMatrixLabel();
    requestEvaluation();
}

void DecisionLabPage::applyPreset(const lbd::UtilityMatrix& matrix)
{
    if (m_results && m_document->classCount() != m_results->classes) {
        // The document is about another data set's classes: start it over for this run's classes.
        QStringList names;
        for (const std::string& name : m_results->classNames) {
            names << QString::fromStdString(name);
        }
        m_document->setClassNames(names);
    }
    QString error;
    if (!m_document->setMatrix(matrix, &error)) {
        showMessage(tr("The preset was not applied: %1").arg(error), true);
    }
}

void DecisionLabPage::updateMatrixLabel()
{
    m_matrixLabel->setText(tr("Utility matrix: %1 (%2 x %2)").arg(m_document->description()).arg(m_document->classCount()));
}

void DecisionLabPage::requestEvaluation()
{
    if (!m_results) {
        return;
    }
    if (m_evalWatcher.isRunning()) {
        m_evaluationPending = true; // evaluated again with the newest rule and matrix when this one ends
        return;
    }
    m_evaluationPending = false;
    const lbd::UtilityMatrix matrix = m_document->matrix();
    if (matrix.classCount() != m_results->classes) {
        m_lab.reset();
        m_baseline.reset();
        m_stack->setCurrentIndex(0);
        showMessage(tr("The utility matrix is %1 x %1 but this run has %2 classes (the experiment panel shows another "
                       "data set). Choose a quick preset above to start a matrix for this run's classes.")
                        .arg(matrix.classCount())
                        .arg(m_results->classes),
                    true);
        return;
    }
    const int generation = ++m_evalGeneration;
    const lbd::DecisionRule chosen = rule();
    const std::shared_ptr<const lbd::RunResults> results = m_results;
    m_evalWatcher.setFuture(runOnPool<std::shared_ptr<Evaluated>>([generation, results, matrix, chosen] {
        auto out = std::make_shared<Evaluated>();
        out->generation = generation;
        out->matrix = matrix;
        try {
            out->lab = lbd::evaluateRunResults(*results, matrix, chosen);
            // Argmax ignores U when deciding; evaluating it under the same matrix gives the
            // one-hot baseline's decisions with their mean utility under the edited matrix.
            out->baseline = lbd::evaluateRunResults(*results, matrix, lbd::DecisionRule::Argmax);
        } catch (const std::exception& error) {
            out->error = QString::fromUtf8(error.what());
        }
        return out;
    }));
}

void DecisionLabPage::onEvaluated()
{
    const std::shared_ptr<Evaluated> out = m_evalWatcher.result();
    if (out && out->generation == m_evalGeneration) {
        if (!out->error.isEmpty()) {
            m_lab.reset();
            m_baseline.reset();
            m_stack->setCurrentIndex(0);
            showMessage(tr("The evaluation failed: %1").arg(out->error), true);
            emit failed(out->error);
        } else {
            m_lab = out->lab;
            m_baseline = out->baseline;
            m_evaluatedMatrix = out->matrix;
            showMessage({}, false);
            showReports();
        }
    }
    if (m_evaluationPending) {
        requestEvaluation();
    } else if (m_lab) {
        emit evaluated();
    }
}

void DecisionLabPage::showMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
    m_message->setVisible(!text.isEmpty());
}

void DecisionLabPage::showReports()
{
    m_stack->setCurrentIndex(1);
    const lbd::EvaluationReport& lab = *m_lab;
    const lbd::EvaluationReport& base = *m_baseline;
    const double labFhr = meanFhr(lab);
    const double baseFhr = meanFhr(base);
    QString fhrChange = relative(labFhr, baseFhr);
    if (fhrChange.isEmpty()) {
        fhrChange = points(labFhr, baseFhr);
    }
    const auto regionRate = [](const lbd::EvaluationReport& r, lbd::Region region) {
        return r.regionsThirds.regions[static_cast<size_t>(region)].counts.accuracy;
    };
    m_headline->setText(
        tr("<b>%1 with the %2 matrix vs one-hot argmax:</b> FHR avg %3, accuracy %4, tail accuracy %5, "
           "mean utility %6 (%7 vs %8).")
            .arg(decisionRuleTitle(lab.rule), m_document->description().toHtmlEscaped(), fhrChange, points(lab.overall.accuracy, base.overall.accuracy),
                 points(regionRate(lab, lbd::Region::Tail), regionRate(base, lbd::Region::Tail)),
                 signedNumber(lab.meanUtility - base.meanUtility, 4))
            .arg(lab.meanUtility, 0, 'f', 4)
            .arg(base.meanUtility, 0, 'f', 4));
    fillTable();
    plotFhr();
    plotRegions();
}

void DecisionLabPage::fillTable()
{
    const lbd::EvaluationReport& lab = *m_lab;
    const lbd::EvaluationReport& base = *m_baseline;
    m_table->setHorizontalHeaderLabels({tr("one-hot argmax"), tr("%1, %2 matrix").arg(decisionRuleTitle(lab.rule), m_document->description()),
                                        tr("difference")});
    struct Row {
        QString name;
        QString tip;
        QString baseline;
        QString chosen;
        QString difference;
    };
    std::vector<Row> rows;
    rows.push_back({tr("accuracy"), tr("Share of all %1 test images decided as their true class.").arg(lab.imageCount),
                    percent(base.overall.accuracy), percent(lab.overall.accuracy),
                    points(lab.overall.accuracy, base.overall.accuracy)});
    for (size_t r = 0; r < lab.regionsThirds.regions.size(); ++r) {
        const lbd::RegionAccuracy& l = lab.regionsThirds.regions[r];
        const lbd::RegionAccuracy& b = base.regionsThirds.regions[r];
        rows.push_back({tr("%1 accuracy").arg(QString::fromStdString(l.name)),
                        tr("Accuracy on the %1 test images of the %2 classes (thirds by class index).")
                            .arg(l.counts.total)
                            .arg(QString::fromStdString(l.name)),
                        percent(b.counts.accuracy), percent(l.counts.accuracy),
                        points(l.counts.accuracy, b.counts.accuracy)});
    }
    for (size_t p = 0; p < lab.fhrPoints.size(); ++p) {
        const lbd::FhrPoint& l = lab.fhrPoints[p];
        const lbd::FhrPoint& b = base.fhrPoints[p];
        const QString rel = relative(l.split.rate, b.split.rate);
        rows.push_back({tr("FHR, tail ratio %1%").arg(int(l.ratio * 100 + 0.5)),
                        tr("False Head Rate with the first %1 of %2 classes as head: tail images decided as head "
                           "(paper table point; %3 / %4 images for the chosen rule).")
                            .arg(l.split.headClasses)
                            .arg(lab.classCount)
                            .arg(l.split.falseHeads)
                            .arg(l.split.tailImages),
                        percent(b.split.rate), percent(l.split.rate),
                        rel.isEmpty() ? points(l.split.rate, b.split.rate)
                                      : points(l.split.rate, b.split.rate) + QStringLiteral(" (") + rel + QLatin1Char(')')});
    }
    const double labFhr = meanFhr(lab);
    const double baseFhr = meanFhr(base);
    const QString rel = relative(labFhr, baseFhr);
    rows.push_back({tr("FHR avg (whole curve)"), tr("Mean of FHR(k) over every split k = 1..C-1."), percent(baseFhr),
                    percent(labFhr),
                    rel.isEmpty() ? points(labFhr, baseFhr) : points(labFhr, baseFhr) + QStringLiteral(" (") + rel + QLatin1Char(')')});
    rows.push_back({tr("mean utility"),
                    tr("Mean of U[true class, decision] over the test images under the edited matrix; under one-hot it "
                       "equals the accuracy."),
                    QString::number(base.meanUtility, 'f', 4), QString::number(lab.meanUtility, 'f', 4),
                    signedNumber(lab.meanUtility - base.meanUtility, 4)});

    m_table->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        auto* header = new QTableWidgetItem(rows[size_t(r)].name);
        header->setToolTip(rows[size_t(r)].tip);
        m_table->setVerticalHeaderItem(r, header);
        const QString cells[3] = {rows[size_t(r)].baseline, rows[size_t(r)].chosen, rows[size_t(r)].difference};
        for (int c = 0; c < 3; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(rows[size_t(r)].tip);
            m_table->setItem(r, c, item);
        }
    }
}

void DecisionLabPage::plotFhr()
{
    ThrottledPlot* p = m_fhrPlot;
    p->clearGraphs();
    const auto addCurve = [p](const lbd::EvaluationReport& report, const QString& name, const QPen& pen) {
        QVector<double> x, y;
        for (const lbd::FhrSplit& split : report.fhrCurve) {
            x << double(split.headClasses) / double(report.classCount);
            y << 100.0 * split.rate;
        }
        QCPGraph* graph = p->addGraph();
        graph->setData(x, y, true);
        graph->setPen(pen);
        graph->setName(name);
        if (report.fhrCurve.size() == 1) {
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
        }
    };
    const auto addPoints = [p](const lbd::EvaluationReport& report, const QString& name, const QBrush& brush) {
        QVector<double> x, y;
        for (const lbd::FhrPoint& point : report.fhrPoints) {
            x << double(point.split.headClasses) / double(report.classCount);
            y << 100.0 * point.split.rate;
        }
        QCPGraph* graph = p->addGraph();
        graph->setData(x, y, true);
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 1.5), brush, 11));
        graph->setName(name);
    };
    addCurve(*m_baseline, tr("one-hot argmax"), QPen(kBaselineColor, 2, Qt::DashLine));
    // Short legend names (the plot is half a page wide); the headline names the rule and matrix.
    addCurve(*m_lab, tr("chosen rule"), QPen(kLabColor, 2.5));
    addPoints(*m_baseline, tr("25/50/75% points, argmax"), QBrush(Qt::white));
    addPoints(*m_lab, tr("25/50/75% points, chosen"), QBrush(Qt::yellow));
    p->requestReplot();
}

void DecisionLabPage::plotRegions()
{
    ThrottledPlot* p = m_regionPlot;
    p->clearPlottables();
    auto* group = new QCPBarsGroup(p);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick(1, tr("all\n(%1 images)").arg(m_lab->overall.total));
    for (const lbd::RegionAccuracy& region : m_lab->regionsThirds.regions) {
        ticker->addTick(2 + static_cast<int>(region.region),
                        tr("%1\n(%2 images)").arg(QString::fromStdString(region.name)).arg(region.counts.total));
    }
    p->xAxis->setTicker(ticker);
    const auto addBars = [&](const lbd::EvaluationReport& report, const QString& name, const QColor& color) {
        auto* bars = new QCPBars(p->xAxis, p->yAxis);
        bars->setName(name);
        bars->setPen(QPen(color.darker(130)));
        bars->setBrush(color);
        bars->setWidth(0.35);
        bars->setBarsGroup(group);
        bars->addData(1, 100.0 * report.overall.accuracy);
        for (const lbd::RegionAccuracy& region : report.regionsThirds.regions) {
            bars->addData(2 + static_cast<int>(region.region), 100.0 * region.counts.accuracy);
        }
    };
    addBars(*m_baseline, tr("one-hot argmax"), kBaselineColor);
    addBars(*m_lab, tr("chosen rule: %1, %2 matrix").arg(decisionRuleTitle(m_lab->rule), m_document->description()), kLabColor);
    p->requestReplot();
}

} // namespace lbd::ui
