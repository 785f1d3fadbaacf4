#include "ui/pages/gallerypage.h"

#include "core/data/regions.h"
#include "core/infer/runresults.h"
#include "ui/gallery/gallerydata.h"
#include "ui/gallery/galleryfilter.h"
#include "ui/gallery/gallerymodel.h"
#include "ui/gallery/tiledelegate.h"
#include "ui/style/regioncolors.h"
#include "ui/style/seriescolors.h"
#include "ui/widgets/emptystate.h"
#include "ui/widgets/throttledplot.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QListView>
#include <QPixmap>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

namespace lbd::ui {

namespace {

constexpr int kDetailSide = 192;
constexpr int kMaxPlottedClasses = 12;

} // namespace

GalleryPage::GalleryPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("galleryPage"));

    m_sort = new QComboBox(this);
    m_sort->setObjectName(QStringLiteral("gallerySort"));
    m_sort->addItem(tr("mutual information (epistemic)"), int(SortKey::MutualInformation));
    m_sort->addItem(tr("vote disagreement (choice)"), int(SortKey::VoteDisagreement));
    m_sort->addItem(tr("top loss"), int(SortKey::TopLoss));
    m_sort->setToolTip(tr("Order of the tiles, largest first.\nMutual information = H(pbar) - (1/M) sum_j H(p_j): how "
                          "much the particles' distributions differ (epistemic uncertainty, nats).\nVote disagreement = "
                          "1 - (largest number of particles agreeing on the top-1 class) / M.\nTop loss = -log pbar(true "
                          "class): the images the ensemble got most confidently wrong first (nats)."));
    connect(m_sort, &QComboBox::currentIndexChanged, this, [this] { applyFilters(); });

    m_classFilter = new QComboBox(this);
    m_classFilter->setObjectName(QStringLiteral("galleryClassFilter"));
    m_classFilter->setToolTip(tr("Show only test images whose true class is this one."));
    m_classFilter->addItem(tr("every class"), -1);
    connect(m_classFilter, &QComboBox::currentIndexChanged, this, [this] { applyFilters(); });

    m_regionFilter = new QComboBox(this);
    m_regionFilter->setObjectName(QStringLiteral("galleryRegionFilter"));
    m_regionFilter->setToolTip(tr("Show only test images whose true class is in this region (thirds by class index, "
                                  "the paper: head = first floor(C/3) classes, med = next floor(C/3), tail = the rest)."));
    m_regionFilter->addItem(tr("every region"), -1);
    for (lbd::Region region : {lbd::Region::Head, lbd::Region::Medium, lbd::Region::Tail}) {
        QPixmap swatch(10, 10);
        swatch.fill(regionColor(region));
        m_regionFilter->addItem(QIcon(swatch), QString::fromStdString(lbd::regionName(region, lbd::RegionScheme::ThirdsByIndex)),
                                int(region));
    }
    connect(m_regionFilter, &QComboBox::currentIndexChanged, this, [this] { applyFilters(); });

    m_show = new QComboBox(this);
    m_show->setObjectName(QStringLiteral("galleryShowFilter"));
    m_show->setToolTip(tr("Which images, by the run's own decision (its decision matrix and rule, as in the report and "
                          "the Confusion page):\nwrong only = decided class differs from the true class;\ntail decided "
                          "as head = a tail-third image decided as a head-third class (what the False Head Rate counts)."));
    m_show->addItem(tr("every image"), int(GalleryShow::Every));
    m_show->addItem(tr("wrong only"), int(GalleryShow::WrongOnly));
    m_show->addItem(tr("tail decided as head"), int(GalleryShow::TailAsHead));
    connect(m_show, &QComboBox::currentIndexChanged, this, [this] { applyFilters(); });

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Sort by:"), this));
    controls->addWidget(m_sort);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Class:"), this));
    controls->addWidget(m_classFilter);
    controls->addWidget(new QLabel(tr("Region:"), this));
    controls->addWidget(m_regionFilter);
    controls->addWidget(new QLabel(tr("Show:"), this));
    controls->addWidget(m_show);
    controls->addStretch(1);

    m_runLabel = new QLabel(this);
    m_runLabel->setObjectName(QStringLiteral("galleryRun"));
    m_runLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runLabel->setToolTip(tr("The run whose cached test probabilities are shown."));
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("galleryMessage"));
    m_message->setWordWrap(true);
    m_message->setVisible(false);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("galleryStatus"));
    m_status->setToolTip(tr("Tiles are added 200 at a time as you scroll down."));

    m_model = new GalleryModel(this);
    m_view = new QListView(this);
    m_view->setObjectName(QStringLiteral("galleryTiles"));
    m_view->setViewMode(QListView::IconMode);
    m_view->setResizeMode(QListView::Adjust);
    m_view->setMovement(QListView::Static);
    m_view->setUniformItemSizes(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSpacing(2);
    m_view->setItemDelegate(new TileDelegate(m_view));
    m_view->setModel(m_model);
    m_view->setToolTip(tr("Test images, most disagreement first. Chips: each particle's top-1 class index, green when "
                          "it is the true class, red when not. Click a tile to plot each particle's distribution."));
    connect(m_view, &QAbstractItemView::clicked, this, [this](const QModelIndex& index) {
        selectImage(index.data(GalleryModel::kImageRole).toLongLong());
    });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &GalleryPage::updateStatus);

    m_detailImage = new QLabel(this);
    m_detailImage->setObjectName(QStringLiteral("galleryDetailImage"));
    m_detailImage->setFixedSize(kDetailSide, kDetailSide);
    m_detailImage->setAlignment(Qt::AlignCenter);
    m_detailImage->setToolTip(tr("The selected test image, scaled up without smoothing."));
    m_detailText = new QLabel(this);
    m_detailText->setObjectName(QStringLiteral("galleryDetailText"));
    m_detailText->setWordWrap(true);
    m_detailText->setTextFormat(Qt::RichText);
    m_detailText->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_plot = new ThrottledPlot(this);
    m_plot->setObjectName(QStringLiteral("galleryDistributionPlot"));
    m_plot->plotLayout()->insertRow(0);
    QFont titleFont = m_plot->font();
    titleFont.setPointSize(11);
    titleFont.setBold(true);
    m_plot->plotLayout()->addElement(0, 0, new QCPTextElement(m_plot, tr("Each particle's distribution"), titleFont));
    m_plot->xAxis->setLabel(tr("class (index: name)"));
    m_plot->yAxis->setLabel(tr("probability p_j(class | image)"));
    m_plot->setFixedValueRange(0, 1.05);
    m_plot->placeLegendBelow();

    auto* detail = new QWidget(this);
    auto* detailLayout = new QVBoxLayout(detail);
    auto* detailTop = new QHBoxLayout;
    detailTop->addWidget(m_detailImage);
    detailTop->addWidget(m_detailText, 1);
    detailLayout->addLayout(detailTop);
    detailLayout->addWidget(m_plot, 1);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_view);
    splitter->addWidget(detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* content = new QWidget(this);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    contentLayout->addLayout(controls);
    contentLayout->addWidget(m_status);
    contentLayout->addWidget(splitter, 1);

    m_empty = makeEmptyStateLabel(QStringLiteral("galleryEmptyState"),
                                  tr("<h3>No run yet</h3><p>Train a run or open one (File &gt; Open run...). The gallery "
                                     "shows its test images with the most disagreement between particles first.</p>"),
                                  this);

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(content);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_runLabel);
    layout->addWidget(m_message);
    layout->addWidget(m_stack, 1);

    clearDetail();
}

