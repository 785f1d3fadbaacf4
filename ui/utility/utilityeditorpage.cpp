#include "ui/utility/utilityeditorpage.h"

#include "ui/app/appsettings.h"
#include "ui/utility/utilitycommands.h"
#include "ui/utility/utilitydocument.h"
#include "ui/utility/utilityheatmap.h"
#include "ui/utility/utilitylegend.h"
#include "ui/widgets/decisioncontrols.h"

#include <QAction>
#include <QButtonGroup>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lbd::ui {
namespace {

QToolButton* toolButton(const QString& text, const QString& tip, const QString& name, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    button->setObjectName(name);
    return button;
}

QLabel* sectionLabel(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    return label;
}

// A row of widgets; nullptr stands for a 12 px gap between groups.
QHBoxLayout* rowOf(std::initializer_list<QWidget*> widgets)
{
    auto* row = new QHBoxLayout;
    for (QWidget* widget : widgets) {
        widget == nullptr ? row->addSpacing(12) : row->addWidget(widget);
    }
    return row;
}

QString regionTitle(lbd::Region region, lbd::RegionScheme scheme)
{
    return QString::fromStdString(lbd::regionName(region, scheme));
}

} // namespace

UtilityEditorPage::UtilityEditorPage(UtilityDocument* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    setObjectName(QStringLiteral("utilityEditorPage"));
    // One undo stack for the shared matrix, whichever page edits it (the Decision lab's presets too).
    m_undo = m_document->undoStack();
    m_heatmap = new UtilityHeatmap(this);
    m_legend = new UtilityLegend(this);
    buildControls();

    connect(m_document, &UtilityDocument::matrixChanged, this, [this] {
        // A message about the previous matrix ("Saved to ...", "Refused ...") no longer applies;
        // the saved-state label says where the matrix now stands.
        showMessage(QString(), false);
        updateMatrix();
    });
    // The document clears its undo stack itself when the class list changes.
    connect(m_document, &UtilityDocument::classNamesChanged, this, &UtilityEditorPage::updateClasses);
    connect(m_document, &UtilityDocument::sourceChanged, this, &UtilityEditorPage::updateSourceLabel);
    connect(m_heatmap, &UtilityHeatmap::cellsPainted, this, &UtilityEditorPage::paintCells);
    connect(m_heatmap, &UtilityHeatmap::selectionChanged, this, &UtilityEditorPage::updateSelectionLabel);
    updateClasses();
    updateMatrix();
    updateSourceLabel();
}

