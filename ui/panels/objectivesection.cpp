#include "ui/panels/objectivesection.h"

#include "ui/widgets/classweightplot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace lbd::ui {
namespace {

QDoubleSpinBox* number(QWidget* parent, double lo, double hi, int decimals, const QString& tip, const QString& name)
{
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(lo, hi);
    box->setDecimals(decimals);
    box->setToolTip(tip);
    box->setObjectName(name);
    box->setKeyboardTracking(false);
    return box;
}

QString architectureTip(const std::string& arch)
{
    if (arch == "resnet32") {
        return QObject::tr("ResNet-32 (He et al. 2016) for 32x32 inputs: the paper's CIFAR model. Particles share the stem.");
    }
    if (arch == "resnet50") {
        return QObject::tr("ResNet-50 variant for ImageNet-LT-sized inputs (at least 32x32). Slow on a CPU.");
    }
    if (arch == "smallcnn") {
        return QObject::tr("A small CNN for fast CPU runs and tests (inputs from 8x8).");
    }
    return {};
}

} // namespace

ObjectiveSection::ObjectiveSection(QWidget* parent) : QWidget(parent)
{
    m_arch = new QComboBox(this);
    m_arch->setObjectName(QStringLiteral("architecture"));
    for (const std::string& arch : lbd::ModelSpec::knownArchitectures()) {
        m_arch->addItem(QString::fromStdString(arch), QString::fromStdString(arch));
        m_arch->setItemData(m_arch->count() - 1, architectureTip(arch), Qt::ToolTipRole);
    }
    m_arch->setToolTip(tr("Network of each particle. Every particle ends in a cosine classifier, logits = s cos(feature, w_k)."));
    m_particles = new QSpinBox(this);
    m_particles->setObjectName(QStringLiteral("particles"));
    m_particles->setRange(1, 32);
    m_particles->setToolTip(tr("Particle count M: ensemble members trained jointly as samples of the posterior. "
                               "The predictive distribution is their average pbar; M > 1 enables the repulsive force."));

    m_baseline = new QComboBox(this);
    m_baseline->setObjectName(QStringLiteral("baseline"));
    m_baseline->addItem(tr("(keep settings)"), QString());
    for (lbd::Baseline b : lbd::allBaselines()) {
        m_baseline->addItem(QString::fromStdString(lbd::baselineTitle(b)), QString::fromStdString(lbd::baselineName(b)));
    }
    m_baseline->setToolTip(tr("Load the objective of a method the paper compares with (same engine): LBD, CE, CB loss, "
                              "LDAM-DRW, a plain ensemble."));

    m_discrepancy = new QComboBox(this);
    m_discrepancy->setObjectName(QStringLiteral("discrepancy"));
    for (lbd::DiscrepancyKind kind : lbd::allDiscrepancyKinds()) {
        m_discrepancy->addItem(QString::fromStdString(lbd::discrepancyKindName(kind)), static_cast<int>(kind));
        m_discrepancy->setItemData(m_discrepancy->count() - 1, QString::fromStdString(lbd::discrepancyFormula(kind)),
                                   Qt::ToolTipRole);
    }
    m_discrepancy->setToolTip(tr("Discrepancy ratio w_c = 1/f(n_c): how much one training image of class c counts in "
                                 "the weighted cross-entropy. Paper Table 5: linear f(n) = n is best."));
    m_formula = new QLabel(this);
    m_formula->setObjectName(QStringLiteral("discrepancyFormula"));
    m_formula->setStyleSheet(QStringLiteral("font-family: monospace;"));
    m_beta = number(this, 0.5, 0.999999, 6, tr("beta of the effective number (1 - beta^n)/(1 - beta) (Cui et al.: 0.9999)."),
                    QStringLiteral("beta"));
    m_gamma = number(this, -4, 4, 3, tr("gamma of the power ratio f(n) = n^gamma."), QStringLiteral("gamma"));
    m_weights = new ClassWeightPlot(this);

    m_drwEpoch = new QSpinBox(this);
    m_drwEpoch->setObjectName(QStringLiteral("drwEpoch"));
    m_drwEpoch->setRange(0, 100000);
    m_drwEpoch->setToolTip(tr("Deferred re-weighting: w = 1 up to this epoch, w_c after (paper: 80% of the epochs, "
                              "160 of 200). 0 weights from the first epoch."));
    m_margins = new QCheckBox(tr("LDAM margins"), this);
    m_margins->setObjectName(QStringLiteral("ldamMargins"));
    m_margins->setToolTip(tr("Subtract s m_y from the true-class logit while training, m_c proportional to n_c^(-1/4): "
                             "rare classes get larger margins (used by the published code)."));
    m_maxMargin = number(this, 0.01, 2, 2, tr("Margin of the rarest class (published code: 0.5)."), QStringLiteral("maxMargin"));

    m_utilityTerm = new QCheckBox(tr("Utility term"), this);
    m_utilityTerm->setObjectName(QStringLiteral("utilityTerm"));
    m_utilityTerm->setToolTip(tr("Add (1/alpha) UT, the expected off-diagonal utility of the particles' predictions "
                                 "(paper Eq. 5). Needs a non one-hot utility matrix."));
    m_alpha = number(this, 1e-4, 1e4, 4, tr("alpha: the utility term is weighted 1/alpha. Paper Table 8: 0.002 CIFAR-10-LT, "
                                            "0.3 CIFAR-100-LT, 50 ImageNet-LT."),
                     QStringLiteral("alpha"));
    m_repulsive = new QCheckBox(tr("Repulsive force"), this);
    m_repulsive->setObjectName(QStringLiteral("repulsive"));
    m_repulsive->setToolTip(tr("Subtract a(e) R, R = 1/2 mean_k log Var_k of the particles' classifier weights: keeps "
                               "the particles apart (only with M > 1)."));
    m_tau = number(this, 0.01, 1e5, 2, tr("tau: annealing a(e) = exp(-e/tau) of the repulsive force. Paper: 40 CIFAR, 20 ImageNet-LT."),
                   QStringLiteral("tau"));

    m_utilityPreset = new QComboBox(this);
    m_utilityPreset->setObjectName(QStringLiteral("utilityPreset"));
    m_utilityPreset->addItem(tr("One-hot (U = I)"), QStringLiteral("onehot"));
    m_utilityPreset->addItem(tr("Tail-sensitive (penalty c)"), QStringLiteral("tail"));
    m_utilityPreset->addItem(tr("File (from the editor)"), QStringLiteral("file"));
    m_utilityPreset->setToolTip(tr("Utility matrix U (rows = true class, columns = decision). Tail-sensitive (paper "
                                   "Fig. 1b): -c wherever the decision is more head-ward than the truth, a false head. "
                                   "File: a CSV / JSON matrix, e.g. saved by the Utility page's \"Use for training\"."));
    m_utilityFile = new QLabel(this);
    m_utilityFile->setObjectName(QStringLiteral("utilityFile"));
    m_utilityFile->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tailPenalty = number(this, 0, 100, 3, tr("c: the utility of a false head decision is -c (must be positive)."),
                           QStringLiteral("tailPenalty"));
    m_rule = new QComboBox(this);
    m_rule->setObjectName(QStringLiteral("decisionRule"));
    for (const lbd::DecisionRuleInfo& info : lbd::decisionRules()) {
        m_rule->addItem(QString::fromStdString(info.title), static_cast<int>(info.rule));
        m_rule->setItemData(m_rule->count() - 1, QString::fromStdString(info.description), Qt::ToolTipRole);
    }
    m_rule->setToolTip(tr("How the run's evaluations decide, with the Utility page's decision matrix."));

    auto* marginRow = new QHBoxLayout;
    marginRow->addWidget(m_margins);
    marginRow->addWidget(new QLabel(tr("max"), this));
    marginRow->addWidget(m_maxMargin);
    auto* utilityRow = new QHBoxLayout;
    utilityRow->addWidget(m_utilityTerm);
    utilityRow->addWidget(new QLabel(tr("alpha"), this));
    utilityRow->addWidget(m_alpha);
    auto* repulsiveRow = new QHBoxLayout;
    repulsiveRow->addWidget(m_repulsive);
    repulsiveRow->addWidget(new QLabel(tr("tau"), this));
    repulsiveRow->addWidget(m_tau);
    auto* presetRow = new QHBoxLayout;
    presetRow->addWidget(m_utilityPreset, 1);
    presetRow->addWidget(new QLabel(tr("c"), this));
    presetRow->addWidget(m_tailPenalty);
    auto* ratioParams = new QHBoxLayout;
    ratioParams->addWidget(new QLabel(tr("beta"), this));
    ratioParams->addWidget(m_beta);
    ratioParams->addWidget(new QLabel(tr("gamma"), this));
    ratioParams->addWidget(m_gamma);

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Architecture"), m_arch);
    form->addRow(tr("Particles M"), m_particles);
    form->addRow(tr("Method preset"), m_baseline);
    form->addRow(tr("Discrepancy ratio"), m_discrepancy);
    form->addRow(QString(), m_formula);
    form->addRow(QString(), ratioParams);
    form->addRow(m_weights);
    form->addRow(tr("DRW epoch"), m_drwEpoch);
    form->addRow(marginRow);
    form->addRow(utilityRow);
    form->addRow(repulsiveRow);
    form->addRow(tr("Utility"), presetRow);
    form->addRow(QString(), m_utilityFile);
    form->addRow(tr("Decision rule"), m_rule);

    const auto edited = [this] {
        if (m_loading) {
            return;
        }
        updateEnabled();
        updateDiscrepancy();
        emit changed();
    };
    for (QComboBox* box : {m_arch, m_discrepancy, m_utilityPreset, m_rule}) {
        connect(box, &QComboBox::currentIndexChanged, this, edited);
    }
    for (QDoubleSpinBox* box : {m_beta, m_gamma, m_maxMargin, m_alpha, m_tau, m_tailPenalty}) {
        connect(box, &QDoubleSpinBox::valueChanged, this, edited);
    }
    for (QSpinBox* box : {m_particles, m_drwEpoch}) {
        connect(box, &QSpinBox::valueChanged, this, edited);
    }
    for (QCheckBox* box : {m_margins, m_utilityTerm, m_repulsive}) {
        connect(box, &QCheckBox::toggled, this, edited);
    }
    connect(m_baseline, &QComboBox::activated, this, &ObjectiveSection::applyBaseline);
    load(lbd::TrainConfig{});
}