GalleryPage::~GalleryPage() = default;

void GalleryPage::showRun(const QString& directory)
{
    m_directory = directory;
    m_runLabel->setText(tr("Run: %1 (loading the test images and computing every image's uncertainty...)")
                            .arg(QDir::toNativeSeparators(directory)));
    showMessage({}, false);
    if (!m_data) {
        m_empty->setText(tr("<h3>Loading the run's test images…</h3>"));
    }
    const std::string path = directory.toStdString();
    m_load.start([path] { return loadGallery(path); },
                 [this](std::shared_ptr<const GalleryData> data) { onLoaded(std::move(data)); },
                 [this](const QString& error) { onLoadFailed(error); });
}

void GalleryPage::beginRun(const RunContext& context)
{
    m_load.cancel(); // a load still running is for the run shown before
    m_directory = context.runDirectory;
    m_data.reset();
    m_pendingCell = {-1, -1};
    m_model->reset(nullptr, {}, sortKey());
    setCellItem(-1, -1);
    clearDetail();
    updateStatus();
    showMessage({}, false);
    const QString name = QFileInfo(context.runDirectory).fileName();
    m_runLabel->setText(tr("Run: %1").arg(QDir::toNativeSeparators(context.runDirectory)));
    m_empty->setText(tr("<h3>This run has no evaluation yet</h3><p>The gallery shows the test images of %1 once the run "
                        "has finished or been stopped: they come from the test probabilities it writes then.</p>")
                         .arg(name.toHtmlEscaped()));
    m_stack->setCurrentWidget(m_empty);
}

