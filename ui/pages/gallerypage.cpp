#include "ui/pages/gallerypage.h"
#include "ui/seriescolors.h"

#include "core/data/regions.h"
#include "core/infer/runresults.h"

#include "ui/regioncolors.h"
#include "ui/widgets/throttledplot.h"

#include <QAbstractListModel>
#include <QCache>
#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QListView>
#include <QPainter>
#include <QPixmap>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>
#include <numeric>

namespace lbd::ui {

// Everything the gallery shows, computed once per run off the GUI thread and then only read.
struct GalleryData {
    std::shared_ptr<const lbd::RunResults> results;
    std::vector<lbd::ImageUncertainty> uncertainty; // per test image
    std::vector<int64_t> byInformation;             // image indices, mutual information decreasing
    std::vector<int64_t> byVotes;                   // vote disagreement decreasing (ties: MI decreasing)
    std::vector<lbd::Region> classRegion;           // thirds by class index
    std::shared_ptr<const lbd::TestImages> images;  // null when the data set could not be read
    QString imageError;

    QString className(int64_t c) const
    {
        return c >= 0 && c < results->classes ? QString::fromStdString(results->classNames[size_t(c)])
                                              : QString::number(c);
    }
};

namespace {

constexpr int kImageSide = 96;    // tile image, scaled up with nearest-neighbour
constexpr int kTileWidth = 148;
constexpr int kTileHeight = 168;
constexpr int kDetailSide = 192;
constexpr int kMaxPlottedClasses = 12;

const QColor kCorrect(0x2e, 0x7d, 0x32);
const QColor kWrong(0xc6, 0x28, 0x28);

// Throws (lbd::InputError naming the file) when the run's results cannot be read.
std::shared_ptr<const GalleryData> loadGallery(const std::string& directory)
{
    auto data = std::make_shared<GalleryData>();
    {
        auto results = std::make_shared<const lbd::RunResults>(lbd::loadRunResults(directory));
        data->results = results;
        data->uncertainty = lbd::imageUncertainties(*results);
        const auto& u = data->uncertainty;
        std::vector<int64_t> order(u.size());
        std::iota(order.begin(), order.end(), int64_t(0));
        data->byInformation = order;
        std::stable_sort(data->byInformation.begin(), data->byInformation.end(),
                         [&u](int64_t a, int64_t b) { return u[size_t(a)].epistemic > u[size_t(b)].epistemic; });
        // Vote disagreement takes few values (M + 1 at most): break its ties by mutual information.
        data->byVotes = data->byInformation;
        std::stable_sort(data->byVotes.begin(), data->byVotes.end(), [&u](int64_t a, int64_t b) {
            return u[size_t(a)].voteDisagreement > u[size_t(b)].voteDisagreement;
        });
        data->classRegion = lbd::classRegions(results->trainCounts, lbd::RegionScheme::ThirdsByIndex);
        try {
            data->images = std::make_shared<const lbd::TestImages>(lbd::loadTestImages(*results));
        } catch (const std::exception& error) {
            data->imageError = QString::fromUtf8(error.what());
        }
    }
    return data;
}

QImage toImage(const lbd::TestImages& images, int64_t n)
{
    const std::vector<uint8_t> pixels = lbd::testImagePixels(images, n);
    const int w = int(images.width);
    const int h = int(images.height);
    const int c = int(images.channels);
    const QImage view(pixels.data(), w, h, w * c, c == 1 ? QImage::Format_Grayscale8 : QImage::Format_RGB888);
    return view.copy(); // own the pixels
}

QString valueText(GalleryPage::SortKey key, const lbd::ImageUncertainty& u)
{
    return key == GalleryPage::SortKey::MutualInformation
               ? QObject::tr("MI %1 nats").arg(u.epistemic, 0, 'f', 3)
               : QObject::tr("votes %1% apart").arg(100.0 * u.voteDisagreement, 0, 'f', 0);
}

} // namespace

// The tiles of the filtered, sorted images; rows are fetched kTilesPerFetch at a time as the
// view scrolls (canFetchMore / fetchMore), and images are made into QImages only when painted.
class GalleryModel final : public QAbstractListModel {
public:
    static constexpr int kImageRole = Qt::UserRole + 1;

