#pragma once
// The decoder-rules fixtures (tests/datasets/fixtures/make_decoder_fixtures.py), written at test
// time with Debian's Python and PIL into a folder, and what the rules say their pixels must be,
// worked out by hand from datasets/common/decoderules.h. Shared by the OpenCV decoder's test
// (tests/datasets/test_decoderules.cpp) and the libjpeg-turbo decoder's (tests/jpeg/).
#include <QProcess>
#include <QString>

#include <cstdint>
#include <vector>

namespace lbd::test {

// Runs the script into `dir`; false (with the script's output in `why`) when it fails.
inline bool makeDecoderFixtures(const QString& sourceDir, const QString& dir, QString& why)
{
    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"),
                 {sourceDir + QStringLiteral("/tests/datasets/fixtures/make_decoder_fixtures.py"), dir});
    if (!python.waitForFinished(120000) || python.exitCode() != 0) {
        why = QString::fromUtf8(python.readAllStandardError() + python.readAllStandardOutput());
        return false;
    }
    return true;
}

// exif-N.jpg shown upright is 96 x 48: red where x < 32 and y < 24, green where x >= 64 and
// y >= 24, blue elsewhere. Points well inside each region, and points that a transpose or mirror
// in place of the right turn would colour otherwise.
struct ExpectedColour {
    int x;
    int y;
    int colour; // 0 red, 1 green, 2 blue: that channel above 200, the others below 60
};
inline const std::vector<ExpectedColour>& uprightColours()
{
    static const std::vector<ExpectedColour> points = {{16, 12, 0}, {80, 36, 1}, {80, 12, 2}, {16, 36, 2},
                                                       {16, 20, 0}, {40, 12, 2}, {28, 4, 0},  {68, 44, 1}};
    return points;
}

// cmyk.jpg: (C, M, Y, K) = (50, 100, 150, 40) everywhere -> r = (255 - C)(255 - K) / 255 rounded.
inline constexpr uint8_t kCmykRgb[3] = {173, 131, 89};

} // namespace lbd::test
