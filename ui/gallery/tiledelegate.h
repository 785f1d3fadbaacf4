#pragma once
// Paints one gallery tile: the image scaled up without smoothing, the true class with its region
// colour, the particles' votes as one chip per class they chose, named, with its vote count (bluish
// green when right, vermillion when wrong: Okabe-Ito, told apart by colour-blind eyes too), and the
// value the tiles are sorted by. Reads everything from the GalleryModel it paints.
#include <QColor>
#include <QStyledItemDelegate>

namespace lbd::ui {

class TileDelegate final : public QStyledItemDelegate {
public:
    static constexpr int kImageSide = 96; // tile image, scaled up with nearest-neighbour
    static constexpr int kTileWidth = 148;
    static constexpr int kTileHeight = 168;

    // A particle's top-1 class when right / wrong (the gallery's detail text uses the same).
    static QColor correctColor() { return {0x00, 0x9e, 0x73}; } // Okabe-Ito bluish green
    static QColor wrongColor() { return {0xd5, 0x5e, 0x00}; }   // Okabe-Ito vermillion

    using QStyledItemDelegate::QStyledItemDelegate;

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace lbd::ui