    explicit GalleryModel(QObject* parent) : QAbstractListModel(parent) {}

    void reset(std::shared_ptr<const GalleryData> data, std::vector<int64_t> order, GalleryPage::SortKey key)
    {
        beginResetModel();
        if (data != m_data) {
            m_images.clear();
        }
        m_data = std::move(data);
        m_order = std::move(order);
        m_key = key;
        m_fetched = std::min<int>(GalleryPage::kTilesPerFetch, int(m_order.size()));
        endResetModel();
    }

    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : m_fetched; }
    bool canFetchMore(const QModelIndex& parent) const override
    {
        return !parent.isValid() && m_fetched < int(m_order.size());
    }
    void fetchMore(const QModelIndex& parent) override
    {
        if (parent.isValid()) {
            return;
        }
        const int more = std::min<int>(GalleryPage::kTilesPerFetch, int(m_order.size()) - m_fetched);
        if (more <= 0) {
            return;
        }
        beginInsertRows({}, m_fetched, m_fetched + more - 1);
        m_fetched += more;
        endInsertRows();
    }

    QVariant data(const QModelIndex& index, int role) const override
    {
        if (!index.isValid() || index.row() >= m_fetched || !m_data) {
            return {};
        }
        const int64_t image = m_order[size_t(index.row())];
        const lbd::ImageUncertainty& u = m_data->uncertainty[size_t(image)];
        switch (role) {
        case kImageRole: return QVariant::fromValue<qint64>(image);
        case Qt::DisplayRole: return tr("test image %1").arg(image);
        case Qt::ToolTipRole: {
            const int64_t label = m_data->results->labels[size_t(image)];
            QStringList tops;
            for (size_t j = 0; j < u.particleTop1.size(); ++j) {
                tops << tr("particle %1: %2 (p = %3)")
                            .arg(j + 1)
                            .arg(m_data->className(u.particleTop1[j]))
                            .arg(u.particleTop1Probability[j], 0, 'f', 3);
            }
            return tr("Test image %1, true class %2\nmutual information (epistemic) %3 nats, vote disagreement %4%,\n"
                      "total entropy %5 nats, aleatoric %6 nats\n%7\nClick to plot each particle's distribution.")
                .arg(image)
                .arg(m_data->className(label))
                .arg(u.epistemic, 0, 'f', 4)
                .arg(100.0 * u.voteDisagreement, 0, 'f', 0)
                .arg(u.total, 0, 'f', 4)
                .arg(u.aleatoric, 0, 'f', 4)
                .arg(tops.join(QLatin1Char('\n')));
        }
        default: return {};
        }
    }

    const GalleryData* galleryData() const { return m_data.get(); }
    GalleryPage::SortKey key() const { return m_key; }
    const std::vector<int64_t>& order() const { return m_order; }

    // The image of test image n, cached (decoding a streamed file costs milliseconds); a null
    // image when the data set could not be read.
    QImage image(int64_t n) const
    {
        if (!m_data || !m_data->images) {
            return {};
        }
        if (const QImage* cached = m_images.object(n)) {
            return *cached;
        }
        QImage image;
        try {
            image = toImage(*m_data->images, n);
        } catch (const std::exception&) {
            return {}; // an undecodable file shows as "no image"; the error names it in the detail
        }
        m_images.insert(n, new QImage(image));
        return image;
    }

private:
    std::shared_ptr<const GalleryData> m_data;
    std::vector<int64_t> m_order;
    GalleryPage::SortKey m_key = GalleryPage::SortKey::MutualInformation;
    int m_fetched = 0;
    mutable QCache<qint64, QImage> m_images{1024};
};