void ObjectiveSection::load(const lbd::TrainConfig& config)
{
    m_loading = true;
    m_baseModel = config.model;
    m_baseObjective = config.objective;
    m_epochs = config.train.epochs;
    const lbd::ObjectiveSpec& o = config.objective;
    m_arch->setCurrentIndex(std::max(0, m_arch->findData(QString::fromStdString(config.model.arch))));
    m_particles->setValue(int(config.model.particles));
    m_discrepancy->setCurrentIndex(std::max(0, m_discrepancy->findData(static_cast<int>(o.discrepancy.kind))));
    m_beta->setValue(o.discrepancy.beta);
    m_gamma->setValue(o.discrepancy.gamma);
    m_drwEpoch->setValue(o.drwEpoch);
    m_margins->setChecked(o.ldamMargins);
    m_maxMargin->setValue(o.maxMargin);
    m_utilityTerm->setChecked(o.utilityTerm);
    m_alpha->setValue(o.alpha);
    m_repulsive->setChecked(o.repulsive);
    m_tau->setValue(o.tau);
    const QString utility = QString::fromStdString(config.objective.utility.spec);
    m_customUtility.clear();
    if (utility.startsWith(QLatin1String("tail:"))) {
        m_utilityPreset->setCurrentIndex(1);
        m_tailPenalty->setValue(utility.mid(5).toDouble());
    } else if (utility == QLatin1String("onehot")) {
        m_utilityPreset->setCurrentIndex(0);
        m_tailPenalty->setValue(1.0);
    } else {
        m_utilityPreset->setCurrentIndex(2);
        m_tailPenalty->setValue(1.0);
        m_customUtility = config.objective.utility.spec; // a matrix file
    }
    m_rule->setCurrentIndex(std::max(0, m_rule->findData(static_cast<int>(config.decision.rule))));
    m_baseline->setCurrentIndex(0);
    m_loading = false;
    updateEnabled();
    updateDiscrepancy();
}

