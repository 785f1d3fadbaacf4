#pragma once
// One palette for numbered series (particle j, run i) everywhere, so that "particle 1" has the
// same colour on the Classify page and in the Gallery. Ten well-separated colours (matplotlib's
// tab10), repeating after ten.
#include <QColor>

namespace lbd::ui {

inline QColor seriesColor(int index)
{
    static const QColor palette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                                     QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                     QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
                                     QColor(0x17, 0xbe, 0xcf)};
    return palette[(index % 10 + 10) % 10];
}

} // namespace lbd::ui
