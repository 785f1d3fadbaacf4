#include "ui/pages/classifypage.h"
#include "ui/style/decisionruletext.h"

#include "core/infer/predictor.h"
#include "ui/engine/classifyjob.h"
#include "ui/pages/classifycalibration.h"
#include "ui/utility/utilitydocument.h"
#include "ui/widgets/decisioncontrols.h"
#include "ui/widgets/emptystate.h"
#include "ui/widgets/predictionview.h"

#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QDir>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QComboBox>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace lbd::ui {
namespace {

QString fileNameOf(const QString& source)
{
    const QString name = QFileInfo(source).fileName();
    return name.isEmpty() ? source : name;
}

// The image the model was given (decoded as a person sees the file, composited, resized: the
// prediction's input pixels), enlarged by whole pixels so that its real resolution shows; the
// file as Qt renders it when there are none. Showing Qt's rendering once hid that a transparent
// icon reached the model as a black square.
QImage modelInputImage(const lbd::Prediction& prediction, const QImage& fallback)
{
    const int channels = int(prediction.inputChannels);
    const int height = int(prediction.inputHeight);
    const int width = int(prediction.inputWidth);
    if ((channels != 1 && channels != 3) || height < 1 || width < 1
        || prediction.inputPixels.size() != size_t(channels) * size_t(height) * size_t(width)) {
        return fallback;
    }
    QImage image(width, height, QImage::Format_RGB32);
    const size_t plane = size_t(height) * size_t(width);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const size_t at = size_t(y) * size_t(width) + size_t(x);
            const uint8_t* p = prediction.inputPixels.data();
            const int r = p[at];
            const int g = channels == 3 ? p[plane + at] : r;
            const int b = channels == 3 ? p[2 * plane + at] : r;
            image.setPixel(x, y, qRgb(r, g, b));
        }
    }
    const int scale = std::max(1, 192 / std::max(width, height));
    return image.scaled(width * scale, height * scale, Qt::KeepAspectRatio, Qt::FastTransformation);
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
    // Without a predictor the run changed meanwhile, and its load re-decides the list.
    connect(m_redecideTimer, &QTimer::timeout, this, [this] { m_predictor ? submitAll(false) : finishIfIdle(); });
    // Any change of the shared matrix, rule or r re-decides the list once it settles (a painting
    // stroke in the editor, a spin of r); isBusy() counts the wait.
    for (auto signal : {&UtilityDocument::matrixChanged, &UtilityDocument::ruleChanged, &UtilityDocument::deferUtilityChanged}) {
        connect(m_document, signal, this, [this] {
            m_calibration->setRule(rule()); // before deciding: the toggle only calibrates expected and argmax
            if (m_predictor && !m_entries.empty()) {
                m_redecideTimer->start();
            }
            updateStatus();
        });
    }
    updateStatus();
}

// The requests drop what is queued and wait for the running job (members, in reverse order).
ClassifyPage::~ClassifyPage() = default;