void GalleryPage::addEpoch(const lbd::EpochMetrics&)
{
    // Epochs carry reports, not per-image probabilities: the tiles wait for showRun().
}

void GalleryPage::onLoadFailed(const QString& error)
{
    m_runLabel->setText(tr("Run: %1").arg(QDir::toNativeSeparators(m_directory)));
    m_data.reset();
    m_pendingCell = {-1, -1};
    m_model->reset(nullptr, {}, sortKey());
    m_stack->setCurrentIndex(0);
    m_empty->setText(tr("<h3>No test images to show for this run</h3><p>The reason is above.</p>"));
    clearDetail();
    showMessage(tr("Cannot show this run in the gallery: %1").arg(error), true);
    emit failed(error);
}

void GalleryPage::onLoaded(std::shared_ptr<const GalleryData> data)
{
    m_data = data;
    showMessage(data->imageError.isEmpty()
                    ? QString()
                    : tr("The test images could not be read, so tiles show no picture: %1").arg(data->imageError),
                !data->imageError.isEmpty());
    {
        const QSignalBlocker block(m_classFilter);
        m_classFilter->clear();
        m_classFilter->addItem(tr("every class"), -1);
        for (int64_t c = 0; c < data->results->classes; ++c) {
            QPixmap swatch(10, 10);
            swatch.fill(regionColor(data->classRegion[size_t(c)]));
            m_classFilter->addItem(QIcon(swatch), tr("%1: %2").arg(c).arg(data->className(c)), int(c));
        }
    }
    m_runLabel->setText(tr("Run: %1: %2 test images, %3 classes, %4 particles")
                            .arg(QDir::toNativeSeparators(m_directory))
                            .arg(data->results->images)
                            .arg(data->results->classes)
                            .arg(data->results->particles));
    m_stack->setCurrentIndex(1);
    clearDetail();
    if (m_pendingCell.first >= 0) {
        const auto cell = m_pendingCell;
        m_pendingCell = {-1, -1};
        showConfusionCell(cell.first, cell.second); // asked for before the run finished loading
    } else {
        setCellItem(-1, -1); // a cell of the previous run means nothing here
        applyFilters();
    }
    emit loaded();
}

void GalleryPage::setSortKey(SortKey key) { m_sort->setCurrentIndex(m_sort->findData(int(key))); }

GalleryPage::SortKey GalleryPage::sortKey() const { return static_cast<SortKey>(m_sort->currentData().toInt()); }

void GalleryPage::setClassFilter(int classIndex) { m_classFilter->setCurrentIndex(std::max(0, m_classFilter->findData(classIndex))); }

void GalleryPage::setRegionFilter(int region) { m_regionFilter->setCurrentIndex(std::max(0, m_regionFilter->findData(region))); }

void GalleryPage::setShowFilter(GalleryShow show)
{
    m_show->setCurrentIndex(std::max(0, m_show->findData(int(show))));
}

GalleryShow GalleryPage::showFilter() const { return static_cast<GalleryShow>(m_show->currentData().toInt()); }

void GalleryPage::setCellItem(int64_t trueClass, int64_t decidedClass)
{
    const QSignalBlocker block(m_show);
    const int existing = m_show->findData(int(GalleryShow::Cell));
    if (existing >= 0) {
        m_show->removeItem(existing);
    }
    m_cell = {trueClass, decidedClass};
    if (trueClass >= 0 && m_data) {
        m_show->addItem(tr("true %1 decided as %2").arg(m_data->className(trueClass), m_data->className(decidedClass)),
                        int(GalleryShow::Cell));
    }
}

void GalleryPage::showConfusionCell(int64_t trueClass, int64_t decidedClass)
{
    if (!m_data || m_load.isRunning()) {
        m_pendingCell = {trueClass, decidedClass}; // applied once the run has loaded
        return;
    }
    if (trueClass < 0 || decidedClass < 0 || trueClass >= m_data->results->classes || decidedClass >= m_data->results->classes) {
        return;
    }
    {
        const QSignalBlocker blockClass(m_classFilter);
        const QSignalBlocker blockRegion(m_regionFilter);
        m_classFilter->setCurrentIndex(0); // the cell alone says which images: no other filter hides some
        m_regionFilter->setCurrentIndex(0);
    }
    setCellItem(trueClass, decidedClass);
    const QSignalBlocker block(m_show);
    m_show->setCurrentIndex(m_show->findData(int(GalleryShow::Cell)));
    applyFilters();
}