namespace {

// Paints one tile: the image scaled up without smoothing, the true class with its region colour,
// one chip per particle with its top-1 class (green when right, red when wrong), and the value.
class TileDelegate final : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QSize sizeHint(const QStyleOptionViewItem&, const QModelIndex&) const override { return {kTileWidth, kTileHeight}; }

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        const auto* model = static_cast<const GalleryModel*>(index.model());
        const GalleryData* data = model->galleryData();
        if (data == nullptr) {
            return;
        }
        const int64_t n = index.data(GalleryModel::kImageRole).toLongLong();
        const lbd::ImageUncertainty& u = data->uncertainty[size_t(n)];
        const int64_t label = data->results->labels[size_t(n)];
        painter->save();
        const QRect tile = option.rect.adjusted(3, 3, -3, -3);
        const bool selected = option.state & QStyle::State_Selected;
        painter->setPen(QPen(selected ? option.palette.highlight().color() : QColor(200, 200, 200), selected ? 3 : 1));
        painter->setBrush(option.palette.base());
        painter->drawRect(tile);

        // Image, nearest-neighbour, aspect kept.
        const QRect imageBox(tile.left() + (tile.width() - kImageSide) / 2, tile.top() + 4, kImageSide, kImageSide);
        const QImage image = model->image(n);
        if (!image.isNull()) {
            const QSize scaled = image.size().scaled(imageBox.size(), Qt::KeepAspectRatio);
            const QRect target(imageBox.left() + (imageBox.width() - scaled.width()) / 2,
                               imageBox.top() + (imageBox.height() - scaled.height()) / 2, scaled.width(), scaled.height());
            painter->setRenderHint(QPainter::SmoothPixmapTransform, false);
            painter->drawImage(target, image);
        } else {
            painter->setPen(Qt::gray);
            painter->drawRect(imageBox);
            painter->drawText(imageBox, Qt::AlignCenter, QObject::tr("no image"));
        }

        QFont font = option.font;
        font.setPointSizeF(font.pointSizeF() * 0.85);
        painter->setFont(font);
        const QFontMetrics metrics(font);
        const int line = metrics.height();
        int y = imageBox.bottom() + 4;

        // True class, with its region's colour.
        const QColor region = regionColor(data->classRegion[size_t(label)]);
        painter->setPen(Qt::NoPen);
        painter->setBrush(region);
        painter->drawRect(QRect(tile.left() + 5, y + line / 2 - 4, 8, 8));
        painter->setPen(option.palette.text().color());
        painter->drawText(QRect(tile.left() + 17, y, tile.width() - 20, line), Qt::AlignLeft | Qt::AlignVCenter,
                          metrics.elidedText(QObject::tr("true: %1").arg(data->className(label)), Qt::ElideRight,
                                             tile.width() - 20));
        y += line + 2;

        // One chip per particle: its top-1 class index.
        const int count = int(u.particleTop1.size());
        const int available = tile.width() - 10;
        const int chip = std::max(6, std::min(26, available / std::max(1, count)));
        for (int j = 0; j < count; ++j) {
            const QRect box(tile.left() + 5 + j * chip, y, chip - 2, line + 2);
            if (box.right() > tile.right() - 4) {
                break;
            }
            const bool right = u.particleTop1[size_t(j)] == label;
            painter->setPen(Qt::NoPen);
            painter->setBrush(right ? kCorrect : kWrong);
            painter->drawRoundedRect(box, 3, 3);
            if (chip >= 14) {
                painter->setPen(Qt::white);
                painter->drawText(box, Qt::AlignCenter, QString::number(u.particleTop1[size_t(j)]));
            }
        }
        y += line + 6;

        painter->setPen(option.palette.text().color());
        painter->drawText(QRect(tile.left() + 5, y, tile.width() - 10, line), Qt::AlignLeft | Qt::AlignVCenter,
                          QObject::tr("#%1  %2").arg(n).arg(valueText(model->key(), u)));
        painter->restore();
    }
};

} // namespace

