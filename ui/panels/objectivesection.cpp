#include "ui/panels/objectivesection.h"

#include "ui/panels/startfromrow.h"
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

#include <QPushButton>

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
        m_baseline->setItemData(m_baseline->count() - 1, QString::fromStdString(lbd::baselineDescription(b)), Qt::ToolTipRole);
    }
    m_baseline->setToolTip(tr("Load the objective of a method to compare with (same engine): LBD, CE, CB loss, LDAM-DRW, "
                              "a plain ensemble, the logit-adjusted loss (Menon et al., ICLR 2021) or Balanced Softmax "
                              "(Ren et al., NeurIPS 2020)."));

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
    m_formula->setWordWrap(true); // the effective number's formula would widen the panel past its column
    m_beta = number(this, 0.5, 0.999999, 6, tr("beta of the effective number (1 - beta^n)/(1 - beta) (Cui et al.: 0.9999)."),
                    QStringLiteral("beta"));
    m_gamma = number(this, -4, 4, 3, tr("gamma of the power ratio f(n) = n^gamma."), QStringLiteral("gamma"));
    m_weights = new ClassWeightPlot(this);
    m_ratioAsLinear = new QCheckBox(tr("Weights sum like linear"), this);
    m_ratioAsLinear->setObjectName(QStringLiteral("ratioAsLinear"));
    m_ratioAsLinear->setToolTip(
        tr("objective.ratio_scale = as-linear: rescale this ratio's class weights so that they sum like the linear "
           "ratio's. Their scale cancels in the weighted cross-entropy but not in the utility term, which they "
           "multiply: off (published, as the paper's code), the effective number's weights are rescaled to sum to C, "
           "239x the linear ones on Fashion-MNIST-LT, and the utility term is that much stronger at the same alpha. "
           "On, a change of ratio changes the ratio alone. Linear is the same either way."));

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
    m_logitAdjustment = new QCheckBox(tr("Logit adjustment"), this);
    m_logitAdjustment->setObjectName(QStringLiteral("logitAdjustment"));
    m_logitAdjustment->setToolTip(tr("Logit-adjusted loss (Menon et al., ICLR 2021): the losses see z_k + tau log pi_k, pi "
                                     "the training class priors, so rare classes must win by a margin. At tau = 1 it is "
                                     "Balanced Softmax (Ren et al., NeurIPS 2020). Training only: predictions use the plain "
                                     "logits."));
    m_logitTau = number(this, 0.0, lbd::kMaxLogitAdjustTau, 2,
                        tr("tau of the logit adjustment, 0 to 10 (Menon et al.: 1; 0 is plain cross-entropy)."),
                        QStringLiteral("logitAdjustTau"));

    m_utilityTerm = new QCheckBox(tr("Utility term"), this);
    m_utilityTerm->setObjectName(QStringLiteral("utilityTerm"));
    m_utilityTerm->setToolTip(tr("Add (1/alpha) UT, the utility term of the TRAINING utility matrix (paper Eq. 8, in "
                                 "the form chosen below). Needs a training utility that is not one-hot."));
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
    m_utilityPreset->setItemData(0, tr("U = I: no utility term; the plain LBD objective."), Qt::ToolTipRole);
    m_utilityPreset->addItem(tr("Tail-sensitive (penalty c)"), QStringLiteral("tail"));
    m_utilityPreset->setItemData(1, tr("Paper Fig. 1b: I with -c wherever the decision is more head-ward than the truth "
                                       "(a false head)."),
                                 Qt::ToolTipRole);
    m_utilityPreset->addItem(tr("Matrix by value (Utility page)"), QStringLiteral("matrix"));
    m_utilityPreset->setItemData(2, tr("A copy of the Utility page's matrix, taken when you choose this entry or press Copy "
                                       "again; the run stores the copy, never a path to a file."),
                                 Qt::ToolTipRole);
    m_utilityPreset->setToolTip(tr("The TRAINING utility matrix U (rows = true class, columns = decision) of the utility "
                                   "term. The paper's protocol trains with the tail-sensitive U and decides by argmax; "
                                   "how the run DECIDES is the separate decision setting below (the Utility page's "
                                   "matrix, rule and defer), so one preference is not counted twice by accident."));
    m_utilityMatrixLabel = new QLabel(this);
    m_utilityMatrixLabel->setObjectName(QStringLiteral("trainingMatrix"));
    m_utilityMatrixLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_copyMatrix = new QPushButton(tr("Copy again"), this);
    m_copyMatrix->setObjectName(QStringLiteral("copyTrainingMatrix"));
    m_copyMatrix->setToolTip(tr("Copy the Utility page's current matrix (by value) as the training utility."));
    connect(m_copyMatrix, &QPushButton::clicked, this, &ObjectiveSection::matrixCopyRequested);
    m_tailPenalty = number(this, 0, 100, 3, tr("c: the training utility of a false head decision is -c (must be positive)."),
                           QStringLiteral("tailPenalty"));
    m_utilityForm = new QComboBox(this);
    m_utilityForm->setObjectName(QStringLiteral("utilityForm"));
    for (lbd::UtilityForm form : lbd::allUtilityForms()) {
        const QString name = QString::fromStdString(lbd::utilityFormName(form));
        m_utilityForm->addItem(form == lbd::UtilityForm::Bounded ? tr("%1 (default)").arg(name) : name, static_cast<int>(form));
        m_utilityForm->setItemData(m_utilityForm->count() - 1, QString::fromStdString(lbd::utilityFormDescription(form)),
                                   Qt::ToolTipRole);
    }
    m_utilityForm->setToolTip(tr("How the utility term turns the training U into a loss (lbd-math.md section 4). bounded: "
                                 "every term >= 0, cannot run away (default). published: the published loss.py, for "
                                 "reproducing the paper. paper: Eq. 8's per-sample weight w_y in the published code's row "
                                 "orientation U[y,k] (the printed Eq. 8 reads the column U[k,y]). The last two are unbounded below with "
                                 "negative utilities. Hover an entry for its formula."));
    m_trainingWarning = new QLabel(this);
    m_trainingWarning->setObjectName(QStringLiteral("trainingUtilityWarning"));
    m_trainingWarning->setWordWrap(true);
    m_trainingWarning->setStyleSheet(QStringLiteral("color: #8a1c00; background: #fff0e6; padding: 4px; border: 1px solid "
                                                    "#d9822b; border-radius: 3px; font-weight: bold;"));
    m_trainingWarning->setToolTip(tr("Shown before Start when this training utility and form are known to be unstable."));
    m_trainingWarning->setVisible(false);

    auto* marginRow = new QHBoxLayout;
    marginRow->addWidget(m_margins);
    marginRow->addWidget(new QLabel(tr("max"), this));
    marginRow->addWidget(m_maxMargin);
    auto* logitRow = new QHBoxLayout;
    logitRow->addWidget(m_logitAdjustment);
    logitRow->addWidget(new QLabel(tr("tau"), this));
    logitRow->addWidget(m_logitTau);
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
    auto* matrixRow = new QHBoxLayout;
    matrixRow->addWidget(m_utilityMatrixLabel, 1);
    matrixRow->addWidget(m_copyMatrix);
    m_utilityMatrixRow = new QWidget(this);
    m_utilityMatrixRow->setLayout(matrixRow);
    matrixRow->setContentsMargins(0, 0, 0, 0);
    auto* ratioParams = new QHBoxLayout;
    ratioParams->addWidget(new QLabel(tr("beta"), this));
    ratioParams->addWidget(m_beta);
    ratioParams->addWidget(new QLabel(tr("gamma"), this));
    ratioParams->addWidget(m_gamma);

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Architecture"), m_arch);
    form->addRow(tr("Particles M"), m_particles);
    m_startFrom = new StartFromRow(this);
    m_startFrom->setModelProvider([this] {
        lbd::TrainConfig config;
        apply(config);
        return config.model;
    });
    form->addRow(tr("Start from"), m_startFrom);
    form->addRow(tr("Method preset"), m_baseline);
    form->addRow(tr("Discrepancy ratio"), m_discrepancy);
    form->addRow(QString(), m_formula);
    form->addRow(QString(), ratioParams);
    form->addRow(QString(), m_ratioAsLinear);
    form->addRow(m_weights);
    form->addRow(tr("DRW epoch"), m_drwEpoch);
    form->addRow(marginRow);
    form->addRow(logitRow);
    form->addRow(repulsiveRow);
    form->addRow(tr("Training utility"), presetRow);
    form->addRow(QString(), m_utilityMatrixRow);
    form->addRow(utilityRow);
    form->addRow(tr("Utility form"), m_utilityForm);
    form->addRow(m_trainingWarning);

    const auto edited = [this] {
        if (m_loading) {
            return;
        }
        updateEnabled();
        updateDiscrepancy();
        emit changed();
    };
    for (QComboBox* box : {m_arch, m_discrepancy, m_utilityPreset, m_utilityForm}) {
        connect(box, &QComboBox::currentIndexChanged, this, edited);
    }
    for (QDoubleSpinBox* box : {m_beta, m_gamma, m_maxMargin, m_logitTau, m_alpha, m_tau, m_tailPenalty}) {
        connect(box, &QDoubleSpinBox::valueChanged, this, edited);
    }
    for (QSpinBox* box : {m_particles, m_drwEpoch}) {
        connect(box, &QSpinBox::valueChanged, this, edited);
    }
    for (QCheckBox* box : {m_ratioAsLinear, m_margins, m_logitAdjustment, m_utilityTerm, m_repulsive}) {
        connect(box, &QCheckBox::toggled, this, edited);
    }
    connect(m_baseline, &QComboBox::activated, this, &ObjectiveSection::applyBaseline);
    connect(m_startFrom, &StartFromRow::changed, this, edited);
    // A chosen file that no longer fits the architecture or particle count says so at once.
    const auto recheck = [this] {
        if (!m_loading) {
            m_startFrom->recheck();
        }
    };
    connect(m_arch, &QComboBox::currentIndexChanged, this, recheck);
    connect(m_particles, &QSpinBox::valueChanged, this, recheck);
    // Choosing the matrix entry takes a fresh copy (a user choice, not a reload).
    connect(m_utilityPreset, &QComboBox::activated, this, [this](int index) {
        if (index == 2) {
            emit matrixCopyRequested();
        }
    });
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
    m_startFrom->setPath(QString::fromStdString(config.model.initFrom));
    m_discrepancy->setCurrentIndex(std::max(0, m_discrepancy->findData(static_cast<int>(o.discrepancy.kind))));
    m_beta->setValue(o.discrepancy.beta);
    m_gamma->setValue(o.discrepancy.gamma);
    m_ratioAsLinear->setChecked(o.discrepancy.scale == lbd::RatioScale::AsLinear);
    m_drwEpoch->setValue(o.drwEpoch);
    m_margins->setChecked(o.ldamMargins);
    m_maxMargin->setValue(o.maxMargin);
    m_logitAdjustment->setChecked(o.logitAdjustment);
    m_logitTau->setValue(o.logitAdjustTau);
    m_utilityTerm->setChecked(o.utilityTerm);
    m_alpha->setValue(o.alpha);
    m_repulsive->setChecked(o.repulsive);
    m_tau->setValue(o.tau);
    m_utilityForm->setCurrentIndex(std::max(0, m_utilityForm->findData(static_cast<int>(o.utilityForm))));
    const lbd::UtilitySetting& utility = o.utility;
    const std::optional<double> penalty = utility.byValue() ? std::nullopt : lbd::tailPenaltyOf(utility.spec);
    m_matrixUtility = {};
    if (!utility.byValue() && utility.spec == "onehot") {
        m_utilityPreset->setCurrentIndex(0);
    } else if (penalty) {
        m_utilityPreset->setCurrentIndex(1);
        m_tailPenalty->setValue(*penalty);
    } else {
        m_utilityPreset->setCurrentIndex(2);
        m_matrixUtility = utility; // a matrix by value, or a file a config names
    }
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
    config.model.initFrom = m_startFrom->path().toStdString();
    lbd::ObjectiveSpec& o = config.objective;
    o = m_baseObjective;
    o.discrepancy.kind = static_cast<lbd::DiscrepancyKind>(m_discrepancy->currentData().toInt());
    o.discrepancy.beta = m_beta->value();
    o.discrepancy.gamma = m_gamma->value();
    o.discrepancy.scale = m_ratioAsLinear->isChecked() ? lbd::RatioScale::AsLinear : lbd::RatioScale::Published;
    o.drwEpoch = m_drwEpoch->value();
    o.ldamMargins = m_margins->isChecked();
    o.maxMargin = m_maxMargin->value();
    o.logitAdjustment = m_logitAdjustment->isChecked();
    o.logitAdjustTau = m_logitTau->value();
    o.utilityTerm = m_utilityTerm->isChecked();
    o.alpha = m_alpha->value();
    o.repulsive = m_repulsive->isChecked();
    o.tau = m_tau->value();
    o.utilityForm = static_cast<lbd::UtilityForm>(m_utilityForm->currentData().toInt());
    o.utility = trainingUtility();
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

