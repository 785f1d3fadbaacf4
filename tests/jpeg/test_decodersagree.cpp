// The libjpeg-turbo decoder against the OpenCV decoder (compiled next to it, see CMakeLists.txt) on
// the same JPEG files: the same size, shrunk (with and without DCT scaling), grown, RGB and grey.
// They differ by design only where libjpeg-turbo's DCT scaling replaces part of the area resize of a
// full decode, so pixels are compared within a small tolerance there and to the byte elsewhere.
#include "datasets/common/imagedecoder.h"
#include "tests/jpeg/jpegtestfiles.h"
#include "tests/jpeg/opencvreference.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace lbd;

namespace {

// Like a photograph: smooth colour waves with mild noise (height x width x 3, interleaved).
std::vector<uint8_t> photographLike(int height, int width)
{
    std::vector<uint8_t> pixels(size_t(height) * width * 3);
    uint32_t state = 12345;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            for (int c = 0; c < 3; ++c) {
                state = state * 1664525u + 1013904223u;
                const double noise = double(state >> 24) / 255.0 - 0.5;
                const double wave = std::sin((c + 2) * 0.021 * x + c) * std::cos((c + 1) * 0.017 * y);
                pixels[(size_t(y) * width + x) * 3 + c] = uint8_t(std::lround(std::clamp(128 + 90 * wave + 12 * noise, 0.0, 255.0)));
            }
        }
    }
    return pixels;
}

} // namespace

class TestDecodersAgree : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        qInfo("comparing %s with %s", imageDecoderName().c_str(), opencvreference::decoderName().c_str());
        QVERIFY(QString::fromStdString(opencvreference::decoderName()).startsWith("OpenCV"));
    }

    void sameFileSamePixels_data()
    {
        QTest::addColumn<bool>("hardEdges");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("largest");
        QTest::addColumn<double>("mean");
        // Without DCT scaling the two agree to the byte (same libjpeg-turbo, same area / bilinear
        // weights). With it, a scaled pixel stands for the mean of its 2 x 2 .. 8 x 8 block, so an
        // output pixel whose area cuts a block takes the block's mean for the part it covers: a few
        // levels, most at 1/8 (measured here: largest 2 / 2 / 7, mean 0.32 / 0.28 / 1.17).
        QTest::newRow("same size") << false << 3 << 375 << 500 << 0 << 0.0;
        QTest::newRow("224, no DCT scale") << false << 3 << 224 << 224 << 0 << 0.0;
        QTest::newRow("112, DCT 1/2") << false << 3 << 112 << 112 << 4 << 0.5;
        QTest::newRow("grey 64, DCT 1/4") << false << 1 << 64 << 64 << 4 << 0.5;
        QTest::newRow("32, DCT 1/8") << false << 3 << 32 << 32 << 10 << 1.5;
        QTest::newRow("grown 600 x 800") << false << 3 << 600 << 800 << 1 << 0.25;
        // A sawtooth with 200-level jumps every 16 pixels: the hard case for DCT scaling.
        QTest::newRow("hard edges, 224") << true << 3 << 224 << 224 << 0 << 0.0;
        QTest::newRow("hard edges, 112, DCT 1/2") << true << 3 << 112 << 112 << 6 << 0.5;
        QTest::newRow("hard edges, 32, DCT 1/8") << true << 3 << 32 << 32 << 10 << 1.5;
    }

    void sameFileSamePixels()
    {
        QFETCH(bool, hardEdges);
        QFETCH(int, channels);
        QFETCH(int, height);
        QFETCH(int, width);
        QFETCH(int, largest);
        QFETCH(double, mean);
        QTemporaryDir dir;
        const std::string path = dir.filePath("photo.jpg").toStdString();
        test::writeBytes(path, test::encodeJpeg(hardEdges ? test::smoothPicture(375, 500) : photographLike(375, 500), 375, 500, 3, 90));
        const auto reference = opencvreference::decode(path, channels, height, width);
        std::vector<uint8_t> ours(reference.size());
        decodeImageFile(path, {channels, height, width}, ours.data());
        const auto [worst, average] = test::difference(ours, reference);
        qInfo("%d x %d x %d: largest difference %d, mean %.3f", channels, height, width, worst, average);
        QVERIFY2(worst <= largest && average <= mean, qPrintable(QString("largest %1, mean %2").arg(worst).arg(average)));
    }
};

QTEST_APPLESS_MAIN(TestDecodersAgree)
#include "test_decodersagree.moc"