void UtilityEditorPage::buildControls()
{
    // Tool and value.
    auto* paint = toolButton(tr("Paint"), tr("Click or drag over cells to set them to the value (one drag = one undo step). "
                                             "Shift-drag selects a block instead."),
                             QStringLiteral("paintMode"), this);
    auto* select = toolButton(tr("Select"), tr("Drag to select a rectangular block of cells (rows = true classes, "
                                               "columns = decisions), then Set selection. Clicking a class name selects "
                                               "its row or column; the corner selects everything."),
                              QStringLiteral("selectMode"), this);
    for (QToolButton* b : {paint, select}) {
        b->setCheckable(true);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    }
    paint->setChecked(true);
    m_modeGroup = new QButtonGroup(this);
    m_modeGroup->setExclusive(true);
    m_modeGroup->addButton(paint, 0);
    m_modeGroup->addButton(select, 1);
    connect(m_modeGroup, &QButtonGroup::idClicked, this, [this](int id) {
        m_heatmap->setMode(id == 1 ? UtilityHeatmap::Mode::Select : UtilityHeatmap::Mode::Paint);
    });

    const QString valueTip = tr("The utility U[t, d] to paint or set: 1 rewards a correct decision, 0 is neutral, a "
                                "negative value penalises deciding d when the truth is t (tail-sensitive uses -c for "
                                "false heads). Any finite number in +-%1; the slider covers +-%2.")
                                 .arg(kValueLimit)
                                 .arg(kSliderLimit);
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("valueSlider"));
    m_slider->setRange(int(-kSliderLimit * 100), int(kSliderLimit * 100));
    m_slider->setSingleStep(5);
    m_slider->setPageStep(50);
    m_slider->setMinimumWidth(140);
    m_slider->setToolTip(valueTip);
    m_value = new QDoubleSpinBox(this);
    m_value->setObjectName(QStringLiteral("valueSpin"));
    m_value->setRange(-kValueLimit, kValueLimit);
    m_value->setDecimals(3);
    m_value->setSingleStep(0.1);
    m_value->setToolTip(valueTip);
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        // Only follow the slider when it moved itself (a spin value beyond its span stays exact).
        if (std::lround(m_value->value() * 100) != v) {
            m_value->setValue(v / 100.0);
        }
    });
    connect(m_value, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        m_heatmap->setPaintValue(v);
        const QSignalBlocker block(m_slider);
        m_slider->setValue(int(std::lround(std::clamp(v, -kSliderLimit, kSliderLimit) * 100)));
    });
    m_value->setValue(-1.0);

    m_setSelection = new QPushButton(tr("Set selection"), this);
    m_setSelection->setObjectName(QStringLiteral("setSelection"));
    m_setSelection->setToolTip(tr("Set every cell of the selected block to the value (one undo step). Ctrl+Return."));
    m_setSelection->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    connect(m_setSelection, &QPushButton::clicked, this, &UtilityEditorPage::setSelectionToValue);
    m_selectionLabel = new QLabel(this);
    m_selectionLabel->setObjectName(QStringLiteral("selectionLabel"));
    m_selectionLabel->setToolTip(tr("The selected block: true-class rows x decision columns."));

    // Block shortcuts, presets and regions.
    auto* tailHead = new QPushButton(this);
    tailHead->setObjectName(QStringLiteral("selectTailHead"));
    tailHead->setToolTip(tr("Select the tail rows x head columns: deciding a head class when the truth is a tail class "
                            "(false heads, the errors the FHR counts)."));
    connect(tailHead, &QPushButton::clicked, this, [this] { selectRegionBlock(lbd::Region::Tail, lbd::Region::Head); });
    auto* headTail = new QPushButton(this);
    headTail->setObjectName(QStringLiteral("selectHeadTail"));
    headTail->setToolTip(tr("Select the head rows x tail columns: deciding a tail class when the truth is a head class."));
    connect(headTail, &QPushButton::clicked, this, [this] { selectRegionBlock(lbd::Region::Head, lbd::Region::Tail); });
    auto* all = new QPushButton(tr("All"), this);
    all->setToolTip(tr("Select the whole matrix."));
    connect(all, &QPushButton::clicked, this, [this] { m_heatmap->setSelection(QRect(0, 0, m_heatmap->classCount(), m_heatmap->classCount())); });
    auto* none = new QPushButton(tr("None"), this);
    none->setToolTip(tr("Clear the selection (Esc in the heatmap)."));
    connect(none, &QPushButton::clicked, m_heatmap, &UtilityHeatmap::clearSelection);

    auto* oneHot = new QPushButton(tr("One-hot"), this);
    oneHot->setObjectName(QStringLiteral("presetOneHot"));
    oneHot->setToolTip(tr("U = I: 1 for a correct decision, 0 otherwise. Every rule then reduces to its plain form and "
                          "training skips the utility term."));
    connect(oneHot, &QPushButton::clicked, this, &UtilityEditorPage::applyOneHot);
    auto* tail = new QPushButton(tr("Tail-sensitive"), this);
    tail->setObjectName(QStringLiteral("presetTail"));
    tail->setToolTip(tr("Paper Fig. 1b: I minus c in every cell where the decision is more head-ward than the truth "
                        "(d < t, a false head)."));
    m_penalty = new QDoubleSpinBox(this);
    m_penalty->setObjectName(QStringLiteral("tailPenalty"));
    m_penalty->setRange(0.001, 100);
    m_penalty->setDecimals(3);
    m_penalty->setValue(1.0);
    m_penalty->setToolTip(tr("c of the tail-sensitive preset: the utility of a false head decision is -c."));
    connect(tail, &QPushButton::clicked, this, [this] { applyTailSensitive(m_penalty->value()); });

    m_scheme = new QComboBox(this);
    m_scheme->setObjectName(QStringLiteral("regionScheme"));
    m_scheme->addItem(tr("Thirds by index"), static_cast<int>(lbd::RegionScheme::ThirdsByIndex));
    m_scheme->addItem(tr("By training count"), static_cast<int>(lbd::RegionScheme::ByTrainCount));
    m_scheme->setToolTip(tr("Regions of the bands and block buttons. Thirds (the paper): head = first floor(C/3) classes, "
                            "med = next floor(C/3), tail = the rest. By count (ImageNet-LT): many > 100 training images, "
                            "medium 20..100, few < 20."));
    connect(m_scheme, &QComboBox::currentIndexChanged, this, &UtilityEditorPage::updateClasses);

    // Undo, zoom, files.
    m_undoAction = m_undo->createUndoAction(this, tr("Undo"));
    m_undoAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    m_undoAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_undoAction->setObjectName(QStringLiteral("utilityUndo"));
    m_redoAction = m_undo->createRedoAction(this, tr("Redo"));
    m_redoAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    m_redoAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_redoAction->setObjectName(QStringLiteral("utilityRedo"));
    addAction(m_undoAction);
    addAction(m_redoAction);
    m_undoAction->setIcon(QIcon::fromTheme(QStringLiteral("edit-undo"), style()->standardIcon(QStyle::SP_ArrowBack)));
    m_redoAction->setIcon(QIcon::fromTheme(QStringLiteral("edit-redo"), style()->standardIcon(QStyle::SP_ArrowForward)));
    auto* undoButton = new QToolButton(this);
    undoButton->setObjectName(QStringLiteral("undoButton"));
    undoButton->setDefaultAction(m_undoAction);
    undoButton->setToolButtonStyle(Qt::ToolButtonIconOnly);
    auto* redoButton = new QToolButton(this);
    redoButton->setObjectName(QStringLiteral("redoButton"));
    redoButton->setDefaultAction(m_redoAction);
    redoButton->setToolButtonStyle(Qt::ToolButtonIconOnly);
    // The actions' texts name the step ("Undo paint 3 cells"); the tooltips add the shortcut.
    const auto retip = [this] {
        m_undoAction->setToolTip(tr("%1 (Ctrl+Z)").arg(m_undoAction->isEnabled() ? m_undoAction->text() : tr("Nothing to undo")));
        m_redoAction->setToolTip(tr("%1 (Ctrl+Shift+Z)").arg(m_redoAction->isEnabled() ? m_redoAction->text() : tr("Nothing to redo")));
    };
    connect(m_undo, &QUndoStack::indexChanged, this, retip);
    connect(m_undo, &QUndoStack::cleanChanged, this, retip);
    retip();

    auto* zoomOut = toolButton(tr("\u2212"), tr("Zoom out: smaller cells (Ctrl+wheel over the heatmap)"), QStringLiteral("zoomOut"), this);
    auto* zoomIn = toolButton(tr("+"), tr("Zoom in: larger cells; values are written in cells of %1 px or more")
                                           .arg(UtilityHeatmap::kValueTextCellSize),
                              QStringLiteral("zoomIn"), this);
    auto* fit = toolButton(tr("Fit"), tr("Zoom so that the whole matrix fits the view"), QStringLiteral("zoomFit"), this);
    connect(zoomOut, &QToolButton::clicked, m_heatmap, &UtilityHeatmap::zoomOut);
    connect(zoomIn, &QToolButton::clicked, m_heatmap, &UtilityHeatmap::zoomIn);
    connect(fit, &QToolButton::clicked, m_heatmap, &UtilityHeatmap::fitToView);

    auto* importButton = new QPushButton(tr("Import..."), this);
    importButton->setObjectName(QStringLiteral("importUtility"));
    importButton->setToolTip(tr("Load a matrix from CSV (C lines of C numbers, optionally a first line of class names) "
                                "or JSON ({\"classes\": [...], \"matrix\": [[...]]}). Named classes are reordered to the "
                                "data set's order. One undo step."));
    connect(importButton, &QPushButton::clicked, this, &UtilityEditorPage::chooseImport);
    auto* exportButton = new QPushButton(tr("Export..."), this);
    exportButton->setObjectName(QStringLiteral("exportUtility"));
    exportButton->setToolTip(tr("Save the matrix as CSV or JSON with the class names (written atomically)."));
    connect(exportButton, &QPushButton::clicked, this, &UtilityEditorPage::chooseExport);
    m_name = new QLineEdit(QStringLiteral("editor"), this);
    m_name->setObjectName(QStringLiteral("utilityName"));
    m_name->setMaximumWidth(140);
    m_name->setToolTip(tr("File name for Use for training: <runs folder>/utility/<name>.csv (letters, digits, . _ -)."));
    auto* use = new QPushButton(tr("Use for training"), this);
    use->setObjectName(QStringLiteral("useForTraining"));
    use->setToolTip(tr("Save this matrix to <runs folder>/utility/<name>.csv and copy it (by value) into the experiment "
                       "panel as the TRAINING utility of the next run's utility term. Decisions always use this page's "
                       "matrix; training does only when you say so here or in the panel."));
    connect(use, &QPushButton::clicked, this, &UtilityEditorPage::useForTraining);

    m_description = new QLabel(this);
    m_description->setObjectName(QStringLiteral("utilityDescription"));
    m_description->setToolTip(tr("The shared decision matrix: the Decision lab and Classify decide with it and the next "
                                 "run records it by value as its decision utility (rows = true class, columns = decision)."));
    m_sourceLabel = new QLabel(this);
    m_sourceLabel->setObjectName(QStringLiteral("utilitySavedState"));
    m_sourceLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sourceLabel->setToolTip(tr("Where the matrix was last saved to or read from, and whether it has changed since (on "
                                 "this page or through the Decision lab's presets)."));
    m_decisionControls = new DecisionControls(m_document, DecisionControls::Layout::Row, this);
    m_decisionControls->ruleBox()->setObjectName(QStringLiteral("utilityRule"));
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("utilityMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setVisible(false);
    m_setAside = new QLabel(this);
    m_setAside->setObjectName(QStringLiteral("utilitySetAside"));
    m_setAside->setWordWrap(true);
    m_setAside->setStyleSheet(QStringLiteral("color: #8a5a00;"));
    m_setAside->setToolTip(tr("The matrix follows the classes of the data set or run shown; one made for other classes "
                              "is kept and comes back with them."));
    m_setAside->setVisible(false);
    connect(m_document, &UtilityDocument::setAsideChanged, this, [this] {
        m_setAside->setText(m_document->setAsideText());
        m_setAside->setVisible(!m_setAside->text().isEmpty());
    });

    auto* row1 = rowOf({sectionLabel(tr("Tool"), this), paint, select, nullptr, sectionLabel(tr("Value"), this)});
    row1->addWidget(m_slider, 1);
    row1->addWidget(m_value);
    row1->addWidget(m_setSelection);
    // Rows short enough for the page to fit 1024 px with the experiment panel collapsed.
    auto* row2 = rowOf({sectionLabel(tr("Select"), this), tailHead, headTail, all, none, nullptr,
                        sectionLabel(tr("Regions"), this), m_scheme});
    row2->addStretch();
    auto* row2b = rowOf({sectionLabel(tr("Presets"), this), oneHot, tail, new QLabel(tr("c"), this), m_penalty, nullptr,
                         undoButton, redoButton, nullptr, sectionLabel(tr("Zoom"), this), zoomOut, zoomIn, fit});
    row2b->addStretch();
    auto* row3 = rowOf({importButton, exportButton, nullptr, new QLabel(tr("Name"), this), m_name, use});
    row3->addStretch();
    auto* row4 = rowOf({sectionLabel(tr("Decisions"), this), m_decisionControls});
    row4->addStretch();
    row4->addWidget(m_description);
    row4->addSpacing(12);
    row4->addWidget(m_sourceLabel);

    auto* body = new QHBoxLayout;
    body->addWidget(m_heatmap, 1);
    body->addWidget(m_legend);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(row1);
    layout->addLayout(row2);
    layout->addLayout(row2b);
    layout->addLayout(row3);
    layout->addWidget(m_selectionLabel);
    layout->addLayout(row4);
    layout->addWidget(m_message);
    layout->addWidget(m_setAside);
    layout->addLayout(body, 1);

    // Button texts name the regions of the current scheme.
    const auto retitle = [this, tailHead, headTail] {
        const lbd::RegionScheme scheme = regionScheme();
        tailHead->setText(tr("%1 rows \u00d7 %2 columns").arg(regionTitle(lbd::Region::Tail, scheme), regionTitle(lbd::Region::Head, scheme)));
        headTail->setText(tr("%1 rows \u00d7 %2 columns").arg(regionTitle(lbd::Region::Head, scheme), regionTitle(lbd::Region::Tail, scheme)));
    };
    connect(m_scheme, &QComboBox::currentIndexChanged, this, retitle);
    retitle();
}