void ObjectiveSection::apply(lbd::TrainConfig& config) const
{
    config.model = m_baseModel;
    config.model.arch = m_arch->currentData().toString().toStdString();
    config.model.particles = m_particles->value();
    lbd::ObjectiveSpec& o = config.objective;
    o = m_baseObjective;
    o.discrepancy.kind = static_cast<lbd::DiscrepancyKind>(m_discrepancy->currentData().toInt());
    o.discrepancy.beta = m_beta->value();
    o.discrepancy.gamma = m_gamma->value();
    o.drwEpoch = m_drwEpoch->value();
    o.ldamMargins = m_margins->isChecked();
    o.maxMargin = m_maxMargin->value();
    o.utilityTerm = m_utilityTerm->isChecked();
    o.alpha = m_alpha->value();
    o.repulsive = m_repulsive->isChecked();
    o.tau = m_tau->value();
    if (m_utilityPreset->currentIndex() == 1) {
        o.utility = lbd::utilityFromSpec(lbd::tailSpec(m_tailPenalty->value()));
    } else if (m_utilityPreset->currentIndex() == 2) {
        o.utility = lbd::utilityFromSpec(m_customUtility); // empty until a file is chosen: refused by the panel
    } else {
        o.utility = lbd::utilityFromSpec("onehot");
    }
    config.decision.rule = static_cast<lbd::DecisionRule>(m_rule->currentData().toInt());
}

