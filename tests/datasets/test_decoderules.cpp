// Images decoded as a person sees them (datasets/common/decoderules.h) by this build's decoder
// (OpenCV here; tests/jpeg/test_libjpegrules.cpp checks the libjpeg-turbo one on the JPEGs): alpha
// composited on the background (RGBA, grey+alpha, palette with tRNS), 16-bit PNGs scaled with
// rounding, EXIF orientation applied, CMYK converted, grey kept grey. Every expected pixel is worked
// out by hand from the rules; the files are written at test time with PIL
// (tests/datasets/fixtures/make_decoder_fixtures.py).
#include "datasets/common/decoderules.h"
#include "datasets/common/error.h"
#include "datasets/common/imagedecoder.h"
#include "datasets/common/imagefiles.h"
#include "tests/datasets/decoderfixtures.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace lbd;

namespace {

using Bytes = std::vector<uint8_t>;

} // namespace

class TestDecodeRules : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string file(const char* name) const { return (m_dir.path() + "/" + name).toStdString(); }

    Bytes decode(const char* name, ImageFormat format, DecodedImageInfo* info = nullptr) const
    {
        Bytes out(static_cast<size_t>(format.bytesPerImage()));
        decodeImageFile(file(name), format, out.data(), {}, info);
        return out;
    }

    static Bytes plane(const Bytes& image, int c, size_t size) { return Bytes(image.begin() + c * size, image.begin() + (c + 1) * size); }

