#include "ui/pages/classifypage.h"
#include "ui/decisionruletext.h"
#include "ui/widgets/plottitle.h"

#include "core/data/regions.h"
#include "core/infer/predictor.h"
#include "ui/regioncolors.h"
#include "ui/utility/utilitydocument.h"
#include "ui/widgets/throttledplot.h"

#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lbd::ui {
namespace {

constexpr int kThumbnailSide = 320;

QColor particleColor(int j)
{
    static const QColor palette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                                     QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                     QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
                                     QColor(0x17, 0xbe, 0xcf)};
    return palette[j % 10];
}

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

QString fileNameOf(const QString& source)
{
    const QString name = QFileInfo(source).fileName();
    return name.isEmpty() ? source : name;
}

} // namespace

ClassifyPage::ClassifyPage(UtilityDocument* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    setObjectName(QStringLiteral("classifyPage"));
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);
    setAcceptDrops(true);
    buildUi();

    m_redecideTimer = new QTimer(this);
    m_redecideTimer->setSingleShot(true);
    m_redecideTimer->setInterval(200); // a painting stroke in the editor re-decides once
    connect(m_redecideTimer, &QTimer::timeout, this, [this] {
        if (m_predictor) {
            submitAll(false);
        }
    });
    connect(m_document, &UtilityDocument::matrixChanged, this, [this] {
        if (usesDocumentMatrix()) {
            m_redecideTimer->start();
        }
        updateStatus();
    });
    updateStatus();
}

ClassifyPage::~ClassifyPage()
{
    // Workers post their results to this page; let them finish while it is still whole.
    m_pool.clear();
    m_pool.waitForDone();
}

