// What `lbd predict --json`'s "input" and the Classify page say was done to an image
// (core/infer/inputdescription.h): the stored kind and what the decoding rules did, decoded from
// real files written with PIL (tests/datasets/fixtures/make_decoder_fixtures.py). Issue 34: an
// RGBA PNG was described as "grey PNG 64x64, reduced to 32x32 colour (the grey copied to 3 channels)".
#include "core/infer/inputdescription.h"
#include "tests/datasets/decoderfixtures.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace lbd;

class TestInputDescription : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string described(const char* name, ImageFormat format, bool colour, int64_t inputSize = 32) const
    {
        std::vector<uint8_t> out(static_cast<size_t>(format.bytesPerImage()));
        DecodedImageInfo info;
        decodeImageFile((m_dir.path() + "/" + name).toStdString(), format, out.data(), {}, &info);
        return describeInput(info, colour, format, inputSize);
    }

private slots:
    void initTestCase()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("this build decodes JPEG only");
        }
        QString why;
        QVERIFY2(test::makeDecoderFixtures(LBD_SOURCE_DIR, m_dir.path(), why), qPrintable(why));
    }

    void namesWhatWasDone()
    {
        QCOMPARE(described("icon.png", {3, 16, 16}, false),
                 std::string("RGBA PNG 32x32, composited on white, reduced to 16x16 colour (the grey copied to 3 channels), "
                             "padded to 32x32"));
        ImageFormat black{3, 2, 2};
        black.background = {0, 0, 0};
        QCOMPARE(described("rgba.png", black, true, 2), std::string("RGBA PNG 2x2, composited on black, kept at 2x2 colour"));
        QCOMPARE(described("grey-alpha.png", {1, 2, 2}, false, 2),
                 std::string("grey+alpha PNG 2x2, composited on white, kept at 2x2 grey"));
        QCOMPARE(described("palette-trns.png", {3, 4, 4}, true, 4),
                 std::string("palette with transparency PNG 2x2, composited on white, enlarged to 4x4 colour"));
        QCOMPARE(described("grey16.png", {1, 2, 2}, false, 2), std::string("16-bit grey PNG 2x2, scaled to 8 bits, kept at 2x2 grey"));
        QCOMPARE(described("exif-6.jpg", {3, 48, 96}, true, 96),
                 std::string("colour JPEG 48x96, turned upright (EXIF orientation 6), kept at 96x48 colour"));
        QCOMPARE(described("cmyk.jpg", {3, 16, 16}, true, 16), std::string("CMYK JPEG 16x16, CMYK converted to RGB, kept at 16x16 colour"));
    }
};

QTEST_APPLESS_MAIN(TestInputDescription)
#include "test_inputdescription.moc"
