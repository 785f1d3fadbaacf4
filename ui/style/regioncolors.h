#pragma once
// One palette for head / medium / tail everywhere (charts, plots, bars), so a colour means the
// same region on every page.
#include <QColor>

#include "core/data/regions.h"

namespace lbd::ui {

inline QColor regionColor(lbd::Region region)
{
    switch (region) {
    case lbd::Region::Head: return QColor(0x2b, 0x6c, 0xb0);   // blue
    case lbd::Region::Medium: return QColor(0xe0, 0x8e, 0x1b); // amber
    case lbd::Region::Tail: return QColor(0xc0, 0x39, 0x2b);   // red
    }
    return Qt::gray;
}

inline QColor overallColor() { return QColor(0x22, 0x22, 0x22); }

} // namespace lbd::ui