lbd::RegionScheme UtilityEditorPage::regionScheme() const
{
    return static_cast<lbd::RegionScheme>(m_scheme->currentData().toInt());
}

void UtilityEditorPage::setClassCounts(const std::vector<int64_t>& counts)
{
    if (counts == m_counts) {
        return;
    }
    m_counts = counts;
    updateClasses();
}

void UtilityEditorPage::updateClasses()
{
    const int n = m_document->classCount();
    lbd::RegionScheme scheme = regionScheme();
    if (static_cast<int>(m_counts.size()) == n) {
        m_regions = lbd::classRegions(m_counts, scheme);
    } else {
        // Without counts only the index thirds are known (they need just C).
        m_regions = lbd::classRegions(std::vector<int64_t>(size_t(n), 0), lbd::RegionScheme::ThirdsByIndex);
        scheme = lbd::RegionScheme::ThirdsByIndex;
    }
    m_heatmap->setClasses(m_document->classNames(), m_regions, scheme);
    m_heatmap->setMatrix(m_document->matrix());
    m_legend->setRegionScheme(scheme);
    updateSelectionLabel();
}

void UtilityEditorPage::updateMatrix()
{
    m_heatmap->setMatrix(m_document->matrix());
    m_legend->setScale(m_heatmap->colorScale());
    const int n = m_document->classCount();
    m_description->setText(tr("%1 x %1, %2").arg(n).arg(m_document->description()));
    // The preset's c follows the matrix, so it never shows another c than the one in use.
    if (const auto c = m_document->tailPenalty()) {
        const QSignalBlocker block(m_penalty);
        m_penalty->setValue(*c);
    }
}