void ClassifyPage::buildUi()
{
    auto* open = new QPushButton(tr("Open images..."), this);
    open->setObjectName(QStringLiteral("openImages"));
    open->setToolTip(tr("Choose image files to classify (any size, colour or grey; they are converted to the run's "
                        "input size and channels)."));
    connect(open, &QPushButton::clicked, this, &ClassifyPage::openFiles);
    auto* paste = new QPushButton(tr("Paste"), this);
    paste->setObjectName(QStringLiteral("pasteImage"));
    paste->setToolTip(tr("Classify the image (or image files) on the clipboard (Ctrl+V on this page)."));
    connect(paste, &QPushButton::clicked, this, &ClassifyPage::pasteFromClipboard);
    auto* pasteAction = new QAction(this);
    pasteAction->setShortcut(QKeySequence::Paste);
    pasteAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(pasteAction, &QAction::triggered, this, &ClassifyPage::pasteFromClipboard);
    addAction(pasteAction);
    auto* clear = new QPushButton(tr("Clear"), this);
    clear->setObjectName(QStringLiteral("clearImages"));
    clear->setToolTip(tr("Remove every image from the list."));
    connect(clear, &QPushButton::clicked, this, &ClassifyPage::clearEntries);

    m_rule = new QComboBox(this);
    m_rule->setObjectName(QStringLiteral("classifyRule"));
    m_rule->addItem(tr("LBD rule (paper Eq. 7)"), static_cast<int>(lbd::DecisionRule::Lbd));
    m_rule->addItem(tr("Expected utility"), static_cast<int>(lbd::DecisionRule::ExpectedUtility));
    m_rule->addItem(tr("argmax pbar"), static_cast<int>(lbd::DecisionRule::Argmax));
    m_rule->setItemData(0, tr("argmax_d (1/M) sum_j sum_k U[d,k] log p_j(k|x): uses every particle's distribution"), Qt::ToolTipRole);
    m_rule->setItemData(1, tr("argmax_d sum_t pbar(t) U[t,d]: the classical Bayes decision"), Qt::ToolTipRole);
    m_rule->setItemData(2, tr("The most probable class under pbar; ignores the utility matrix"), Qt::ToolTipRole);
    m_rule->setToolTip(tr("How the decision is made from the particles' distributions and the utility matrix of the "
                          "Utility page. The plain argmax is always shown next to it. A new run starts with its own rule."));
    connect(m_rule, &QComboBox::currentIndexChanged, this, [this] {
        if (m_predictor) {
            submitAll(false);
        }
        updateStatus();
    });
    m_topK = new QSpinBox(this);
    m_topK->setObjectName(QStringLiteral("topK"));
    m_topK->setRange(1, 1000);
    m_topK->setValue(5);
    m_topK->setToolTip(tr("How many of the most probable classes (under pbar) the charts show."));
    connect(m_topK, &QSpinBox::valueChanged, this, &ClassifyPage::showCurrent);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("classifyStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* bar = new QHBoxLayout;
    bar->addWidget(open);
    bar->addWidget(paste);
    bar->addWidget(clear);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Decision rule"), this));
    bar->addWidget(m_rule);
    bar->addWidget(new QLabel(tr("Top k"), this));
    bar->addWidget(m_topK);
    bar->addSpacing(12);
    bar->addWidget(m_status, 1);

    // Empty state: nothing to classify with yet.
    m_emptyState = new QLabel(this);
    m_emptyState->setObjectName(QStringLiteral("classifyEmptyState"));
    m_emptyState->setAlignment(Qt::AlignCenter);
    m_emptyState->setWordWrap(true);
    m_emptyState->setText(tr("<h2>No run to classify with yet</h2>"
                             "<p>Train a run (<b>Start training</b> in the tool bar) or open a finished one "
                             "(<b>File &gt; Open run...</b>).</p>"
                             "<p>Then drop image files here, or use Open images... / Paste: each image is classified "
                             "by the run's particle ensemble.</p>"));

    // The list of images.
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("classifyList"));
    m_list->setToolTip(tr("Images dropped, opened or pasted, with their decision; click one to see its details. "
                          "Drop more image files anywhere on this page."));
    m_list->setMinimumWidth(220);
    connect(m_list, &QListWidget::currentRowChanged, this, &ClassifyPage::showCurrent);

    // Detail of the selected image.
    m_detailHint = new QLabel(tr("Drop image files here (PNG, JPEG, BMP, ...: any size, colour or grey), "
                                 "or use Open images... / Paste."),
                              this);
    m_detailHint->setAlignment(Qt::AlignCenter);
    m_detailHint->setWordWrap(true);
    m_entryError = new QLabel(this);
    m_entryError->setObjectName(QStringLiteral("entryError"));
    m_entryError->setWordWrap(true);
    m_entryError->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_entryError->setStyleSheet(QStringLiteral("color: #b00020; font-weight: bold; padding: 6px; "
                                               "border: 1px solid #b00020; border-radius: 3px;"));
    m_entryError->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    // Shown only instead of a result: take the room so a long message wraps instead of clipping.
    m_entryError->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);

    m_image = new QLabel(this);
    m_image->setObjectName(QStringLiteral("classifyImage"));
    m_image->setFixedSize(200, 200);
    m_image->setAlignment(Qt::AlignCenter);
    m_image->setStyleSheet(QStringLiteral("border: 1px solid #bbb; background: #fafafa;"));
    m_image->setToolTip(tr("The image as decoded (before it is resized to the run's input)."));
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
    summary->addWidget(m_decision);
    summary->addLayout(gauges);
    summary->addWidget(m_warning);
    summary->addStretch();
    auto* top = new QHBoxLayout;
    top->addWidget(m_image, 0, Qt::AlignTop);
    top->addLayout(summary, 1);

    m_topPlot = new ThrottledPlot(this);
    m_topPlot->setObjectName(QStringLiteral("topKPlot"));
    addPlotTitle(m_topPlot, tr("Predictive distribution pbar: top classes"), 10);
    m_topPlot->xAxis->setLabel(tr("class (most probable first; colour = region)"));
    m_topPlot->yAxis->setLabel(tr("pbar(class | x) (probability)"));
    m_topPlot->setFixedValueRange(0, 1.05);
    m_topPlot->placeLegendBelow();
    m_particlePlot = new ThrottledPlot(this);
    m_particlePlot->setObjectName(QStringLiteral("particlePlot"));
    addPlotTitle(m_particlePlot, tr("Each particle's distribution p_j over the same classes"), 10);
    m_particlePlot->xAxis->setLabel(tr("class"));
    m_particlePlot->yAxis->setLabel(tr("p_j(class | x) (probability)"));
    m_particlePlot->setFixedValueRange(0, 1.05);
    m_particlePlot->placeLegendBelow();
    for (ThrottledPlot* plot : {m_topPlot, m_particlePlot}) {
        plot->setMinimumHeight(230);
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
    m_result = new QWidget(this);
    auto* resultLayout = new QVBoxLayout(m_result);
    resultLayout->setContentsMargins(0, 0, 0, 0);
    resultLayout->addLayout(top);
    resultLayout->addLayout(plots, 1);
    resultLayout->addWidget(m_particleTable);

    auto* detail = new QWidget(this);
    auto* detailLayout = new QVBoxLayout(detail);
    detailLayout->addWidget(m_entryError);
    detailLayout->addWidget(m_result, 1);
    m_detailStack = new QStackedWidget(this);
    m_detailStack->addWidget(m_detailHint);
    m_detailStack->addWidget(detail);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_list);
    splitter->addWidget(m_detailStack);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({260, 900});

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_emptyState);
    m_stack->addWidget(splitter);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_stack, 1);
}

