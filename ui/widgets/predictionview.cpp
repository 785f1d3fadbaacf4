#include "ui/widgets/predictionview.h"

#include "core/data/regions.h"
#include "ui/style/decisionruletext.h"
#include "ui/style/regioncolors.h"
#include "ui/style/seriescolors.h"
#include "ui/widgets/plottitle.h"
#include "ui/widgets/throttledplot.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lbd::ui {
namespace {

QProgressBar* gauge(const QString& name, const QString& tip, QWidget* parent)
{
    auto* bar = new QProgressBar(parent);
    bar->setObjectName(name);
    bar->setRange(0, 1000);
    bar->setTextVisible(true);
    bar->setToolTip(tip);
    bar->setMinimumWidth(180);
    return bar;
}

} // namespace

PredictionView::PredictionView(QWidget* parent) : QWidget(parent)
{
    m_image = new QLabel(this);
    m_image->setObjectName(QStringLiteral("classifyImage"));
    m_image->setFixedSize(200, 200);
    m_image->setAlignment(Qt::AlignCenter);
    m_image->setStyleSheet(QStringLiteral("border: 1px solid #bbb; background: #fafafa;"));
    // Classify hands over the model's input pixels (modelInputImage), no longer the file as Qt draws it.
    m_image->setToolTip(tr("The image as the model got it: decoded as a person sees it (transparency composited on "
                           "data.alpha_background, turned upright), converted to the run's channels and resized to its "
                           "input size, shown enlarged."));
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("classifyTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_decision = new QLabel(this);
    m_decision->setObjectName(QStringLiteral("classifyDecision"));
    m_decision->setWordWrap(true);
    m_decision->setTextFormat(Qt::RichText);
    m_decision->setToolTip(tr("The decision under the Utility page's matrix and the chosen rule, next to the plain "
                              "argmax of the predictive distribution pbar = (1/M) sum_j p_j."));
    m_warning = new QLabel(this);
    m_warning->setObjectName(QStringLiteral("classifyWarning"));
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QStringLiteral("color: #7a4a00; background: #fff4d6; padding: 6px; border: 1px solid #e0b050; "
                                            "border-radius: 3px;"));
    m_warning->setToolTip(tr("Shown when the total entropy exceeds %1 of its maximum ln C, or when the particles' top "
                             "classes differ, or when the mutual information exceeds %2 nats.")
                              .arg(QStringLiteral("%1%").arg(kUncertainEntropyFraction * 100))
                              .arg(kDisagreementNats));

    // Above the decision: a caution makes the decision below it read as what it is.
    m_caution = new QLabel(this);
    m_caution->setObjectName(QStringLiteral("classifyCaution"));
    m_caution->setWordWrap(true);
    m_caution->setTextFormat(Qt::RichText);
    m_caution->setToolTip(tr("An out-of-distribution score fitted on the run's own images (its validation split, else its "
                             "training images): an image scoring above the value that 95 % of them pass is unlike "
                             "everything the run was trained on, and its probabilities say nothing about it. "
                             "(lbd ood RUN --fit fits it for a run that has none.)"));
    m_input = new QLabel(this);
    m_input->setObjectName(QStringLiteral("classifyInput"));
    m_input->setWordWrap(true);
    m_input->setToolTip(tr("What was done to the image before the model saw it: decoded, converted to the run's "
                           "channels, resized to the run's image size (stretched), then padded or cropped to its input."));

    m_total = gauge(QStringLiteral("gaugeTotal"),
                    tr("Total uncertainty: the entropy H(pbar) of the predictive distribution, in nats (natural log). "
                       "0 = all probability on one class; the bar is full at ln C, all classes equally likely."),
                    this);
    m_aleatoric = gauge(QStringLiteral("gaugeAleatoric"),
                        tr("Aleatoric uncertainty: (1/M) sum_j H(p_j), the mean entropy of the particles, in nats. "
                           "High when every particle finds the image ambiguous (noise, overlap of classes)."),
                        this);
    m_epistemic = gauge(QStringLiteral("gaugeEpistemic"),
                        tr("Epistemic uncertainty: the mutual information H(pbar) - (1/M) sum_j H(p_j), in nats. "
                           "High when the particles disagree with each other: the model lacks knowledge here "
                           "(rare classes, unfamiliar images). Warning above %1 nats.")
                            .arg(kDisagreementNats),
                        this);
    m_votes = gauge(QStringLiteral("gaugeVotes"),
                    tr("Vote disagreement: 1 - (largest number of particles agreeing on the top-1 class) / M. "
                       "0 = every particle picks the same class."),
                    this);
    auto* gauges = new QGridLayout;
    const auto gaugeRow = [this, gauges](int row, const QString& text, QProgressBar* bar) {
        auto* label = new QLabel(text, this);
        label->setToolTip(bar->toolTip());
        gauges->addWidget(label, row, 0);
        gauges->addWidget(bar, row, 1);
    };
    gaugeRow(0, tr("Total H(pbar)"), m_total);
    gaugeRow(1, tr("Aleatoric"), m_aleatoric);
    gaugeRow(2, tr("Epistemic (MI)"), m_epistemic);
    gaugeRow(3, tr("Vote disagreement"), m_votes);

    auto* summary = new QVBoxLayout;
    summary->addWidget(m_title);
    summary->addWidget(m_input);
    summary->addWidget(m_caution);
    summary->addWidget(m_decision);
    summary->addLayout(gauges);
    summary->addWidget(m_warning);
    summary->addStretch();
    auto* top = new QHBoxLayout;
    top->addWidget(m_image, 0, Qt::AlignTop);
    top->addLayout(summary, 1);

    m_topPlot = new ThrottledPlot(this);
    m_topPlot->setObjectName(QStringLiteral("topKPlot"));
    addPlotTitle(m_topPlot, tr("Predictive pbar: top classes"), 10);
    m_topPlot->xAxis->setLabel(tr("class (most probable first; colour = region)"));
    m_topPlot->yAxis->setLabel(tr("pbar(class | x)"));
    m_topPlot->setFixedValueRange(0, 1.05);
    m_topPlot->placeLegendBelow();
    m_particlePlot = new ThrottledPlot(this);
    m_particlePlot->setObjectName(QStringLiteral("particlePlot"));
    addPlotTitle(m_particlePlot, tr("Each particle's p_j, same classes"), 10);
    m_particlePlot->xAxis->setLabel(tr("class"));
    m_particlePlot->yAxis->setLabel(tr("p_j(class | x)"));
    m_particlePlot->setFixedValueRange(0, 1.05);
    m_particlePlot->placeLegendBelow();
    for (ThrottledPlot* plot : {m_topPlot, m_particlePlot}) {
        plot->setMinimumHeight(180); // Classify fits 700 px high
    }

    m_particleTable = new QTableWidget(this);
    m_particleTable->setObjectName(QStringLiteral("particleTable"));
    m_particleTable->setColumnCount(4);
    m_particleTable->setHorizontalHeaderLabels(
        {tr("Particle"), tr("Top-1 class"), tr("p_j(top-1)"), tr("p_j(ensemble argmax)")});
    m_particleTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_particleTable->verticalHeader()->setVisible(false);
    m_particleTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_particleTable->setMaximumHeight(150);
    m_particleTable->setToolTip(tr("One row per particle (ensemble member): its own most probable class and probability. "
                                   "Rows whose top-1 differs from the ensemble's argmax are highlighted."));

    auto* plots = new QHBoxLayout;
    plots->addWidget(m_topPlot, 1);
    plots->addWidget(m_particlePlot, 1);
    auto* resultLayout = new QVBoxLayout(this);
    resultLayout->setContentsMargins(0, 0, 0, 0);
    resultLayout->addLayout(top);
    resultLayout->addLayout(plots, 1);
    resultLayout->addWidget(m_particleTable);

}