QString UtilityEditorPage::setAsideText() const { return m_setAside->isHidden() ? QString() : m_setAside->text(); }

void UtilityEditorPage::updateSourceLabel()
{
    const bool modified = m_document->modifiedSinceSource();
    m_sourceLabel->setText(m_document->sourceText());
    m_sourceLabel->setStyleSheet(modified ? QStringLiteral("color: #8a5a00; font-weight: bold;") : QString());
}

void UtilityEditorPage::updateSelectionLabel()
{
    const QRect s = m_heatmap->selection();
    m_setSelection->setEnabled(!s.isNull());
    if (s.isNull()) {
        m_selectionLabel->setText(tr("No block selected"));
        return;
    }
    const QStringList& names = m_document->classNames();
    const auto span = [&names](int first, int last) {
        return first == last ? names.value(first) : QStringLiteral("%1..%2").arg(names.value(first), names.value(last));
    };
    m_selectionLabel->setText(tr("Rows (true) %1 \u00d7 columns (decision) %2: %3 cells")
                                  .arg(span(s.top(), s.bottom()), span(s.left(), s.right()))
                                  .arg(s.width() * s.height()));
}

double UtilityEditorPage::paintValue() const { return m_value->value(); }

void UtilityEditorPage::setPaintValue(double value) { m_value->setValue(value); }