void ClassifyPage::buildUi()
{
    const auto button = [this](const QString& text, const QString& name, const QString& tip) {
        auto* b = new QPushButton(text, this);
        b->setObjectName(name);
        b->setToolTip(tip);
        return b;
    };
    auto* open = button(tr("Open images..."), QStringLiteral("openImages"),
                        tr("Choose image files to classify (any size, colour or grey; they are converted to the run's "
                           "input size and channels)."));
    connect(open, &QPushButton::clicked, this, &ClassifyPage::openFiles);
    auto* paste = button(tr("Paste"), QStringLiteral("pasteImage"),
                         tr("Classify the image (or image files) on the clipboard (Ctrl+V on this page)."));
    connect(paste, &QPushButton::clicked, this, &ClassifyPage::pasteFromClipboard);
    auto* pasteAction = new QAction(this);
    pasteAction->setShortcut(QKeySequence::Paste);
    pasteAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(pasteAction, &QAction::triggered, this, &ClassifyPage::pasteFromClipboard);
    addAction(pasteAction);
    auto* clear = button(tr("Clear"), QStringLiteral("clearImages"), tr("Remove every image from the list."));
    connect(clear, &QPushButton::clicked, this, &ClassifyPage::clearEntries);

    // The shared rule and defer utility (the same controls as the Decision lab's and the Utility
    // page's): changing them here changes them there, and the other way round.
    m_controls = new DecisionControls(m_document, DecisionControls::Layout::Row, this);
    m_controls->ruleBox()->setObjectName(QStringLiteral("classifyRule"));
    m_calibration = new ClassifyCalibration(this);
    m_calibration->setRule(rule());
    connect(m_calibration, &QCheckBox::toggled, this, [this] {
        if (m_predictor && !m_entries.empty()) {
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
    bar->addWidget(m_controls);
    bar->addStretch();
    // A second row: with the calibration toggle the first one needed 1072 px (the window fits 1024).
    auto* options = new QHBoxLayout;
    options->addWidget(m_calibration);
    options->addSpacing(12);
    options->addWidget(new QLabel(tr("Top k"), this));
    options->addWidget(m_topK);
    options->addStretch();

    // Empty state: nothing to classify with yet.
    m_emptyState = makeEmptyStateLabel(QStringLiteral("classifyEmptyState"), QString(), this);
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

    m_result = new PredictionView(this);

    auto* detail = new QWidget(this);
    auto* detailLayout = new QVBoxLayout(detail);
    detailLayout->addWidget(m_entryError);
    detailLayout->addWidget(m_result, 1);
    m_detailStack = new QStackedWidget(this);
    m_detailStack->addWidget(m_detailHint);
    // On a small window the detail scrolls: the uncertainty warning wraps to its full height
    // instead of being clipped between the gauges and the plots.
    auto* detailArea = new QScrollArea(this);
    detailArea->setObjectName(QStringLiteral("classifyDetailArea"));
    detailArea->setWidgetResizable(true);
    detailArea->setFrameShape(QFrame::NoFrame);
    detailArea->setWidget(detail);
    m_detailStack->addWidget(detailArea);

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
    layout->addLayout(options);
    layout->addWidget(m_status);
    layout->addWidget(m_stack, 1);
}

// ---- Run and predictor ----------------------------------------------------------------------

void ClassifyPage::setRun(const QString& runDirectory)
{
    m_runDirectory = runDirectory;
    m_predictor.reset();
    m_loadError.clear();
    m_header.setRun(runDirectory);
    m_calibration->setRun(runDirectory);
    m_stack->setCurrentIndex(1);
    const std::string directory = runDirectory.toStdString();
    // Queued behind the classifications still running with the previous run's predictor; their
    // answers stay until the list is classified again with this one.
    m_load.start([directory] { return openPredictor(directory); },
                 [this](std::shared_ptr<lbd::Predictor> predictor) { onLoaded(std::move(predictor)); },
                 [this](const QString& error) { onLoadFailed(error); });
    updateStatus();
}

void ClassifyPage::setRunReason(const QString& reason)
{
    m_header.setReason(reason);
    updateStatus();
}

void ClassifyPage::onLoadFailed(const QString& error)
{
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
}

void ClassifyPage::onLoaded(std::shared_ptr<lbd::Predictor> predictor)
{
    m_predictor = std::move(predictor);
    m_runClassNames = qStringList(m_predictor->classNames());
    // The run's own matrix stands in only when the shared one is for other classes; the rule and
    // r are always the shared ones (a run that is opened does not change them).
    m_runUtility = m_predictor->utility();
    m_runNotes = qStringList(m_predictor->runDecisions().notes);
    m_particles = int(m_predictor->particleCount());
    m_header.setOod(m_predictor->hasOodFit(), QString::fromStdString(m_predictor->oodSummary()));
    m_header.setRun(m_runDirectory); // a run that was training when it was set may have finished or stopped since
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

lbd::DecisionRule ClassifyPage::rule() const { return m_document->rule(); }

void ClassifyPage::setRule(lbd::DecisionRule rule) { m_document->setRule(rule); }

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
    entry.thumbnail = thumbnailOf(image);
    addEntry(std::move(entry));
}

void ClassifyPage::clearEntries()
{
    m_requests.clear(); // results still on their way are dropped
    m_entries.clear();
    m_list->clear();
    showCurrent();
    finishIfIdle();
}

void ClassifyPage::addEntry(Entry entry)
{
    const bool failed = entry.state == EntryState::Failed;
    m_entries.push_back(std::move(entry));
    m_requests.push_back(std::make_unique<LatestRequest<ClassifyResult>>(&m_pool));
    const int index = entryCount() - 1;
    m_list->addItem(QString());
    updateListItem(index);
    if (m_list->currentRow() < 0 || m_list->count() == 1) {
        m_list->setCurrentRow(index);
    }
    if (!failed && m_predictor) {
        submit(index);
    } else if (!failed && !m_load.isRunning() && !m_loadError.isEmpty()) {
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
    updateListItem(index);

    ClassifyJob job;
    job.predictor = m_predictor;
    job.utility = decisionMatrix();
    job.rule = rule();
    job.deferUtility = m_document->effectiveDeferUtility();
    job.temperature = m_calibration->temperature();
    job.source = entry.source;
    job.encoded = entry.encoded;
    job.needThumbnail = entry.thumbnail.isNull();
    job.classes = int(m_runClassNames.size());
    // Entries are only appended or all cleared (which drops their requests), so `index` stays
    // the entry's.
    m_requests[size_t(index)]->start([job] { return runClassifyJob(job); },
                                     [this, index](const ClassifyResult& result) { onClassified(index, result); },
                                     [this, index](const QString& error) {
                                         ClassifyResult failed;
                                         failed.error = error;
                                         onClassified(index, failed);
                                     });
}

void ClassifyPage::onClassified(int index, const ClassifyResult& result)
{
    Entry& entry = m_entries[size_t(index)];
    if (result.ok) {
        entry.state = EntryState::Done;
        entry.prediction = result.prediction;
        entry.temperature = result.temperature;
        entry.hasPrediction = true;
        entry.error.clear();
        if (!result.thumbnail.isNull()) {
            entry.thumbnail = result.thumbnail;
        }
    } else {
        entry.state = EntryState::Failed;
        entry.hasPrediction = false;
        entry.error = tr("Could not classify %1: %2").arg(entry.displayName, result.error);
    }
    updateListItem(index);
    if (index == m_list->currentRow()) {
        showCurrent();
    }
    emit entryUpdated(index);
    finishIfIdle();
}

int ClassifyPage::runningCount() const
{
    return int(std::count_if(m_entries.begin(), m_entries.end(),
                             [](const Entry& entry) { return entry.state == EntryState::Running; }));
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
        text += p.deferred ? tr("\n  deferred (confidence %1 < r = %2)").arg(p.decisionConfidence, 0, 'f', 2).arg(*p.deferUtility)
                           : tr("\n  %1 (%2 %3)")
                                 .arg(m_runClassNames.value(int(p.decidedClass)),
                                      entry.temperature ? tr("calibrated pbar") : tr("pbar"))
                                 .arg(p.meanProbabilities[size_t(p.argmaxClass)], 0, 'f', 2);
        if (p.ood && p.ood->caution) {
            text += tr("\n  caution: unlike the training images");
        }
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

bool ClassifyPage::isBusy() const { return m_load.isRunning() || runningCount() > 0 || m_redecideTimer->isActive(); }

int ClassifyPage::currentEntry() const { return m_list->currentRow(); }

void ClassifyPage::selectEntry(int index) { m_list->setCurrentRow(index); }

int ClassifyPage::particleTableRows() const { return m_result->particleTableRows(); }

bool ClassifyPage::emptyStateShown() const { return m_stack->currentIndex() == 0; }

QString ClassifyPage::statusText() const { return m_status->text(); }

QString ClassifyPage::entryErrorText() const { return m_entryError->isHidden() ? QString() : m_entryError->text(); }

QString ClassifyPage::decisionText() const { return m_result->decisionText(); }

QString ClassifyPage::warningText() const { return m_result->warningText(); }

QString ClassifyPage::cautionText() const { return m_result->cautionText(); }

QString ClassifyPage::inputText() const { return m_result->inputText(); }

int ClassifyPage::particleSeriesCount() const { return m_result->particleSeriesCount(); }

void ClassifyPage::updateStatus()
{
    if (m_runDirectory.isEmpty()) {
        m_stack->setCurrentIndex(0);
        m_status->setText(tr("No run yet."));
        return;
    }
    if (m_load.isRunning()) {
        m_status->setText(m_header.loadingHtml());
        return;
    }
    if (!m_predictor) {
        m_status->setText(m_header.failedHtml(m_loadError));
        return;
    }
    ClassifyPageStatus::Decisions decisions;
    decisions.particles = m_particles;
    decisions.classes = int(m_runClassNames.size());
    decisions.matrix = matrixDescription();
    decisions.ruleTitle = decisionRuleTitle(rule());
    decisions.defer = m_document->effectiveDeferUtility();
    if (!usesDocumentMatrix()) {
        decisions.matrixRemark = tr(" The Utility page's matrix is for %1 classes of another data set.").arg(m_document->classCount());
    } else if (m_document->classNames() != m_runClassNames) {
        decisions.matrixRemark = tr(" (The Utility page names the classes %1..., the run %2...; matched by position, head to tail.)")
                                     .arg(m_document->classNames().value(0).toHtmlEscaped(), m_runClassNames.value(0).toHtmlEscaped());
    }
    decisions.running = runningCount();
    decisions.notes = m_runNotes;
    decisions.temperature = m_calibration->temperature();
    m_status->setText(m_header.loadedHtml(decisions));
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
        m_result->showPending(tr("<b>%1</b>: %2").arg(entry.displayName.toHtmlEscaped(),
                                                      entry.state == EntryState::Waiting ? tr("waiting for the run")
                                                                                         : tr("classifying...")),
                              entry.thumbnail);
        return;
    }
    m_result->setVisible(true);
    m_result->showPrediction(entry.prediction,
                             {entry.displayName, entry.source, m_runClassNames, matrixDescription(), m_topK->value()},
                             modelInputImage(entry.prediction, entry.thumbnail));
}

} // namespace lbd::ui