void GalleryPage::applyFilters()
{
    if (!m_data) {
        return;
    }
    const SortKey key = sortKey();
    GalleryFilter filter;
    filter.classIndex = m_classFilter->currentData().toInt();
    filter.region = m_regionFilter->currentData().toInt();
    filter.show = showFilter();
    filter.cellTrue = m_cell.first;
    filter.cellDecided = m_cell.second;
    m_model->reset(m_data, filterGallery(*m_data, galleryOrder(key, *m_data), filter), key);
    m_view->scrollToTop();
    updateStatus();
    // Keep the detail when its image is still shown; otherwise it would describe a hidden tile.
    if (m_selected >= 0) {
        const auto& shown = m_model->order();
        if (std::find(shown.begin(), shown.end(), m_selected) == shown.end()) {
            clearDetail();
        }
    }
}

void GalleryPage::updateStatus()
{
    if (!m_data) {
        m_status->clear();
        return;
    }
    const int matching = matchingCount();
    m_status->setText(matching == 0 ? tr("No test image matches the filters.")
                                    : tr("%1 of %2 matching test images shown, %3 decreasing%4")
                                          .arg(shownCount())
                                          .arg(matching)
                                          .arg(m_sort->currentText())
                                          .arg(shownCount() < matching ? tr("; scroll down for more") : QString()));
}

int GalleryPage::matchingCount() const { return static_cast<int>(m_model->order().size()); }

int GalleryPage::shownCount() const { return m_model->rowCount(); }

std::vector<int64_t> GalleryPage::shownImages() const
{
    const auto& order = m_model->order();
    return std::vector<int64_t>(order.begin(), order.begin() + shownCount());
}

int64_t GalleryPage::imageAt(int row) const
{
    return row >= 0 && row < shownCount() ? m_model->order()[size_t(row)] : -1;
}

double GalleryPage::value(int64_t image) const
{
    if (!m_data || image < 0 || image >= int64_t(m_data->uncertainty.size())) {
        return 0.0;
    }
    return galleryValue(sortKey(), *m_data, image);
}

int64_t GalleryPage::decidedClass(int64_t image) const
{
    return m_data && image >= 0 && image < m_data->results->images ? m_data->decided[size_t(image)] : -1;
}

int64_t GalleryPage::trueClass(int64_t image) const
{
    return m_data && image >= 0 && image < m_data->results->images ? m_data->results->labels[size_t(image)] : -1;
}

QString GalleryPage::message() const { return m_message->isHidden() ? QString() : m_message->text(); }

QString GalleryPage::statusText() const { return m_status->text(); }

void GalleryPage::showMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
    m_message->setVisible(!text.isEmpty());
}

void GalleryPage::clearDetail()
{
    m_selected = -1;
    m_plottedClasses.clear();
    m_detailImage->clear();
    m_detailText->setText(tr("Click a tile to see each particle's distribution over the classes."));
    m_plot->clearPlottables();
    m_plot->requestReplot();
    m_plot->hide(); // an empty chart says nothing: it appears with the first selected tile
}

std::vector<std::vector<double>> GalleryPage::plottedDistributions() const
{
    std::vector<std::vector<double>> out;
    if (!m_data || m_selected < 0) {
        return out;
    }
    for (int64_t j = 0; j < m_data->results->particles; ++j) {
        std::vector<double> row;
        const float* p = m_data->results->distribution(j, m_selected);
        for (int64_t c : m_plottedClasses) {
            row.push_back(p[c]);
        }
        out.push_back(std::move(row));
    }
    return out;
}