bool UtilityEditorPage::commit(const lbd::UtilityMatrix& after, const QString& text)
{
    const QString problem = m_document->checkMatrix(after);
    if (!problem.isEmpty()) {
        showMessage(tr("Refused (%1): %2 The matrix is unchanged.").arg(text, problem), true);
        return false;
    }
    if (after == m_document->matrix()) {
        showMessage(tr("%1: the matrix already has these values.").arg(text), false);
        return true;
    }
    m_undo->push(new UtilityEditCommand(m_document, m_document->matrix(), after, text));
    showMessage(QString(), false);
    return true;
}

void UtilityEditorPage::paintCells(const QVector<QPoint>& cells)
{
    const double value = paintValue();
    if (!std::isfinite(value)) {
        showMessage(tr("Refused: the value is not a finite number."), true);
        return;
    }
    lbd::UtilityMatrix after = m_document->matrix();
    const int n = m_document->classCount();
    for (const QPoint& cell : cells) {
        if (cell.x() >= 0 && cell.y() >= 0 && cell.x() < n && cell.y() < n) {
            after(cell.y(), cell.x()) = value;
        }
    }
    const QPoint& first = cells.front();
    commit(after, cells.size() == 1 ? tr("paint U[%1, %2] = %3")
                                          .arg(m_document->classNames().value(first.y()), m_document->classNames().value(first.x()))
                                          .arg(value)
                                    : tr("paint %1 cells = %2").arg(cells.size()).arg(value));
}

