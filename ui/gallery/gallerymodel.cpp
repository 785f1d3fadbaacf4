#include "ui/gallery/gallerymodel.h"

#include <QStringList>

#include <algorithm>
#include <exception>

namespace lbd::ui {

GalleryModel::GalleryModel(QObject* parent) : QAbstractListModel(parent) {}

void GalleryModel::reset(std::shared_ptr<const GalleryData> data, std::vector<int64_t> order, GallerySortKey key)
{
    beginResetModel();
    if (data != m_data) {
        m_images.clear();
    }
    m_data = std::move(data);
    m_order = std::move(order);
    m_key = key;
    m_fetched = std::min<int>(kGalleryTilesPerFetch, int(m_order.size()));
    endResetModel();
}

int GalleryModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_fetched; }

bool GalleryModel::canFetchMore(const QModelIndex& parent) const
{
    return !parent.isValid() && m_fetched < int(m_order.size());
}

void GalleryModel::fetchMore(const QModelIndex& parent)
{
    if (parent.isValid()) {
        return;
    }
    const int more = std::min<int>(kGalleryTilesPerFetch, int(m_order.size()) - m_fetched);
    if (more <= 0) {
        return;
    }
    beginInsertRows({}, m_fetched, m_fetched + more - 1);
    m_fetched += more;
    endInsertRows();
}

QVariant GalleryModel::data(const QModelIndex& index, int role) const
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

QImage GalleryModel::image(int64_t n) const
{
    if (!m_data || !m_data->images) {
        return {};
    }
    if (const QImage* cached = m_images.object(n)) {
        return *cached;
    }
    QImage image;
    try {
        image = galleryImage(*m_data->images, n);
    } catch (const std::exception&) {
        return {}; // an undecodable file shows as "no image"; the error names it in the detail
    }
    m_images.insert(n, new QImage(image));
    return image;
}

} // namespace lbd::ui