void ObjectiveSection::setTrainingMatrix(const lbd::UtilitySetting& utility)
{
    m_matrixUtility = utility;
    m_loading = true;
    m_utilityPreset->setCurrentIndex(2);
    m_loading = false;
    updateEnabled();
    emit changed();
}

lbd::UtilitySetting ObjectiveSection::trainingUtility() const
{
    switch (m_utilityPreset->currentIndex()) {
    case 1: return lbd::utilityFromSpec(lbd::tailSpec(m_tailPenalty->value()));
    case 2: return m_matrixUtility; // empty spec until a matrix is copied: refused by the panel
    default: return lbd::utilityFromSpec("onehot");
    }
}

void ObjectiveSection::updateTrainingWarning()
{
    // The warning depends on the signs of the off-diagonal entries only, so a tail matrix of any
    // size stands for the data set's; a file is read as it is (the panel checks it against the
    // classes separately).
    lbd::UtilityMatrix matrix;
    const lbd::UtilitySetting utility = trainingUtility();
    try {
        if (utility.byValue()) {
            matrix = utility.matrix;
        } else if (const auto penalty = lbd::tailPenaltyOf(utility.spec)) {
            matrix = lbd::UtilityMatrix::tailSensitive(std::max<int64_t>(2, int64_t(m_counts.size())), *penalty);
        } else if (lbd::isUtilityFileSpec(utility.spec)) {
            matrix = lbd::loadUtilityMatrix(utility.spec, {});
        }
    } catch (const std::exception&) {
        matrix = {}; // an unreadable file is the panel's error, not a warning
    }
    lbd::ObjectiveSpec objective;
    objective.utilityTerm = m_utilityTerm->isChecked();
    objective.utilityForm = static_cast<lbd::UtilityForm>(m_utilityForm->currentData().toInt());
    objective.alpha = m_alpha->value();
    objective.discrepancy.kind = static_cast<lbd::DiscrepancyKind>(m_discrepancy->currentData().toInt());
    objective.discrepancy.beta = m_beta->value();
    objective.discrepancy.gamma = m_gamma->value();
    objective.discrepancy.scale = m_ratioAsLinear->isChecked() ? lbd::RatioScale::AsLinear : lbd::RatioScale::Published;
    QStringList warnings;
    if (!matrix.empty()) {
        for (const auto& warning : {lbd::trainingUtilityWarning(objective, matrix),
                                    lbd::utilityScaleWarning(objective, matrix, m_counts)}) {
            if (warning) {
                warnings << tr("Warning: %1.").arg(QString::fromStdString(*warning));
            }
        }
    }
    m_trainingWarning->setText(warnings.join(QLatin1Char('\n')));
    m_trainingWarning->setVisible(!warnings.isEmpty());
}