bool UtilityEditorPage::setSelectionToValue()
{
    const QRect s = m_heatmap->selection();
    if (s.isNull()) {
        showMessage(tr("Select a block first: Select mode, shift-drag, a class name, or a region button."), true);
        return false;
    }
    const double value = paintValue();
    lbd::UtilityMatrix after = m_document->matrix();
    for (int t = s.top(); t <= s.bottom(); ++t) {
        for (int d = s.left(); d <= s.right(); ++d) {
            after(t, d) = value;
        }
    }
    return commit(after, tr("set %1 x %2 block = %3").arg(s.height()).arg(s.width()).arg(value));
}

bool UtilityEditorPage::applyOneHot()
{
    return commit(lbd::UtilityMatrix::oneHot(m_document->classCount()), tr("one-hot preset"));
}

bool UtilityEditorPage::applyTailSensitive(double penalty)
{
    if (!std::isfinite(penalty) || penalty <= 0) {
        showMessage(tr("Refused: the tail-sensitive penalty c must be a positive number (c = 0 is one-hot)."), true);
        return false;
    }
    return commit(lbd::UtilityMatrix::tailSensitive(m_document->classCount(), penalty),
                  tr("tail-sensitive preset (c = %1)").arg(penalty));
}

bool UtilityEditorPage::selectRegionBlock(lbd::Region rows, lbd::Region columns)
{
    const auto span = [this](lbd::Region region) -> std::pair<int, int> {
        int first = -1;
        int last = -1;
        for (size_t c = 0; c < m_regions.size(); ++c) {
            if (m_regions[c] == region) {
                first = first < 0 ? int(c) : first;
                last = int(c);
            }
        }
        return {first, last};
    };
    const auto [r0, r1] = span(rows);
    const auto [c0, c1] = span(columns);
    const lbd::RegionScheme scheme = regionScheme();
    if (r0 < 0 || c0 < 0) {
        showMessage(tr("No %1 classes here (C = %2): nothing to select.")
                        .arg(regionTitle(r0 < 0 ? rows : columns, scheme))
                        .arg(m_document->classCount()),
                    true);
        return false;
    }
    m_heatmap->setSelection(QRect(QPoint(c0, r0), QPoint(c1, r1)));
    showMessage(QString(), false);
    return true;
}

