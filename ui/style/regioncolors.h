#pragma once
// One palette for head / medium / tail everywhere (charts, plots, bars), so a colour means the
// same region on every page. Okabe-Ito colours (Okabe & Ito 2008, "Color Universal Design"):
// blue / orange / vermillion stay apart for the common colour-vision deficiencies (the earlier
// blue / amber / red and the red / green of right / wrong did not), and differ in lightness too.
#include <QColor>
#include <QGuiApplication>
#include <QPalette>

#include "core/data/regions.h"

namespace lbd::ui {

inline QColor regionColor(lbd::Region region)
{
    switch (region) {
    case lbd::Region::Head: return QColor(0x00, 0x72, 0xb2);   // Okabe-Ito blue
    case lbd::Region::Medium: return QColor(0xe6, 0x9f, 0x00); // Okabe-Ito orange
    case lbd::Region::Tail: return QColor(0xd5, 0x5e, 0x00);   // Okabe-Ito vermillion
    }
    return Qt::gray;
}

// "All classes" in the window's text colour: black on a light theme, light on a dark one.
inline QColor overallColor() { return QGuiApplication::palette().color(QPalette::Text); }

} // namespace lbd::ui
