#pragma once
// The gallery's tiles: the filtered, sorted test images of one run. Rows are fetched
// kGalleryTilesPerFetch at a time as the view scrolls (canFetchMore / fetchMore), and images
// are made into QImages only when a tile is painted (TileDelegate), then cached.
#include <QAbstractListModel>
#include <QCache>
#include <QImage>

#include <cstdint>
#include <memory>
#include <vector>

#include "ui/gallery/gallerydata.h"

namespace lbd::ui {

class GalleryModel final : public QAbstractListModel {
public:
    static constexpr int kImageRole = Qt::UserRole + 1; // the test-image index (qint64)

    explicit GalleryModel(QObject* parent = nullptr);

    // Shows `order` (test-image indices) of `data`, the first kGalleryTilesPerFetch of them.
    void reset(std::shared_ptr<const GalleryData> data, std::vector<int64_t> order, GallerySortKey key);

    int rowCount(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    QVariant data(const QModelIndex& index, int role) const override;

    const GalleryData* galleryData() const { return m_data.get(); }
    GallerySortKey key() const { return m_key; }
    const std::vector<int64_t>& order() const { return m_order; }

    // The image of test image n, cached (decoding a streamed file costs milliseconds); a null
    // image when the data set could not be read.
    QImage image(int64_t n) const;

private:
    std::shared_ptr<const GalleryData> m_data;
    std::vector<int64_t> m_order;
    GallerySortKey m_key = GallerySortKey::MutualInformation;
    int m_fetched = 0;
    mutable QCache<qint64, QImage> m_images{1024};
};

} // namespace lbd::ui
