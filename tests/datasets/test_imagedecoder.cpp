// The image decoder (datasets/common/imagedecoder, OpenCV behind it): conversion to the requested
// channels and size, channel-major output, and bad input named. A PNG with a damaged colour
// profile decodes to the same pixels without libpng printing its warning on stderr.
#include "datasets/common/imagedecoder.h"
#include "datasets/common/pngchunks.h"
#include "tests/support/expect.h"

#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>

#include <fcntl.h>
#include <unistd.h>

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

    void damagedColourProfileDecodesWithoutLibpngOnStderr()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("clean.png").toStdString();
        const ImageFormat format{3, 2, 3};
        std::vector<uint8_t> pixels(18);
        for (size_t i = 0; i < pixels.size(); ++i) {
            pixels[i] = static_cast<uint8_t>(13 * i);
        }
        writeImageFile(path, pixels.data(), format);
        std::vector<uint8_t> clean = readBytes(path);
        QVERIFY(isPngData(clean.data(), clean.size()));
        // An iCCP chunk whose profile is cut short (libpng: "iCCP: too short"), right after IHDR.
        const uint8_t iccp[] = {0x00, 0x00, 0x00, 0x14, 0x69, 0x43, 0x43, 0x50, 0x62, 0x61, 0x64, 0x00, 0x00, 0x78, 0x9c, 0x63,
                                0x60, 0x50, 0xe7, 0x67, 0x18, 0x26, 0x00, 0x00, 0x2b, 0x59, 0x00, 0x37, 0x05, 0xe0, 0xf2, 0x24};
        std::vector<uint8_t> damaged = clean;
        damaged.insert(damaged.begin() + 8 + 25, std::begin(iccp), std::end(iccp)); // signature, IHDR
        const std::string damagedPath = dir.filePath("damaged.png").toStdString();
        std::ofstream(damagedPath, std::ios::binary).write(reinterpret_cast<const char*>(damaged.data()),
                                                           static_cast<std::streamsize>(damaged.size()));

        // The chunk goes, the pixels' chunks stay byte for byte.
        const std::vector<uint8_t> stripped = withoutAncillaryPngChunks(damaged.data(), damaged.size());
        QCOMPARE(stripped, withoutAncillaryPngChunks(clean.data(), clean.size()));
        QCOMPARE(std::search(stripped.begin(), stripped.end(), iccp + 4, iccp + 8), stripped.end());
        // Not a PNG, or chunks that do not parse: unchanged, for the decoder to name the problem.
        const std::vector<uint8_t> text{'n', 'o', 't'};
        QCOMPARE(withoutAncillaryPngChunks(text.data(), text.size()), text);
        const std::vector<uint8_t> cut(damaged.begin(), damaged.begin() + 40);
        QCOMPARE(withoutAncillaryPngChunks(cut.data(), cut.size()), cut);

        std::vector<uint8_t> fromFile(18);
        std::vector<uint8_t> fromBytes(18);
        const QString stderrText = capturedStderr(dir.filePath("stderr.txt"), [&] {
            decodeImageFile(damagedPath, format, fromFile.data());
            decodeImageBytes(damaged, "pasted image", format, fromBytes.data());
        });
        QVERIFY2(!stderrText.contains(QStringLiteral("libpng")), qPrintable(stderrText));
        QCOMPARE(fromFile, pixels);
        QCOMPARE(fromBytes, pixels);
    }

private:
    static std::vector<uint8_t> readBytes(const std::string& path)
    {
        std::ifstream in(path, std::ios::binary);
        return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }

    // What `work` writes to file descriptor 2 (libpng's default warning handler writes there).
    static QString capturedStderr(const QString& file, const std::function<void()>& work)
    {
        std::fflush(stderr);
        const int saved = dup(2);
        const int fd = open(file.toLocal8Bit().constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 2);
        close(fd);
        work();
        std::fflush(stderr);
        dup2(saved, 2);
        close(saved);
        QFile captured(file);
        return captured.open(QIODevice::ReadOnly) ? QString::fromUtf8(captured.readAll()) : QStringLiteral("(unreadable)");
    }
};

QTEST_APPLESS_MAIN(TestImageDecoder)
#include "test_imagedecoder.moc"