bool UtilityEditorPage::importFile(const QString& path)
{
    lbd::UtilityMatrix loaded;
    try {
        loaded = lbd::loadUtilityMatrix(path.toStdString(), m_document->classNameList());
    } catch (const std::exception& error) {
        showMessage(tr("Not imported: %1. The matrix is unchanged.").arg(QString::fromUtf8(error.what())), true);
        return false;
    }
    const QString problem = m_document->checkMatrix(loaded);
    if (!problem.isEmpty()) {
        showMessage(tr("Not imported: %1: %2 The matrix is unchanged.").arg(path, problem), true);
        return false;
    }
    if (!commit(loaded, tr("import %1").arg(QFileInfo(path).fileName()))) {
        return false;
    }
    m_document->setSource(UtilityDocument::Source::ImportedFile, path);
    showMessage(tr("Imported %1.").arg(path), false);
    return true;
}

bool UtilityEditorPage::exportFile(const QString& path)
{
    QString error;
    if (!m_document->saveToFile(path, &error)) {
        showMessage(tr("Not exported: %1").arg(error), true);
        return false;
    }
    showMessage(tr("Exported to %1.").arg(path), false);
    return true;
}

QString UtilityEditorPage::useForTraining()
{
    QString name = m_name->text().trimmed();
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    if (name.isEmpty() || name.startsWith(QLatin1Char('.'))) {
        showMessage(tr("Not saved: give the matrix a file name (letters, digits, . _ -)."), true);
        return {};
    }
    const QString folder = QDir(AppSettings::runsFolder()).filePath(QStringLiteral("utility"));
    const QString path = QDir(folder).filePath(name + QStringLiteral(".csv"));
    QString error;
    if (!QDir().mkpath(folder) || !m_document->saveToFile(path, &error)) {
        showMessage(error.isEmpty() ? tr("Not saved: the folder %1 could not be created (File > Runs folder chooses another).").arg(folder)
                                    : tr("Not saved: %1").arg(error),
                    true);
        return {};
    }
    showMessage(tr("Saved to %1; the experiment panel's TRAINING utility is now a copy of this matrix (stored by value "
                   "in the next run). Decisions already use it.")
                    .arg(path),
                false);
    emit trainingMatrixSaved(path);
    return path;
}

void UtilityEditorPage::chooseImport()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import utility matrix"), AppSettings::runsFolder(),
                                                      tr("Utility matrix (*.csv *.json);;All files (*)"));
    if (!path.isEmpty()) {
        importFile(path);
    }
}

void UtilityEditorPage::chooseExport()
{
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export utility matrix"),
                                                QDir(AppSettings::runsFolder()).filePath(QStringLiteral("utility.csv")),
                                                tr("CSV (*.csv);;JSON (*.json)"), &filter);
    if (path.isEmpty()) {
        return;
    }
    if (QFileInfo(path).suffix().isEmpty()) {
        path += filter.contains(QLatin1String("json")) ? QStringLiteral(".json") : QStringLiteral(".csv");
    }
    exportFile(path);
}

QString UtilityEditorPage::message() const { return m_message->isHidden() ? QString() : m_message->text(); }

QString UtilityEditorPage::savedStateText() const { return m_sourceLabel->text(); }

void UtilityEditorPage::showMessage(const QString& text, bool error)
{
    m_messageIsError = error && !text.isEmpty();
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    m_message->setStyleSheet(error ? QStringLiteral("color: #b00020; font-weight: bold; padding: 4px; "
                                                    "border: 1px solid #b00020; border-radius: 3px;")
                                   : QStringLiteral("color: #1b5e20; padding: 4px;"));
}

} // namespace lbd::ui
