// The libjpeg-turbo decoder of builds without OpenCV (datasets/common/imagedecoder_libjpeg.cpp) and
// its resize (imageresize.cpp): known pixels back from JPEGs written at quality 100, exact resize
// values, bad input named, the read limits, and threads that change nothing.
#include "datasets/common/imagedecoder.h"
#include "datasets/common/imageresize.h"
#include "tests/jpeg/jpegtestfiles.h"
#include "tests/support/expect.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace lbd;
using test::difference;
using test::encodeJpeg;
using test::throwsInputError;
using test::writeBytes;

namespace {

// Four 32 x 32 quadrants: red, green, blue, white (64 x 64, interleaved RGB).
std::vector<uint8_t> quadrants()
{
    const uint8_t colours[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};
    std::vector<uint8_t> pixels(64 * 64 * 3);
    for (int y = 0; y < 64; ++y) {
        for (int x = 0; x < 64; ++x) {
            const auto* colour = colours[(y / 32) * 2 + x / 32];
            std::copy(colour, colour + 3, pixels.begin() + (y * 64 + x) * 3);
        }
    }
    return pixels;
}

std::vector<uint8_t> resized(const std::vector<uint8_t>& source, int height, int width, int channels, int toHeight, int toWidth)
{
    std::vector<uint8_t> out(size_t(channels) * toHeight * toWidth);
    resizeToPlanes(source.data(), height, width, channels, toHeight, toWidth, out.data());
    return out;
}

} // namespace