void PredictionView::setImage(const QImage& thumbnail)
{
    m_image->setPixmap(thumbnail.isNull() ? QPixmap()
                                          : QPixmap::fromImage(thumbnail.scaled(m_image->size(), Qt::KeepAspectRatio,
                                                                                Qt::SmoothTransformation)));
}

void PredictionView::showPending(const QString& titleHtml, const QImage& thumbnail)
{
    m_title->setText(titleHtml);
    m_decision->clear();
    m_caution->hide();
    m_input->clear();
    m_warning->hide();
    m_particleTable->setRowCount(0);
    m_topPlot->clearPlottables();
    m_particlePlot->clearPlottables();
    m_particleSeries = 0;
    m_topPlot->requestReplot();
    m_particlePlot->requestReplot();
    setImage(thumbnail);
}

QString PredictionView::decisionText() const { return m_decision->text(); }

QString PredictionView::warningText() const { return m_warning->isHidden() ? QString() : m_warning->text(); }

QString PredictionView::cautionText() const { return m_caution->isHidden() ? QString() : m_caution->text(); }

QString PredictionView::inputText() const { return m_input->text(); }

int PredictionView::particleTableRows() const { return m_particleTable->rowCount(); }

void PredictionView::showPrediction(const lbd::Prediction& p, const Labels& labels, const QImage& thumbnail)
{
    const int classes = int(p.meanProbabilities.size());
    const auto name = [&labels](int64_t c) {
        const QString n = labels.classNames.value(int(c));
        return n.isEmpty() ? QString::number(c) : n;
    };
    setImage(thumbnail);
    m_title->setText(tr("<b>%1</b>").arg(labels.displayName.toHtmlEscaped()));
    m_title->setToolTip(labels.source);
    m_input->setText(p.inputDescription.empty() ? QString()
                                                : tr("Input: %1.").arg(QString::fromStdString(p.inputDescription)));

    if (p.ood && p.ood->caution) {
        // %1 is the fit's images (the validation split, the images the long tail left out, ...):
        // alike to the training images but unseen by the network (core/eval/oodimages.h).
        m_caution->setText(tr("<b>Caution: this image is unlike the run's training images.</b> Its %2 score %3 is above "
                              "%4, the value that %5 % of the %1 pass, so the decision and the probabilities below may "
                              "mean nothing for it.")
                               .arg(QString::fromStdString(p.ood->fittedOn).toHtmlEscaped(),
                                    QString::fromStdString(p.ood->method).toHtmlEscaped())
                               .arg(p.ood->score, 0, 'g', 4)
                               .arg(p.ood->threshold, 0, 'g', 4)
                               .arg(p.ood->passRate * 100, 0, 'f', 0));
        m_caution->setStyleSheet(QStringLiteral("color: #b00020; background: #fde7ea; padding: 6px; "
                                                "border: 1px solid #b00020; border-radius: 3px;"));
    } else if (p.ood) {
        m_caution->setText(tr("Like the run's training images: %2 score %3, within the %4 that %5 % of the %1 pass.")
                               .arg(QString::fromStdString(p.ood->fittedOn).toHtmlEscaped(),
                                    QString::fromStdString(p.ood->method).toHtmlEscaped())
                               .arg(p.ood->score, 0, 'g', 4)
                               .arg(p.ood->threshold, 0, 'g', 4)
                               .arg(p.ood->passRate * 100, 0, 'f', 0));
        m_caution->setStyleSheet(QStringLiteral("color: #1b5e20;"));
    } else {
        m_caution->setText(tr("Not checked for being unlike the training images: %1.")
                               .arg(QString::fromStdString(p.oodNote).toHtmlEscaped()));
        m_caution->setStyleSheet(QStringLiteral("color: #7a4a00;"));
    }
    m_caution->show();

    // Decision next to argmax; "deferred" (with r and the confidence it fell short of) when the
    // defer option refers the image to a person.
    const double argmaxP = p.meanProbabilities[size_t(p.argmaxClass)];
    const QString how = tr("%1, %2").arg(decisionRuleTitle(p.rule), labels.matrixDescription.toHtmlEscaped());
    QString decision;
    if (p.deferred && p.deferUtility) {
        decision = tr("Decision (%1): <b>deferred</b>: the rule's confidence %2 is below r = %3, so this image is referred "
                      "to a person (had it decided: %4).")
                       .arg(how)
                       .arg(p.decisionConfidence, 0, 'f', 3)
                       .arg(*p.deferUtility)
                       .arg(name(p.decidedClass).toHtmlEscaped());
    } else {
        decision = tr("Decision (%1): <b>%2</b>").arg(how, name(p.decidedClass).toHtmlEscaped());
        if (p.deferUtility) {
            decision += tr(" (confidence %1, not below r = %2: decided)").arg(p.decisionConfidence, 0, 'f', 3).arg(*p.deferUtility);
        }
    }
    decision += tr("<br>Plain argmax of pbar: <b>%1</b> (pbar = %2)").arg(name(p.argmaxClass).toHtmlEscaped()).arg(argmaxP, 0, 'f', 3);
    if (p.decidedClass != p.argmaxClass && !p.deferred) {
        // Only the expected rule decides by expected utility; saying "expected to be better" of
        // another rule's choice would explain a decision it did not make.
        decision += p.rule == lbd::DecisionRule::Expected
                        ? tr("<br><i>The utility matrix moved the decision away from the most probable class: with the "
                             "matrix's costs, deciding %1 (pbar = %2) has the larger expected utility.</i>")
                              .arg(name(p.decidedClass).toHtmlEscaped())
                              .arg(p.meanProbabilities[size_t(p.decidedClass)], 0, 'f', 3)
                        : tr("<br><i>The %1 rule decided %2 (pbar = %3), not the most probable class.</i>")
                              .arg(QString::fromStdString(lbd::decisionRuleName(p.rule)), name(p.decidedClass).toHtmlEscaped())
                              .arg(p.meanProbabilities[size_t(p.decidedClass)], 0, 'f', 3);
    }
    if (p.warning) {
        decision += tr("<br><span style='color:#8a1c00'><b>Warning:</b> %1</span>")
                        .arg(QString::fromStdString(*p.warning).toHtmlEscaped());
    }
    m_decision->setText(decision);

    // Gauges (nats; full at ln C).
    const lbd::ImageUncertainty& u = p.uncertainty;
    const double maxEntropy = classes > 1 ? std::log(double(classes)) : 1.0;
    const auto setGauge = [maxEntropy](QProgressBar* bar, double nats) {
        bar->setValue(int(std::lround(std::clamp(nats / maxEntropy, 0.0, 1.0) * 1000)));
        bar->setFormat(QObject::tr("%1 nats (max ln C = %2)").arg(nats, 0, 'f', 3).arg(maxEntropy, 0, 'f', 2));
    };
    setGauge(m_total, u.total);
    setGauge(m_aleatoric, u.aleatoric);
    setGauge(m_epistemic, u.epistemic);
    const int m = int(p.particleProbabilities.size());
    m_votes->setValue(int(std::lround(std::clamp(u.voteDisagreement, 0.0, 1.0) * 1000)));
    m_votes->setFormat(tr("%1 (%2 of %3 particles outside the majority)")
                           .arg(u.voteDisagreement, 0, 'f', 2)
                           .arg(int(std::lround(u.voteDisagreement * m)))
                           .arg(m));

    // Plain-language warnings.
    QStringList warnings;
    if (u.total > kUncertainEntropyFraction * maxEntropy) {
        warnings << tr("The ensemble is uncertain: the total entropy %1 nats is above %2% of its maximum ln %3 = %4 nats, "
                       "so the probability is spread over several classes. Treat the decision with care.")
                        .arg(u.total, 0, 'f', 3)
                        .arg(kUncertainEntropyFraction * 100)
                        .arg(classes)
                        .arg(maxEntropy, 0, 'f', 3);
    }
    if (u.voteDisagreement > 0) {
        warnings << tr("The particles disagree: their top classes differ (vote disagreement %1 > 0).").arg(u.voteDisagreement, 0, 'f', 2);
    }
    if (u.epistemic > kDisagreementNats) {
        warnings << tr("Epistemic uncertainty is high: mutual information %1 nats > %2 nats. The particles' distributions "
                       "differ, as for images unlike the training data or from rare (tail) classes.")
                        .arg(u.epistemic, 0, 'f', 3)
                        .arg(kDisagreementNats);
    }
    m_warning->setText(warnings.join(QLatin1Char('\n')));
    m_warning->setVisible(!warnings.isEmpty());

    // Classes shown: the top k by pbar, plus the decision if it is not among them.
    std::vector<int64_t> shown;
    const int k = std::min(labels.topK, classes);
    for (int i = 0; i < k && i < int(p.topK.size()); ++i) {
        shown.push_back(p.topK[size_t(i)].first);
    }
    if (std::find(shown.begin(), shown.end(), p.decidedClass) == shown.end()) {
        shown.push_back(p.decidedClass);
    }
    const std::vector<lbd::Region> regions = lbd::classRegions(std::vector<int64_t>(size_t(classes), 0), lbd::RegionScheme::ThirdsByIndex);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (size_t i = 0; i < shown.size(); ++i) {
        QString label = name(shown[i]);
        if (shown[i] == p.decidedClass) {
            label += tr("\n(decision)");
        }
        ticker->addTick(double(i + 1), label);
    }

    m_topPlot->clearPlottables();
    m_topPlot->xAxis->setTicker(ticker);
    for (lbd::Region region : {lbd::Region::Head, lbd::Region::Medium, lbd::Region::Tail}) {
        auto* bars = new QCPBars(m_topPlot->xAxis, m_topPlot->yAxis);
        bars->setName(tr("%1 class").arg(QString::fromStdString(lbd::regionName(region, lbd::RegionScheme::ThirdsByIndex))));
        bars->setBrush(regionColor(region));
        bars->setPen(QPen(regionColor(region).darker(130)));
        bars->setWidth(0.6);
        for (size_t i = 0; i < shown.size(); ++i) {
            if (regions[size_t(shown[i])] == region) {
                bars->addData(double(i + 1), p.meanProbabilities[size_t(shown[i])]);
            }
        }
        if (bars->dataCount() == 0) {
            bars->removeFromLegend();
        }
    }
    m_topPlot->xAxis->setRange(0.4, double(shown.size()) + 0.6);
    m_topPlot->requestReplot();

    m_particlePlot->clearPlottables();
    m_particlePlot->xAxis->setTicker(ticker);
    auto* group = new QCPBarsGroup(m_particlePlot);
    group->setSpacing(1);
    const double width = std::min(0.8 / std::max(1, m), 0.3);
    for (int j = 0; j < m; ++j) {
        auto* bars = new QCPBars(m_particlePlot->xAxis, m_particlePlot->yAxis);
        bars->setName(tr("particle %1").arg(j + 1));
        bars->setBrush(seriesColor(j));
        bars->setPen(QPen(seriesColor(j).darker(130)));
        bars->setWidth(width);
        bars->setBarsGroup(group);
        for (size_t i = 0; i < shown.size(); ++i) {
            bars->addData(double(i + 1), p.particleProbabilities[size_t(j)][size_t(shown[i])]);
        }
    }
    m_particleSeries = m;
    m_particlePlot->xAxis->setRange(0.4, double(shown.size()) + 0.6);
    m_particlePlot->requestReplot();

    m_particleTable->setRowCount(m);
    for (int j = 0; j < m; ++j) {
        const auto& probs = p.particleProbabilities[size_t(j)];
        const int64_t top = u.particleTop1.size() > size_t(j)
                                ? u.particleTop1[size_t(j)]
                                : int64_t(std::max_element(probs.begin(), probs.end()) - probs.begin());
        const QStringList cells = {tr("%1").arg(j + 1), name(top), QString::number(probs[size_t(top)], 'f', 3),
                                   QString::number(probs[size_t(p.argmaxClass)], 'f', 3)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (top != p.argmaxClass) {
                item->setBackground(QColor(0xff, 0xec, 0xb3));
                item->setToolTip(tr("This particle's top class differs from the ensemble's argmax."));
            }
            m_particleTable->setItem(j, c, item);
        }
    }
}

} // namespace lbd::ui