GalleryPage::GalleryPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("galleryPage"));

    m_sort = new QComboBox(this);
    m_sort->setObjectName(QStringLiteral("gallerySort"));
    m_sort->addItem(tr("mutual information (epistemic)"), int(SortKey::MutualInformation));
    m_sort->addItem(tr("vote disagreement (choice)"), int(SortKey::VoteDisagreement));
    m_sort->setToolTip(tr("Order of the tiles, largest first.\nMutual information = H(pbar) - (1/M) sum_j H(p_j): how "
                          "much the particles' distributions differ (epistemic uncertainty, nats).\nVote disagreement = "
                          "1 - (largest number of particles agreeing on the top-1 class) / M."));
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

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Sort by:"), this));
    controls->addWidget(m_sort);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Class:"), this));
    controls->addWidget(m_classFilter);
    controls->addWidget(new QLabel(tr("Region:"), this));
    controls->addWidget(m_regionFilter);
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

    auto* empty = new QLabel(tr("<h3>No run yet</h3><p>Train a run or open one (File &gt; Open run...). The gallery "
                                "shows its test images with the most disagreement between particles first.</p>"),
                             this);
    empty->setObjectName(QStringLiteral("galleryEmptyState"));
    empty->setAlignment(Qt::AlignCenter);
    empty->setWordWrap(true);

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(empty);
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
    const std::string path = directory.toStdString();
    m_load.start([path] { return loadGallery(path); },
                 [this](std::shared_ptr<const GalleryData> data) { onLoaded(std::move(data)); },
                 [this](const QString& error) { onLoadFailed(error); });
}

void GalleryPage::onLoadFailed(const QString& error)
{
    m_runLabel->setText(tr("Run: %1").arg(QDir::toNativeSeparators(m_directory)));
    m_data.reset();
    m_model->reset(nullptr, {}, sortKey());
    m_stack->setCurrentIndex(0);
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
    applyFilters();
    emit loaded();
}

void GalleryPage::setSortKey(SortKey key) { m_sort->setCurrentIndex(m_sort->findData(int(key))); }

GalleryPage::SortKey GalleryPage::sortKey() const { return static_cast<SortKey>(m_sort->currentData().toInt()); }

void GalleryPage::setClassFilter(int classIndex) { m_classFilter->setCurrentIndex(std::max(0, m_classFilter->findData(classIndex))); }

void GalleryPage::setRegionFilter(int region) { m_regionFilter->setCurrentIndex(std::max(0, m_regionFilter->findData(region))); }

void GalleryPage::applyFilters()
{
    if (!m_data) {
        return;
    }
    const SortKey key = sortKey();
    const int classIndex = m_classFilter->currentData().toInt();
    const int region = m_regionFilter->currentData().toInt();
    const std::vector<int64_t>& sorted = key == SortKey::MutualInformation ? m_data->byInformation : m_data->byVotes;
    std::vector<int64_t> order;
    order.reserve(sorted.size());
    for (int64_t n : sorted) {
        const int64_t label = m_data->results->labels[size_t(n)];
        if ((classIndex < 0 || label == classIndex)
            && (region < 0 || static_cast<int>(m_data->classRegion[size_t(label)]) == region)) {
            order.push_back(n);
        }
    }
    m_model->reset(m_data, std::move(order), key);
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
    const lbd::ImageUncertainty& u = m_data->uncertainty[size_t(image)];
    return sortKey() == SortKey::MutualInformation ? u.epistemic : u.voteDisagreement;
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
                    .arg(right ? kCorrect.name() : kWrong.name())
                    .arg(m_data->className(u.particleTop1[j]).toHtmlEscaped())
                    .arg(u.particleTop1Probability[j], 0, 'f', 3);
    }
    m_detailText->setText(tr("<b>Test image %1</b>, true class <b>%2</b> (%3)<br>mutual information (epistemic): %4 nats"
                             "<br>vote disagreement: %5%<br>total entropy H(pbar): %6 nats, aleatoric: %7 nats%8")
                              .arg(image)
                              .arg(m_data->className(label).toHtmlEscaped())
                              .arg(QString::fromStdString(lbd::regionName(m_data->classRegion[size_t(label)], lbd::RegionScheme::ThirdsByIndex)))
                              .arg(u.epistemic, 0, 'f', 4)
                              .arg(100.0 * u.voteDisagreement, 0, 'f', 0)
                              .arg(u.total, 0, 'f', 4)
                              .arg(u.aleatoric, 0, 'f', 4)
                              .arg(tops));
    emit imageSelected(image);
}

} // namespace lbd::ui
