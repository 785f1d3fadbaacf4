// The libjpeg-turbo decoder (builds without OpenCV) follows the same rules as the OpenCV one
// (datasets/common/decoderules.h, tests/datasets/test_decoderules.cpp): EXIF orientation applied,
// CMYK JPEGs converted (Adobe's inverted form, which PIL writes), and a JPEG's `info` says so. The
// files are written at test time with PIL (tests/datasets/fixtures/make_decoder_fixtures.py).
#include "datasets/common/decoderules.h"
#include "datasets/common/imagedecoder.h"
#include "tests/datasets/decoderfixtures.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>

using namespace lbd;

class TestLibjpegRules : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::vector<uint8_t> decode(const std::string& name, ImageFormat format, DecodedImageInfo* info = nullptr) const
    {
        std::vector<uint8_t> out(static_cast<size_t>(format.bytesPerImage()));
        decodeImageFile((m_dir.path() + "/").toStdString() + name, format, out.data(), {}, info);
        return out;
    }

private slots:
    void initTestCase()
    {
        qInfo("decoder: %s", imageDecoderName().c_str());
        QString why;
        QVERIFY2(test::makeDecoderFixtures(LBD_SOURCE_DIR, m_dir.path(), why), qPrintable(why));
    }

    void exifOrientationIsApplied_data()
    {
        QTest::addColumn<int>("orientation");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("width");
        for (int orientation = 1; orientation <= 8; ++orientation) {
            // At the stored size, and at a quarter of it (DCT scaling 1/4 with the turn).
            QTest::newRow(qPrintable(QString("orientation %1").arg(orientation))) << orientation << 48 << 96;
            QTest::newRow(qPrintable(QString("orientation %1, 12x24").arg(orientation))) << orientation << 12 << 24;
        }
    }

    void exifOrientationIsApplied()
    {
        QFETCH(int, orientation);
        QFETCH(int, height);
        QFETCH(int, width);
        DecodedImageInfo info;
        const auto image = decode("exif-" + std::to_string(orientation) + ".jpg", {3, height, width}, &info);
        QCOMPARE(info.applied.orientation, orientation);
        const size_t size = size_t(height) * width;
        const int scale = 96 / width;
        for (const auto& point : test::uprightColours()) {
            const int x = point.x / scale;
            const int y = point.y / scale;
            if (scale > 1 && (point.x % 32 < 8 || point.y % 24 < 8 || point.x % 32 > 24 || point.y % 24 > 16)) {
                continue; // near a region's edge at the small size: blended by the resize
            }
            for (int c = 0; c < 3; ++c) {
                const int value = image[c * size + y * width + x];
                QVERIFY2(c == point.colour ? value > 200 : value < 60,
                         qPrintable(QString("(%1, %2) channel %3 = %4").arg(x).arg(y).arg(c).arg(value)));
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

    // Both hold (C, M, Y, K) = (50, 100, 150, 40), the Adobe one stored as 255 - v.
    void cmykIsConverted()
    {
        QFETCH(QString, name);
        QFETCH(bool, adobe);
        DecodedImageInfo info;
        const auto image = decode(name.toUtf8().constData(), {3, 16, 16}, &info);
        QVERIFY(info.applied.cmykConverted);
        QCOMPARE(info.facts.adobeMarker, adobe);
        for (int c = 0; c < 3; ++c) {
            // r = round(C' K' / 255) on inverted values, round((255 - C)(255 - K) / 255) on plain
            // ones: the rule, within JPEG's rounding.
            QVERIFY2(std::abs(int(image[c * 256 + 85]) - int(test::kCmykRgb[c])) <= 1,
                     qPrintable(QString("channel %1: %2").arg(c).arg(image[c * 256 + 85])));
        }
        const auto grey = decode(name.toUtf8().constData(), {1, 16, 16});
        // y = (299 * 173 + 587 * 131 + 114 * 89) / 1000 = 138.7 -> 139.
        QVERIFY2(std::abs(int(grey[85]) - 139) <= 1, qPrintable(QString::number(grey[85])));
    }

    void anEmptyFileIsSaidToBeEmpty()
    {
        std::vector<uint8_t> out(3 * 4 * 4);
        try {
            decodeImageFile((m_dir.path() + "/empty.png").toStdString(), {3, 4, 4}, out.data());
            QFAIL("no error");
        } catch (const std::exception& error) {
            QVERIFY2(QString(error.what()).contains("empty file"), error.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestLibjpegRules)
#include "test_libjpegrules.moc"