class TestLibjpegDecoder : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(jpegDecodingAvailable());
        QVERIFY(!imageDecodingAvailable()); // JPEG only
        QVERIFY(QString::fromStdString(imageDecoderName()).contains("JPEG only"));
    }

    void knownPixelsComeBackChannelMajor()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("quadrants.jpg").toStdString();
        writeBytes(path, encodeJpeg(quadrants(), 64, 64, 3));
        std::vector<uint8_t> rgb(3 * 64 * 64);
        decodeImageFile(path, {3, 64, 64}, rgb.data());
        // Channel-major: plane c, row y, column x. Quadrant centres are exact within JPEG's error.
        const auto at = [&](int c, int y, int x) { return int(rgb[size_t(c) * 4096 + y * 64 + x]); };
        const int expected[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};
        for (int q = 0; q < 4; ++q) {
            for (int c = 0; c < 3; ++c) {
                QVERIFY2(std::abs(at(c, 16 + 32 * (q / 2), 16 + 32 * (q % 2)) - expected[q][c]) <= 3, qPrintable(QString::number(q)));
            }
        }
        // Every pixel, edges included, within JPEG's error at quality 100 (4:4:4).
        std::vector<uint8_t> planes(3 * 64 * 64);
        const auto source = quadrants();
        for (size_t i = 0; i < 64 * 64; ++i) {
            for (size_t c = 0; c < 3; ++c) {
                planes[c * 4096 + i] = source[i * 3 + c];
            }
        }
        const auto [largest, mean] = difference(rgb, planes);
        QVERIFY2(largest <= 12 && mean < 1.0, qPrintable(QString("largest %1, mean %2").arg(largest).arg(mean)));
        // Grey: libjpeg's luma, 0.299 R + 0.587 G + 0.114 B.
        std::vector<uint8_t> grey(64 * 64);
        decodeImageFile(path, {1, 64, 64}, grey.data());
        QVERIFY(std::abs(int(grey[16 * 64 + 16]) - 76) <= 3);
        QVERIFY(std::abs(int(grey[16 * 64 + 48]) - 150) <= 3);
        QVERIFY(std::abs(int(grey[48 * 64 + 16]) - 29) <= 3);
        QVERIFY(std::abs(int(grey[48 * 64 + 48]) - 255) <= 3);
    }

    void greyAndCmykJpegs()
    {
        QTemporaryDir dir;
        const std::string greyPath = dir.filePath("grey.jpg").toStdString();
        writeBytes(greyPath, encodeJpeg(std::vector<uint8_t>(16 * 16, 200), 16, 16, 1));
        std::vector<uint8_t> rgb(3 * 8 * 8);
        decodeImageFile(greyPath, {3, 8, 8}, rgb.data());
        QCOMPARE(rgb, std::vector<uint8_t>(3 * 8 * 8, 200)); // the grey plane three times
        // Adobe CMYK (inverted inks): C = 255, K = 255, M = Y = 0 is red.
        const std::string cmykPath = dir.filePath("cmyk.jpg").toStdString();
        std::vector<uint8_t> cmyk(16 * 16 * 4);
        for (size_t i = 0; i < 16 * 16; ++i) {
            cmyk[i * 4] = 255;
            cmyk[i * 4 + 3] = 255;
        }
        writeBytes(cmykPath, encodeJpeg(cmyk, 16, 16, 4));
        decodeImageFile(cmykPath, {3, 8, 8}, rgb.data());
        QVERIFY(rgb[0] >= 250 && rgb[64] <= 5 && rgb[128] <= 5);
    }

    void resizeGivesExpectedValues()
    {
        // 64 x 48 constant colour -> 32 x 32: the colour, exactly.
        std::vector<uint8_t> constant(48 * 64 * 3);
        for (size_t i = 0; i < constant.size(); ++i) {
            constant[i] = uint8_t(10 * (1 + i % 3));
        }
        const auto planes = resized(constant, 48, 64, 3, 32, 32);
        for (size_t c = 0; c < 3; ++c) {
            QCOMPARE(std::count(planes.begin() + c * 1024, planes.begin() + (c + 1) * 1024, uint8_t(10 * (c + 1))), 1024);
        }
        // Horizontal gradient 4x, 64 x 48 -> 32 x 32: each output is the mean of two columns, 8x + 2.
        std::vector<uint8_t> gradient(48 * 64);
        for (int y = 0; y < 48; ++y) {
            for (int x = 0; x < 64; ++x) {
                gradient[y * 64 + x] = uint8_t(4 * x);
            }
        }
        const auto shrunk = resized(gradient, 48, 64, 1, 32, 32);
        for (int y = 0; y < 32; ++y) {
            for (int x = 0; x < 32; ++x) {
                QCOMPARE(int(shrunk[y * 32 + x]), 8 * x + 2);
            }
        }
        // Area weights of a non-integer shrink (3 -> 2) and bilinear growth (2 -> 4), as OpenCV's
        // INTER_AREA and INTER_LINEAR give them.
        QCOMPARE(resized({0, 90, 180}, 1, 3, 1, 1, 2), (std::vector<uint8_t>{30, 150}));
        QCOMPARE(resized({0, 100}, 1, 2, 1, 1, 4), (std::vector<uint8_t>{0, 25, 75, 100}));
        QCOMPARE(resized({0, 100}, 2, 1, 1, 4, 1), (std::vector<uint8_t>{0, 25, 75, 100}));
    }

    void dctScalingMatchesAFullDecode()
    {
        // 800 x 600 to 96 x 72 decodes at 1/8 scale (100 x 75); the result stays close to a full
        // decode resized by area.
        QTemporaryDir dir;
        const std::string path = dir.filePath("large.jpg").toStdString();
        writeBytes(path, encodeJpeg(test::smoothPicture(600, 800), 600, 800, 3, 95));
        std::vector<uint8_t> full(3 * 600 * 800);
        decodeImageFile(path, {3, 600, 800}, full.data());
        std::vector<uint8_t> interleaved(full.size());
        for (size_t i = 0; i < 600 * 800; ++i) {
            for (size_t c = 0; c < 3; ++c) {
                interleaved[i * 3 + c] = full[c * 480000 + i];
            }
        }
        const auto reference = resized(interleaved, 600, 800, 3, 72, 96);
        std::vector<uint8_t> scaled(3 * 72 * 96);
        decodeImageFile(path, {3, 72, 96}, scaled.data());
        const auto [largest, mean] = difference(scaled, reference);
        qInfo("1/8 DCT scale vs full decode + area resize: largest %d, mean %.2f", largest, mean);
        QVERIFY(mean < 2.0);
    }

    void badFilesAreNamed()
    {
        QTemporaryDir dir;
        std::vector<uint8_t> out(3 * 8 * 8);
        const std::string corrupt = dir.filePath("corrupt.jpg").toStdString();
        writeBytes(corrupt, {0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x03, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07});
        QVERIFY(throwsInputError([&] { decodeImageFile(corrupt, {3, 8, 8}, out.data()); }, {corrupt, "cannot decode JPEG"}));
        const auto whole = encodeJpeg(test::smoothPicture(64, 64), 64, 64, 3);
        const std::string truncated = dir.filePath("truncated.jpg").toStdString();
        writeBytes(truncated, std::vector<uint8_t>(whole.begin(), whole.begin() + long(whole.size() / 2)));
        QVERIFY(throwsInputError([&] { decodeImageFile(truncated, {3, 8, 8}, out.data()); }, {truncated, "Premature end"}));
        QVERIFY(throwsInputError([&] { decodeImageFile("/no/such.jpg", {3, 8, 8}, out.data()); }, {"/no/such.jpg", "not found"}));
        // A PNG header (8 x 8): refused before decoding, saying why.
        const std::string png = dir.filePath("image.png").toStdString();
        writeBytes(png, {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0, 8, 0, 0, 0, 8, 8, 2, 0, 0, 0});
        QVERIFY(throwsInputError([&] { decodeImageFile(png, {3, 8, 8}, out.data()); }, {png, "PNG", "JPEG only"}));
        const std::string text = dir.filePath("note.jpg").toStdString();
        writeBytes(text, {'h', 'e', 'l', 'l', 'o'});
        QVERIFY(throwsInputError([&] { decodeImageFile(text, {3, 8, 8}, out.data()); }, {text, "not a JPEG file", "JPEG only"}));
        QVERIFY(throwsInputError([&] { decodeImageBytes({}, "pasted image", {3, 8, 8}, out.data()); }, {"pasted image", "empty"}));
        QVERIFY(throwsInputError([&] { decodeImageBytes(whole, "pasted image", {2, 8, 8}, out.data()); }, {"pasted image", "channels"}));
        const std::vector<std::string> paths = {text, text};
        std::vector<uint8_t> two(2 * 3 * 8 * 8);
        QVERIFY(throwsInputError([&] { decodeImageFiles(paths, {3, 8, 8}, 2, two.data()); }, {text}));
    }

    void readLimitsRefuseBeforeDecoding()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("picture.jpg").toStdString();
        const auto bytes = encodeJpeg(test::smoothPicture(64, 64), 64, 64, 3);
        writeBytes(path, bytes);
        std::vector<uint8_t> out(3 * 8 * 8);
        ReadLimits small;
        small.maxImageFileBytes = 100;
        QVERIFY(throwsInputError([&] { decodeImageFile(path, {3, 8, 8}, out.data(), small); }, {path, "maxImageFileBytes"}));
        QVERIFY(throwsInputError([&] { decodeImageBytes(bytes, "dropped", {3, 8, 8}, out.data(), small); }, {"dropped", "maxImageFileBytes"}));
        ReadLimits few;
        few.maxImagePixels = 64 * 63;
        QVERIFY(throwsInputError([&] { decodeImageFile(path, {3, 8, 8}, out.data(), few); }, {path, "64 x 64", "maxImagePixels"}));
        few.maxImagePixels = 64 * 64;
        decodeImageFile(path, {3, 8, 8}, out.data(), few);
    }

    void threadsGiveTheSameBytes()
    {
        QTemporaryDir dir;
        std::vector<std::string> paths;
        for (int i = 0; i < 7; ++i) {
            paths.push_back(dir.filePath(QString("image-%1.jpg").arg(i)).toStdString());
            writeBytes(paths.back(), encodeJpeg(test::smoothPicture(40 + 8 * i, 60 + 4 * i), 40 + 8 * i, 60 + 4 * i, 3, 90));
        }
        const ImageFormat format{3, 24, 32};
        std::vector<uint8_t> one(paths.size() * format.bytesPerImage());
        std::vector<uint8_t> two(one.size());
        decodeImageFiles(paths, format, 1, one.data());
        decodeImageFiles(paths, format, 2, two.data());
        QCOMPARE(two, one);
        std::vector<uint8_t> single(format.bytesPerImage());
        decodeImageFile(paths[3], format, single.data());
        QVERIFY(std::equal(single.begin(), single.end(), one.begin() + 3 * format.bytesPerImage()));
    }

    void writtenJpegsDecodeBackAndPngIsRefused()
    {
        QTemporaryDir dir;
        const ImageFormat format{3, 16, 24};
        std::vector<uint8_t> pixels(format.bytesPerImage());
        for (size_t i = 0; i < pixels.size(); ++i) {
            pixels[i] = uint8_t(40 + 60 * (i / 384)); // plane c holds 40 + 60c
        }
        const std::string path = dir.filePath("written.JPG").toStdString();
        writeImageFile(path, pixels.data(), format);
        std::vector<uint8_t> decoded(pixels.size());
        decodeImageFile(path, format, decoded.data());
        QVERIFY(difference(decoded, pixels).first <= 3);
        const std::string png = dir.filePath("written.png").toStdString();
        QVERIFY(throwsInputError([&] { writeImageFile(png, pixels.data(), format); }, {png, "JPEG only"}));
    }
};

QTEST_APPLESS_MAIN(TestLibjpegDecoder)
#include "test_libjpegdecoder.moc"
