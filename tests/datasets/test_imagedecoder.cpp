// The image decoder (datasets/common/imagedecoder, OpenCV behind it): conversion to the requested
// channels and size, channel-major output, and bad input named.
#include "datasets/common/imagedecoder.h"
#include "tests/support/expect.h"

#include <QTemporaryDir>

#include <fstream>

using namespace lbd;
using test::throwsInputError;

class TestImageDecoder : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV");
        }
    }

    void writtenPixelsDecodeBackChannelMajor()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("rgb.png").toStdString();
        const ImageFormat format{3, 2, 3};
        std::vector<uint8_t> pixels(18);
        for (size_t i = 0; i < pixels.size(); ++i) {
            pixels[i] = static_cast<uint8_t>(10 * i); // plane c holds 60c .. 60c + 50
        }
        writeImageFile(path, pixels.data(), format);
        std::vector<uint8_t> decoded(18);
        decodeImageFile(path, format, decoded.data());
        QCOMPARE(decoded, pixels);
        std::vector<uint8_t> grey(4 * 6);
        decodeImageFiles({path, path, path, path}, {1, 2, 3}, 2, grey.data());
        QVERIFY(grey[0] > 0 && grey[0] < 120);
        QCOMPARE(grey[18], grey[0]);
    }

    void badInputIsNamed()
    {
        QTemporaryDir dir;
        const std::string text = dir.filePath("note.png").toStdString();
        std::ofstream(text) << "not an image";
        std::vector<uint8_t> out(3 * 8 * 8);
        QVERIFY(throwsInputError([&] { decodeImageFile(text, {3, 8, 8}, out.data()); }, {text, "cannot decode"}));
        QVERIFY(throwsInputError([&] { decodeImageFile("/no/such.png", {3, 8, 8}, out.data()); }, {"/no/such.png", "not found"}));
        QVERIFY(throwsInputError([&] { decodeImageBytes({1, 2, 3}, "pasted image", {3, 8, 8}, out.data()); },
                                 {"pasted image"}));
        const std::vector<std::string> paths = {text, text};
        std::vector<uint8_t> two(2 * 3 * 8 * 8);
        QVERIFY(throwsInputError([&] { decodeImageFiles(paths, {3, 8, 8}, 2, two.data()); }, {text}));
    }
};

QTEST_APPLESS_MAIN(TestImageDecoder)
#include "test_imagedecoder.moc"