// ---- Run and predictor ----------------------------------------------------------------------

void ClassifyPage::setRun(const QString& runDirectory)
{
    m_runDirectory = runDirectory;
    m_predictor.reset();
    m_loading = true;
    m_loadError.clear();
    const int token = ++m_loadToken;
    m_stack->setCurrentIndex(1);
    updateStatus();
    const std::string directory = runDirectory.toStdString();
    m_pool.start([this, token, directory] {
        std::shared_ptr<lbd::Predictor> predictor;
        QString error;
        try {
            predictor = std::make_shared<lbd::Predictor>(directory, "cpu");
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(this, [this, token, predictor, error] { onLoaded(token, predictor, error); }, Qt::QueuedConnection);
    });
}

void ClassifyPage::onLoaded(int token, std::shared_ptr<lbd::Predictor> predictor, const QString& error)
{
    if (token != m_loadToken) {
        return; // another run was chosen meanwhile
    }
    m_loading = false;
    if (!predictor) {
        m_loadError = error;
        for (size_t i = 0; i < m_entries.size(); ++i) {
            if (m_entries[i].state == EntryState::Waiting) {
                m_entries[i].state = EntryState::Failed;
                m_entries[i].error = tr("%1 was not classified: the run could not be loaded (%2).").arg(m_entries[i].source, error);
                updateListItem(int(i));
            }
        }
        updateStatus();
        showCurrent();
        emit predictorLoaded(false, error);
        finishIfIdle();
        return;
    }
    m_predictor = std::move(predictor);
    m_runClassNames.clear();
    for (const std::string& name : m_predictor->classNames()) {
        m_runClassNames << QString::fromStdString(name);
    }
    m_runUtility = m_predictor->utility();
    m_runRule = m_predictor->rule();
    m_particles = int(m_predictor->particleCount());
    {
        const QSignalBlocker block(m_rule);
        m_rule->setCurrentIndex(std::max(0, m_rule->findData(static_cast<int>(m_runRule))));
    }
    m_topK->setMaximum(std::max(1, int(m_runClassNames.size())));
    updateStatus();
    emit predictorLoaded(true, QString());
    submitAll(/*retryFailed=*/true); // another run may read what this one could not
    finishIfIdle();
}

bool ClassifyPage::usesDocumentMatrix() const
{
    // Matched by position (both are head to tail): the experiment panel may label the classes
    // differently from the run's data (e.g. "class 0" before the data is read).
    return m_predictor && m_document->classCount() == m_runClassNames.size() && m_document->classCount() > 0;
}

std::optional<lbd::UtilityMatrix> ClassifyPage::decisionMatrix() const
{
    if (!m_predictor) {
        return std::nullopt;
    }
    return usesDocumentMatrix() ? m_document->matrix() : m_runUtility;
}

QString ClassifyPage::matrixDescription() const
{
    if (usesDocumentMatrix()) {
        return tr("the Utility page's matrix (%1)").arg(m_document->description());
    }
    return tr("the run's own matrix");
}

lbd::DecisionRule ClassifyPage::rule() const { return static_cast<lbd::DecisionRule>(m_rule->currentData().toInt()); }

void ClassifyPage::setRule(lbd::DecisionRule rule) { m_rule->setCurrentIndex(m_rule->findData(static_cast<int>(rule))); }

// ---- Entries --------------------------------------------------------------------------------

void ClassifyPage::classifyFiles(const QStringList& paths)
{
    if (m_runDirectory.isEmpty()) {
        m_status->setText(tr("<b style='color:#b00020'>No run yet: train a run or open one first (%n file(s) not classified).</b>",
                             nullptr, int(paths.size())));
        emit classificationFinished();
        return;
    }
    for (const QString& path : paths) {
        Entry entry;
        entry.source = path;
        entry.displayName = fileNameOf(path);
        addEntry(std::move(entry));
    }
}

void ClassifyPage::classifyImage(const QImage& image, const QString& label)
{
    if (m_runDirectory.isEmpty()) {
        m_status->setText(tr("<b style='color:#b00020'>No run yet: train a run or open one first (the image was not classified).</b>"));
        emit classificationFinished();
        return;
    }
    Entry entry;
    entry.source = label;
    entry.displayName = label;
    if (image.isNull()) {
        entry.state = EntryState::Failed;
        entry.error = tr("%1: the clipboard or drop held no readable image.").arg(label);
        addEntry(std::move(entry));
        return;
    }
    QBuffer buffer(&entry.encoded);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    entry.thumbnail = image.width() > kThumbnailSide || image.height() > kThumbnailSide
                          ? image.scaled(kThumbnailSide, kThumbnailSide, Qt::KeepAspectRatio, Qt::SmoothTransformation)
                          : image;
    addEntry(std::move(entry));
}

void ClassifyPage::pasteFromClipboard()
{
    const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
    if (mime == nullptr) {
        return;
    }
    if (mime->hasUrls()) {
        QStringList files;
        for (const QUrl& url : mime->urls()) {
            if (url.isLocalFile()) {
                files << url.toLocalFile();
            }
        }
        if (!files.isEmpty()) {
            classifyFiles(files);
            return;
        }
    }
    if (mime->hasImage()) {
        classifyImage(qvariant_cast<QImage>(mime->imageData()), tr("pasted image %1").arg(++m_pasted));
        return;
    }
    m_status->setText(tr("<b style='color:#b00020'>The clipboard holds no image and no image files.</b>"));
}

void ClassifyPage::clearEntries()
{
    ++m_listGeneration; // results still on their way are dropped
    m_entries.clear();
    m_list->clear();
    m_pending = 0;
    showCurrent();
    finishIfIdle();
}

void ClassifyPage::addEntry(Entry entry)
{
    const bool failed = entry.state == EntryState::Failed;
    m_entries.push_back(std::move(entry));
    const int index = entryCount() - 1;
    m_list->addItem(QString());
    updateListItem(index);
    if (m_list->currentRow() < 0 || m_list->count() == 1) {
        m_list->setCurrentRow(index);
    }
    if (!failed && m_predictor) {
        submit(index);
    } else if (!failed && !m_loading && !m_loadError.isEmpty()) {
        Entry& e = m_entries.back();
        e.state = EntryState::Failed;
        e.error = tr("%1 was not classified: the run could not be loaded (%2).").arg(e.source, m_loadError);
        updateListItem(index);
    }
    if (index == m_list->currentRow()) {
        showCurrent();
    }
    finishIfIdle();
}

void ClassifyPage::submitAll(bool retryFailed)
{
    for (int i = 0; i < entryCount(); ++i) {
        if (m_entries[size_t(i)].state != EntryState::Failed || retryFailed) {
            submit(i);
        }
    }
    finishIfIdle();
}

void ClassifyPage::submit(int index)
{
    Entry& entry = m_entries[size_t(index)];
    if (entry.state == EntryState::Failed && !entry.encoded.isEmpty()) {
        return; // a pasted image that could not be read stays failed
    }
    entry.state = EntryState::Running;
    const int request = ++entry.request;
    ++m_pending;
    updateListItem(index);

    std::shared_ptr<lbd::Predictor> predictor = m_predictor;
    const std::optional<lbd::UtilityMatrix> utility = decisionMatrix();
    const lbd::DecisionRule decisionRule = rule();
    const QString source = entry.source;
    const QByteArray encoded = entry.encoded;
    const bool needThumbnail = entry.thumbnail.isNull();
    const int generation = m_listGeneration;
    const int classes = int(m_runClassNames.size());
    m_pool.start([this, predictor, utility, decisionRule, source, encoded, needThumbnail, generation, classes, index, request] {
        Outcome outcome;
        outcome.index = index;
        outcome.request = request;
        outcome.listGeneration = generation;
        try {
            // The worker owns the predictor between jobs: matrix and rule are set per job.
            if (utility) {
                predictor->setUtility(*utility);
            }
            predictor->setRule(decisionRule);
            if (encoded.isEmpty()) {
                outcome.prediction = predictor->predictFile(source.toStdString(), classes);
            } else {
                const std::vector<uint8_t> bytes(encoded.begin(), encoded.end());
                outcome.prediction = predictor->predictBytes(bytes, source.toStdString(), classes);
            }
            outcome.ok = true;
            if (needThumbnail) {
                QImage image;
                if (encoded.isEmpty() ? image.load(source) : image.loadFromData(encoded)) {
                    outcome.thumbnail = image.width() > kThumbnailSide || image.height() > kThumbnailSide
                                            ? image.scaled(kThumbnailSide, kThumbnailSide, Qt::KeepAspectRatio, Qt::SmoothTransformation)
                                            : image;
                }
            }
        } catch (const std::exception& e) {
            outcome.error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(this, [this, outcome] { onOutcome(outcome); }, Qt::QueuedConnection);
    });
}

void ClassifyPage::onOutcome(const Outcome& outcome)
{
    if (outcome.listGeneration != m_listGeneration) {
        return; // the list was cleared
    }
    m_pending = std::max(0, m_pending - 1);
    if (outcome.index < entryCount()) {
        Entry& entry = m_entries[size_t(outcome.index)];
        if (outcome.request == entry.request) {
            if (outcome.ok) {
                entry.state = EntryState::Done;
                entry.prediction = outcome.prediction;
                entry.hasPrediction = true;
                entry.error.clear();
                if (!outcome.thumbnail.isNull()) {
                    entry.thumbnail = outcome.thumbnail;
                }
            } else {
                entry.state = EntryState::Failed;
                entry.hasPrediction = false;
                entry.error = tr("Could not classify %1: %2").arg(entry.displayName, outcome.error);
            }
            updateListItem(outcome.index);
            if (outcome.index == m_list->currentRow()) {
                showCurrent();
            }
            emit entryUpdated(outcome.index);
        }
    }
    finishIfIdle();
}

void ClassifyPage::finishIfIdle()
{
    updateStatus();
    if (!isBusy()) {
        emit classificationFinished();
    }
}

void ClassifyPage::updateListItem(int index)
{
    QListWidgetItem* item = m_list->item(index);
    if (item == nullptr) {
        return;
    }
    const Entry& entry = m_entries[size_t(index)];
    QString text = entry.displayName;
    switch (entry.state) {
    case EntryState::Waiting: text += tr("\n  waiting for the run"); break;
    case EntryState::Running:
        if (!entry.hasPrediction) {
            text += tr("\n  classifying...");
            break;
        }
        [[fallthrough]]; // re-deciding: keep showing the last answer
    case EntryState::Done: {
        const lbd::Prediction& p = entry.prediction;
        text += tr("\n  %1 (pbar %2)").arg(m_runClassNames.value(int(p.decidedClass))).arg(p.meanProbabilities[size_t(p.argmaxClass)], 0, 'f', 2);
        break;
    }
    case EntryState::Failed: text += tr("\n  error: not classified"); break;
    }
    item->setText(text);
    item->setForeground(entry.state == EntryState::Failed ? QColor(0xb0, 0x00, 0x20) : palette().color(QPalette::Text));
    item->setToolTip(entry.state == EntryState::Failed ? entry.error : entry.source);
    if (!entry.thumbnail.isNull()) {
        item->setIcon(QIcon(QPixmap::fromImage(entry.thumbnail.scaled(40, 40, Qt::KeepAspectRatio, Qt::SmoothTransformation))));
    }
}

int ClassifyPage::currentEntry() const { return m_list->currentRow(); }

void ClassifyPage::selectEntry(int index) { m_list->setCurrentRow(index); }

int ClassifyPage::particleTableRows() const { return m_particleTable->rowCount(); }

bool ClassifyPage::emptyStateShown() const { return m_stack->currentIndex() == 0; }

QString ClassifyPage::statusText() const { return m_status->text(); }

QString ClassifyPage::entryErrorText() const { return m_entryError->isHidden() ? QString() : m_entryError->text(); }

QString ClassifyPage::decisionText() const { return m_decision->text(); }

QString ClassifyPage::warningText() const { return m_warning->isHidden() ? QString() : m_warning->text(); }

void ClassifyPage::updateStatus()
{
    if (m_runDirectory.isEmpty()) {
        m_stack->setCurrentIndex(0);
        m_status->setText(tr("No run yet."));
        return;
    }
    const QString run = QFileInfo(m_runDirectory).fileName();
    QString text;
    if (m_loading) {
        text = tr("Loading run %1...").arg(run);
    } else if (!m_predictor) {
        text = tr("<b style='color:#b00020'>The run %1 could not be loaded: %2</b>").arg(run, m_loadError.toHtmlEscaped());
    } else {
        text = tr("Run <b>%1</b>: M = %2 particles, %3 classes; deciding with %4 and the %5.")
                   .arg(run.toHtmlEscaped())
                   .arg(m_particles)
                   .arg(m_runClassNames.size())
                   .arg(matrixDescription(), decisionRuleTitle(rule()));
        if (!usesDocumentMatrix()) {
            text += tr(" The Utility page's matrix is for %1 classes of another data set.").arg(m_document->classCount());
        } else if (m_document->classNames() != m_runClassNames) {
            text += tr(" (The Utility page names the classes %1..., the run %2...; matched by position, head to tail.)")
                        .arg(m_document->classNames().value(0).toHtmlEscaped(), m_runClassNames.value(0).toHtmlEscaped());
        }
        if (m_pending > 0) {
            text += tr(" Classifying %n image(s)...", nullptr, m_pending);
        }
    }
    m_status->setText(text);
}

// ---- Detail view ----------------------------------------------------------------------------

void ClassifyPage::showCurrent()
{
    const int index = m_list->currentRow();
    if (index < 0 || index >= entryCount()) {
        m_detailStack->setCurrentIndex(0);
        return;
    }
    m_detailStack->setCurrentIndex(1);
    const Entry& entry = m_entries[size_t(index)];
    m_entryError->setVisible(entry.state == EntryState::Failed);
    m_entryError->setText(entry.error);
    if (entry.state == EntryState::Failed || !entry.hasPrediction) {
        m_result->setVisible(entry.state != EntryState::Failed);
        m_title->setText(tr("<b>%1</b>: %2").arg(entry.displayName.toHtmlEscaped(),
                                                 entry.state == EntryState::Waiting ? tr("waiting for the run") : tr("classifying...")));
        m_decision->clear();
        m_warning->hide();
        m_particleTable->setRowCount(0);
        m_topPlot->clearPlottables();
        m_particlePlot->clearPlottables();
        m_particleSeries = 0;
        m_topPlot->requestReplot();
        m_particlePlot->requestReplot();
        m_image->setPixmap(entry.thumbnail.isNull() ? QPixmap()
                                                    : QPixmap::fromImage(entry.thumbnail.scaled(m_image->size(), Qt::KeepAspectRatio,
                                                                                                Qt::SmoothTransformation)));
        return;
    }
    m_result->setVisible(true);
    showPrediction(entry);
}

void ClassifyPage::showPrediction(const Entry& entry)
{
    const lbd::Prediction& p = entry.prediction;
    const int classes = int(p.meanProbabilities.size());
    const auto name = [this](int64_t c) {
        const QString n = m_runClassNames.value(int(c));
        return n.isEmpty() ? QString::number(c) : n;
    };
    m_image->setPixmap(entry.thumbnail.isNull()
                           ? QPixmap()
                           : QPixmap::fromImage(entry.thumbnail.scaled(m_image->size(), Qt::KeepAspectRatio, Qt::SmoothTransformation)));
    m_title->setText(tr("<b>%1</b>").arg(entry.displayName.toHtmlEscaped()));
    m_title->setToolTip(entry.source);

    // Decision next to argmax.
    const double argmaxP = p.meanProbabilities[size_t(p.argmaxClass)];
    QString decision = tr("Decision (%1, %2): <b>%3</b><br>Plain argmax of pbar: <b>%4</b> (pbar = %5)")
                           .arg(decisionRuleTitle(p.rule), matrixDescription().toHtmlEscaped(), name(p.decidedClass).toHtmlEscaped(),
                                name(p.argmaxClass).toHtmlEscaped())
                           .arg(argmaxP, 0, 'f', 3);
    if (p.decidedClass != p.argmaxClass) {
        decision += tr("<br><i>The utility matrix moved the decision away from the most probable class: with the "
                       "matrix's costs, deciding %1 (pbar = %2) is expected to be better.</i>")
                        .arg(name(p.decidedClass).toHtmlEscaped())
                        .arg(p.meanProbabilities[size_t(p.decidedClass)], 0, 'f', 3);
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
    const int k = std::min(m_topK->value(), classes);
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
        bars->setBrush(particleColor(j));
        bars->setPen(QPen(particleColor(j).darker(130)));
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

void ClassifyPage::openFiles()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Classify images"), QDir::homePath(),
        tr("Images (*.png *.jpg *.jpeg *.bmp *.gif *.tif *.tiff *.webp *.pgm *.ppm);;All files (*)"));
    if (!files.isEmpty()) {
        classifyFiles(files);
    }
}

// ---- Drag and drop --------------------------------------------------------------------------

void ClassifyPage::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() || event->mimeData()->hasImage()) {
        event->acceptProposedAction();
    }
}

void ClassifyPage::dragMoveEvent(QDragMoveEvent* event)
{
    if (event->mimeData()->hasUrls() || event->mimeData()->hasImage()) {
        event->acceptProposedAction();
    }
}

void ClassifyPage::dropEvent(QDropEvent* event)
{
    const QMimeData* mime = event->mimeData();
    QStringList files;
    QStringList remote;
    for (const QUrl& url : mime->urls()) {
        if (url.isLocalFile()) {
            files << url.toLocalFile();
        } else {
            remote << url.toString();
        }
    }
    if (!files.isEmpty()) {
        classifyFiles(files);
    } else if (mime->hasImage()) {
        classifyImage(qvariant_cast<QImage>(mime->imageData()), tr("dropped image %1").arg(++m_pasted));
    }
    if (!remote.isEmpty()) {
        m_status->setText(tr("<b style='color:#b00020'>Only local files can be classified; not downloaded: %1</b>")
                              .arg(remote.join(QStringLiteral(", ")).toHtmlEscaped()));
    }
    event->acceptProposedAction();
}

} // namespace lbd::ui
