#include "ui/gallery/tiledelegate.h"

#include "ui/gallery/gallerymodel.h"
#include "ui/style/regioncolors.h"

#include <QPainter>

#include <algorithm>

namespace lbd::ui {

QSize TileDelegate::sizeHint(const QStyleOptionViewItem&, const QModelIndex&) const { return {kTileWidth, kTileHeight}; }

void TileDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
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

    // The particles' votes by class NAME, most votes first ("cat ×2", "dog"): a chip per class,
    // green when it is the true class; what does not fit ends elided.
    int x = tile.left() + 5;
    for (const GalleryVote& vote : galleryVotes(*data, n)) {
        const int room = tile.right() - 4 - x;
        if (room < metrics.horizontalAdvance(QStringLiteral("W\u2026")) + 8) {
            break;
        }
        const QString shown = metrics.elidedText(vote.text, Qt::ElideRight, room - 8);
        const QRect box(x, y, metrics.horizontalAdvance(shown) + 8, line + 2);
        painter->setPen(Qt::NoPen);
        painter->setBrush(vote.classIndex == label ? correctColor() : wrongColor());
        painter->drawRoundedRect(box, 3, 3);
        painter->setPen(Qt::white);
        painter->drawText(box, Qt::AlignCenter, shown);
        x = box.right() + 4;
    }
    y += line + 6;

    painter->setPen(option.palette.text().color());
    painter->drawText(QRect(tile.left() + 5, y, tile.width() - 10, line), Qt::AlignLeft | Qt::AlignVCenter,
                      QObject::tr("#%1  %2").arg(n).arg(galleryValueText(model->key(), *data, n)));
    painter->restore();
}

} // namespace lbd::ui