QString ObjectiveSection::trainingWarningText() const
{
    return m_trainingWarning->isHidden() ? QString() : m_trainingWarning->text();
}

void ObjectiveSection::applyBaseline()
{
    const QString name = m_baseline->currentData().toString();
    if (name.isEmpty()) {
        return;
    }
    try {
        // Core's applyBaseline sets only what the method defines and keeps the rest (alpha, the
        // utility and its form), as `lbd train --baseline` does.
        lbd::TrainConfig config;
        apply(config);
        int64_t particles = config.model.particles;
        lbd::applyBaseline(lbd::parseBaseline(name.toStdString()), m_epochs, config.objective, particles);
        config.model.particles = particles;
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
    m_logitTau->setEnabled(m_logitAdjustment->isChecked());
    m_alpha->setEnabled(m_utilityTerm->isChecked());
    m_repulsive->setEnabled(m_particles->value() > 1);
    m_tau->setEnabled(m_repulsive->isChecked() && m_particles->value() > 1);
    m_tailPenalty->setEnabled(m_utilityPreset->currentIndex() == 1);
    m_utilityForm->setEnabled(m_utilityTerm->isChecked());
    m_utilityMatrixRow->setVisible(m_utilityPreset->currentIndex() == 2);
    const lbd::UtilitySetting& u = m_matrixUtility;
    if (u.byValue()) {
        m_utilityMatrixLabel->setText(tr("Copy: %1 (%2 x %2)").arg(QString::fromStdString(u.describe())).arg(u.matrix.classCount()));
        m_utilityMatrixLabel->setToolTip(tr("Copied by value; later edits on the Utility page do not change it (Copy again does)."));
    } else if (!u.spec.empty()) {
        m_utilityMatrixLabel->setText(tr("File: %1").arg(QFileInfo(QString::fromStdString(u.spec)).fileName()));
        m_utilityMatrixLabel->setToolTip(tr("%1\nRead when the run starts and stored by value in the run folder.")
                                             .arg(QString::fromStdString(u.spec)));
    } else {
        m_utilityMatrixLabel->setText(tr("No matrix copied yet"));
        m_utilityMatrixLabel->setToolTip(tr("Copy again takes the Utility page's matrix."));
    }
    updateTrainingWarning();
}

void ObjectiveSection::updateDiscrepancy()
{
    const auto kind = static_cast<lbd::DiscrepancyKind>(m_discrepancy->currentData().toInt());
    m_formula->setText(QString::fromStdString(lbd::discrepancyFormula(kind)));
    lbd::DiscrepancySpec spec;
    spec.kind = kind;
    spec.beta = m_beta->value();
    spec.gamma = m_gamma->value();
    spec.scale = m_ratioAsLinear->isChecked() ? lbd::RatioScale::AsLinear : lbd::RatioScale::Published;
    const std::vector<double> weights = m_weights->setWeights(m_counts, spec);
    if (!weights.empty()) {
        const double ratio = weights.back() / weights.front();
        m_formula->setText(QString::fromStdString(lbd::discrepancyFormula(kind))
                           + tr("   (tail/head weight %1x)").arg(ratio, 0, 'g', 3));
    }
    updateTrainingWarning(); // the utility term's strength follows the weights' scale
}

} // namespace lbd::ui