private slots:
    void initTestCase()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("this build decodes JPEG only (tests/jpeg/ checks it)");
        }
        QString why;
        QVERIFY2(test::makeDecoderFixtures(LBD_SOURCE_DIR, m_dir.path(), why), qPrintable(why));
    }

    void samplesFollowTheTable()
    {
        QCOMPARE(int(eightBitSample(65535)), 255);
        QCOMPARE(int(eightBitSample(25828)), 100); // 100.498: rounded down
        QCOMPARE(int(eightBitSample(1000)), 4);    // 3.89: truncation would give 3
        QCOMPARE(int(eightBitSample(32896)), 128);
        QCOMPARE(int(compositedSample(0, 128, 255)), 127);   // (0 + 255 * 127) / 255 = 127
        QCOMPARE(int(compositedSample(200, 64, 255)), 241);  // (12800 + 48705) / 255 = 241.2
        QCOMPARE(int(compositedSample(10, 0, 33)), 33);      // transparent: the background
        QCOMPARE(int(greyOf(255, 0, 0)), 76);                // 0.299 * 255 = 76.2
    }

    void backgroundsParseAndName()
    {
        QCOMPARE(parseAlphaBackground("white"), kWhiteBackground);
        QCOMPARE(parseAlphaBackground("Black"), (AlphaBackground{0, 0, 0}));
        QCOMPARE(parseAlphaBackground("#102030"), (AlphaBackground{16, 32, 48}));
        QCOMPARE(alphaBackgroundName({16, 32, 48}), std::string("#102030"));
        QCOMPARE(alphaBackgroundName(kWhiteBackground), std::string("white"));
        QVERIFY_THROWS_EXCEPTION(InputError, parseAlphaBackground("pink"));
    }

    void rgbaIsCompositedOnWhite()
    {
        DecodedImageInfo info;
        const Bytes image = decode("rgba.png", {3, 2, 2}, &info);
        // Pixels: opaque red; transparent black -> white; black at alpha 128 -> (255 * 127) / 255
        // = 127; (10, 200, 30) at alpha 64 -> (10 * 64 + 255 * 191) / 255 = 194.0, 241.7, 199.0.
        QCOMPARE(plane(image, 0, 4), (Bytes{255, 255, 127, 194}));
        QCOMPARE(plane(image, 1, 4), (Bytes{0, 255, 127, 241}));
        QCOMPARE(plane(image, 2, 4), (Bytes{0, 255, 127, 199}));
        QCOMPARE(info.facts.kind, std::string("RGBA"));
        QCOMPARE(info.format, std::string("PNG"));
        QVERIFY(info.applied.composited);
    }

    void rgbaOnAnotherBackground()
    {
        ImageFormat format{3, 2, 2};
        format.background = {0, 0, 0};
        const Bytes image = decode("rgba.png", format);
        // On black: (10 * 64 + 127) / 255 = 3, (200 * 64) / 255 = 50.2, (30 * 64) / 255 = 7.5 -> 8.
        QCOMPARE(plane(image, 0, 4), (Bytes{255, 0, 0, 3}));
        QCOMPARE(plane(image, 1, 4), (Bytes{0, 0, 0, 50}));
        QCOMPARE(plane(image, 2, 4), (Bytes{0, 0, 0, 8}));
    }

    void greyAlphaStaysGrey()
    {
        DecodedImageInfo info;
        // (0, 255) -> 0; (0, 0) -> 255; (100, 128) -> (12800 + 32385) / 255 = 177.2; (200, 10) ->
        // (2000 + 62475) / 255 = 252.8 -> 253.
        QCOMPARE(decode("grey-alpha.png", {1, 2, 2}, &info), (Bytes{0, 255, 177, 253}));
        QCOMPARE(info.facts.kind, std::string("grey+alpha"));
        const Bytes colour = decode("grey-alpha.png", {3, 2, 2});
        QCOMPARE(plane(colour, 0, 4), (Bytes{0, 255, 177, 253}));
        QCOMPARE(plane(colour, 1, 4), plane(colour, 0, 4));
        QCOMPARE(plane(colour, 2, 4), plane(colour, 0, 4));
        const std::vector<std::string> greyAlpha{file("grey-alpha.png")};
        QCOMPARE(channelsOfImages(greyAlpha, {}), int64_t(1));
        QCOMPARE(channelsOfImages({file("rgba.png")}, {}), int64_t(3));
    }

    void paletteTransparencyIsComposited()
    {
        DecodedImageInfo info;
        const Bytes image = decode("palette-trns.png", {3, 2, 2}, &info);
        // Red (alpha 255), blue at 128 -> (127, 127, 255), black at 0 -> white, blue at 128.
        QCOMPARE(plane(image, 0, 4), (Bytes{255, 127, 255, 127}));
        QCOMPARE(plane(image, 1, 4), (Bytes{0, 127, 255, 127}));
        QCOMPARE(plane(image, 2, 4), (Bytes{0, 255, 255, 255}));
        QCOMPARE(info.facts.kind, std::string("palette with transparency"));
        QVERIFY(info.applied.composited);
    }

    void sixteenBitIsRounded()
    {
        DecodedImageInfo info;
        QCOMPARE(decode("grey16.png", {1, 2, 2}, &info), (Bytes{0, 255, 100, 4}));
        QCOMPARE(info.facts.bitDepth, 16);
        QVERIFY(info.applied.scaledFrom16Bit);
    }

    void anAlphaOnlyIconIsNotAConstantImage()
    {
        // RGB all 0, the disc in alpha: once a black square, now a black disc on white.
        for (const int64_t channels : {int64_t(1), int64_t(3)}) {
            const Bytes image = decode("icon.png", {channels, 32, 32});
            QCOMPARE(int(image[16 * 32 + 16]), 0);  // inside the disc
            QCOMPARE(int(image[0]), 255);           // a corner, transparent
            QVERIFY(*std::min_element(image.begin(), image.end()) != *std::max_element(image.begin(), image.end()));
        }
        QCOMPARE(channelsOfImages({file("icon.png")}, {}), int64_t(1)); // black on white is grey
    }

    void exifOrientationIsApplied_data()
    {
        QTest::addColumn<int>("orientation");
        for (int orientation = 1; orientation <= 8; ++orientation) {
            QTest::newRow(qPrintable(QString("orientation %1").arg(orientation))) << orientation;
        }
    }

    void exifOrientationIsApplied()
    {
        QFETCH(int, orientation);
        DecodedImageInfo info;
        const std::string name = "exif-" + std::to_string(orientation) + ".jpg";
        const Bytes image = decode(name.c_str(), {3, 48, 96}, &info);
        QCOMPARE(info.facts.orientation, orientation);
        QCOMPARE(info.applied.orientation, orientation);
        const size_t size = 48 * 96;
        for (const auto& point : test::uprightColours()) {
            for (int c = 0; c < 3; ++c) {
                const int value = image[c * size + point.y * 96 + point.x];
                QVERIFY2(c == point.colour ? value > 200 : value < 60,
                         qPrintable(QString("(%1, %2) channel %3 = %4").arg(point.x).arg(point.y).arg(c).arg(value)));
            }
        }
    }

    void cmykIsConverted_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("adobe");
        QTest::newRow("Adobe-marked, stored inverted") << "cmyk.jpg" << true;
        QTest::newRow("plain, no Adobe marker") << "cmyk-plain.jpg" << false;
    }

    // Both files hold (C, M, Y, K) = (50, 100, 150, 40), the Adobe one as 255 - v. The samples are
    // read through libjpeg and converted by the rule (cmykjpeg.h): OpenCV alone reads the plain
    // file as inverted and gives (8, 16, 24) for (173, 131, 89).
    void cmykIsConverted()
    {
        QFETCH(QString, name);
        QFETCH(bool, adobe);
        DecodedImageInfo info;
        const Bytes image = decode(name.toUtf8().constData(), {3, 16, 16}, &info);
        QCOMPARE(info.facts.kind, std::string("CMYK"));
        QCOMPARE(info.facts.adobeMarker, adobe);
        QVERIFY(info.applied.cmykConverted);
        for (int c = 0; c < 3; ++c) {
            // The rule, within JPEG's rounding at quality 100.
            QVERIFY2(std::abs(int(image[c * 256 + 5 * 16 + 5]) - int(test::kCmykRgb[c])) <= 1,
                     qPrintable(QString("channel %1: %2").arg(c).arg(image[c * 256 + 85])));
        }
        const Bytes grey = decode(name.toUtf8().constData(), {1, 16, 16});
        // y = (299 * 173 + 587 * 131 + 114 * 89) / 1000 = 138.7 -> 139.
        QVERIFY2(std::abs(int(grey[85]) - 139) <= 1, qPrintable(QString::number(grey[85])));
        // Bytes in memory (a dropped image) take the same path.
        QFile file(QString::fromStdString(this->file(name.toUtf8().constData())));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray data = file.readAll();
        Bytes fromBytes(3 * 16 * 16);
        decodeImageBytes(std::vector<uint8_t>(data.begin(), data.end()), name.toStdString(), {3, 16, 16}, fromBytes.data());
        QVERIFY(fromBytes == image);
    }

    void badFilesAreReportedOneByOne()
    {
        const std::vector<std::string> paths{file("rgba.png"), file("empty.png"), file("text.png"), file("grey16.png")};
        Bytes out(4 * 3 * 2 * 2);
        const DecodeOutcome outcome = decodeImageFilesKeepingGoing(paths, {3, 2, 2}, 2, out.data());
        QCOMPARE(outcome.errors[0], std::string());
        QCOMPARE(outcome.errors[1], std::string("empty file"));
        QVERIFY2(QString::fromStdString(outcome.errors[2]).contains("cannot decode"), outcome.errors[2].c_str());
        QCOMPARE(outcome.errors[3], std::string());
        QCOMPARE(outcome.composited, int64_t(1));
        QVERIFY_THROWS_EXCEPTION(InputError, decode("empty.png", {3, 2, 2}));
    }
};

QTEST_APPLESS_MAIN(TestDecodeRules)
#include "test_decoderules.moc"