void GalleryPage::selectImage(int64_t image)
{
    if (!m_data || image < 0 || image >= m_data->results->images) {
        return;
    }
    m_selected = image;
    m_plot->show();
    const lbd::RunResults& r = *m_data->results;
    const lbd::ImageUncertainty& u = m_data->uncertainty[size_t(image)];
    const int64_t label = r.labels[size_t(image)];

    // Classes to plot: all of them when few, else the ones the ensemble finds most likely (and
    // always the true class), in class order.
    std::vector<double> mean(size_t(r.classes), 0.0);
    for (int64_t j = 0; j < r.particles; ++j) {
        const float* p = r.distribution(j, image);
        for (int64_t c = 0; c < r.classes; ++c) {
            mean[size_t(c)] += p[c] / double(r.particles);
        }
    }
    m_plottedClasses.clear();
    if (r.classes <= kMaxPlottedClasses) {
        for (int64_t c = 0; c < r.classes; ++c) {
            m_plottedClasses.push_back(c);
        }
    } else {
        std::vector<int64_t> byMean(size_t(r.classes));
        std::iota(byMean.begin(), byMean.end(), int64_t(0));
        std::stable_sort(byMean.begin(), byMean.end(), [&mean](int64_t a, int64_t b) { return mean[size_t(a)] > mean[size_t(b)]; });
        byMean.resize(kMaxPlottedClasses);
        if (std::find(byMean.begin(), byMean.end(), label) == byMean.end()) {
            byMean.back() = label;
        }
        std::sort(byMean.begin(), byMean.end());
        m_plottedClasses = byMean;
    }

    ThrottledPlot* p = m_plot;
    p->clearPlottables();
    auto* group = new QCPBarsGroup(p);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (size_t i = 0; i < m_plottedClasses.size(); ++i) {
        const int64_t c = m_plottedClasses[i];
        ticker->addTick(double(i), QStringLiteral("%1%2: %3").arg(c == label ? QStringLiteral("* ") : QString()).arg(c).arg(m_data->className(c)));
    }
    ticker->setSubTickCount(0);
    p->xAxis->setTicker(ticker);
    p->xAxis->setTickLabelRotation(m_plottedClasses.size() > 6 ? 40 : 0);
    p->setFixedRange(p->xAxis, -0.6, double(m_plottedClasses.size()) - 0.4);
    const double width = 0.8 / double(std::max<int64_t>(1, r.particles));
    for (int64_t j = 0; j < r.particles; ++j) {
        auto* bars = new QCPBars(p->xAxis, p->yAxis);
        const QColor color = seriesColor(int(j));
        bars->setName(tr("particle %1").arg(j + 1)); // its top-1 is listed above the plot
        bars->setPen(QPen(color.darker(140)));
        bars->setBrush(color);
        bars->setWidth(width);
        bars->setBarsGroup(group);
        const float* probabilities = r.distribution(j, image);
        for (size_t i = 0; i < m_plottedClasses.size(); ++i) {
            bars->addData(double(i), probabilities[m_plottedClasses[i]]);
        }
    }
    QCPGraph* average = p->addGraph();
    average->setName(tr("mean pbar"));
    average->setLineStyle(QCPGraph::lsNone);
    average->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 1.5), QBrush(Qt::yellow), 10));
    for (size_t i = 0; i < m_plottedClasses.size(); ++i) {
        average->addData(double(i), mean[size_t(m_plottedClasses[i])]);
    }
    if (auto* title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0))) {
        title->setText(tr("Each particle's distribution, test image %1%2")
                           .arg(image)
                           .arg(r.classes > kMaxPlottedClasses ? tr(" (%1 most likely classes)").arg(m_plottedClasses.size())
                                                               : QString()));
    }
    p->requestReplot();

    const QImage picture = m_model->image(image);
    if (picture.isNull()) {
        m_detailImage->setText(tr("no image"));
    } else {
        m_detailImage->setPixmap(QPixmap::fromImage(
            picture.scaled(QSize(kDetailSide, kDetailSide), Qt::KeepAspectRatio, Qt::FastTransformation)));
    }
    QString tops;
    for (size_t j = 0; j < u.particleTop1.size(); ++j) {
        const bool right = u.particleTop1[j] == label;
        tops += tr("<br>particle %1: <span style='color:%2'>%3</span> (p = %4)")
                    .arg(j + 1)
                    .arg(right ? TileDelegate::correctColor().name() : TileDelegate::wrongColor().name())
                    .arg(m_data->className(u.particleTop1[j]).toHtmlEscaped())
                    .arg(u.particleTop1Probability[j], 0, 'f', 3);
    }
    m_detailText->setText(tr("<b>Test image %1</b>, true class <b>%2</b> (%3)<br>mutual information (epistemic): %4 nats"
                             "<br>vote disagreement: %5%<br>total entropy H(pbar): %6 nats, aleatoric: %7 nats"
                             "<br>decided (the run's rule): <b>%9</b>, loss -log pbar(true): %10 nats%8")
                              .arg(image)
                              .arg(m_data->className(label).toHtmlEscaped())
                              .arg(QString::fromStdString(lbd::regionName(m_data->classRegion[size_t(label)], lbd::RegionScheme::ThirdsByIndex)))
                              .arg(u.epistemic, 0, 'f', 4)
                              .arg(100.0 * u.voteDisagreement, 0, 'f', 0)
                              .arg(u.total, 0, 'f', 4)
                              .arg(u.aleatoric, 0, 'f', 4)
                              .arg(tops)
                              .arg(m_data->className(m_data->decided[size_t(image)]).toHtmlEscaped())
                              .arg(m_data->loss[size_t(image)], 0, 'f', 3));
    emit imageSelected(image);
}

} // namespace lbd::ui