void ObjectiveSection::setClassCounts(const std::vector<int64_t>& counts)
{
    m_counts = counts;
    updateDiscrepancy();
}

void ObjectiveSection::scaleToEpochs(int epochs)
{
    if (epochs == m_epochs) {
        return;
    }
    // Keep the DRW epoch at the same fraction of the run (80% in the paper).
    const double fraction = m_epochs > 0 ? double(m_drwEpoch->value()) / double(m_epochs) : 0.8;
    m_epochs = epochs;
    m_drwEpoch->setValue(int(std::lround(fraction * epochs)));
}

void ObjectiveSection::setUtilityFile(const QString& path)
{
    m_customUtility = path.toStdString();
    m_loading = true;
    m_utilityPreset->setCurrentIndex(2);
    m_loading = false;
    updateEnabled();
    emit changed();
}

void ObjectiveSection::applyBaseline()
{
    const QString name = m_baseline->currentData().toString();
    if (name.isEmpty()) {
        return;
    }
    try {
        const lbd::BaselinePreset preset = lbd::baselinePreset(lbd::parseBaseline(name.toStdString()), m_epochs);
        lbd::TrainConfig config;
        apply(config);
        config.objective = preset.objective;
        config.model.particles = preset.particles;
        config.train.epochs = m_epochs;
        load(config);
        m_baseline->setCurrentIndex(m_baseline->findData(name));
        emit changed();
    } catch (const std::exception&) {
        m_baseline->setCurrentIndex(0);
    }
}

void ObjectiveSection::updateEnabled()
{
    const auto kind = static_cast<lbd::DiscrepancyKind>(m_discrepancy->currentData().toInt());
    m_beta->setEnabled(kind == lbd::DiscrepancyKind::EffectiveNumber);
    m_gamma->setEnabled(kind == lbd::DiscrepancyKind::Power);
    m_maxMargin->setEnabled(m_margins->isChecked());
    m_alpha->setEnabled(m_utilityTerm->isChecked());
    m_repulsive->setEnabled(m_particles->value() > 1);
    m_tau->setEnabled(m_repulsive->isChecked() && m_particles->value() > 1);
    m_tailPenalty->setEnabled(m_utilityPreset->currentIndex() == 1);
    const bool file = m_utilityPreset->currentIndex() == 2;
    m_utilityFile->setVisible(file);
    const QString path = QString::fromStdString(m_customUtility);
    m_utilityFile->setText(path.isEmpty() ? tr("No file yet: Utility page > Use for training")
                                          : tr("File: %1").arg(QFileInfo(path).fileName()));
    m_utilityFile->setToolTip(path.isEmpty() ? tr("The editor's \"Use for training\" saves the matrix and puts its path here.")
                                             : path);
}

void ObjectiveSection::updateDiscrepancy()
{
    const auto kind = static_cast<lbd::DiscrepancyKind>(m_discrepancy->currentData().toInt());
    m_formula->setText(QString::fromStdString(lbd::discrepancyFormula(kind)));
    lbd::DiscrepancySpec spec;
    spec.kind = kind;
    spec.beta = m_beta->value();
    spec.gamma = m_gamma->value();
    const std::vector<double> weights = m_weights->setWeights(m_counts, spec);
    if (!weights.empty()) {
        const double ratio = weights.back() / weights.front();
        m_formula->setText(QString::fromStdString(lbd::discrepancyFormula(kind))
                           + tr("   (tail/head weight %1x)").arg(ratio, 0, 'g', 3));
    }
}

} // namespace lbd::ui
