// `lbd export --onnx`: the command writes an ONNX file and says how to feed it; asking for nothing,
// or for a folder as the file, is a usage error that names what to give. (The file's numbers are
// checked against LibTorch by core_test_onnxexport.)
#include "tests/app/clitest.h"

using namespace lbd::test;

class TestCliExport final : public CliTest {
    Q_OBJECT

private slots:
    void initTestCase() { trainTinyRun(); }

    void writesOnnxAndWeights()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QString onnx = path(QStringLiteral("model.onnx"));
        const QString weights = path(QStringLiteral("weights.pt"));
        const QStringList args = {QStringLiteral("export"), m_run, QStringLiteral("--onnx"), onnx, QStringLiteral("--out"), weights};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        EXPECT_MENTIONS(result.out, QStringLiteral("opset 11"), result, args);
        EXPECT_MENTIONS(result.out, QStringLiteral("\"probabilities\""), result, args);
        EXPECT_MENTIONS(result.out, QStringLiteral("do not normalise"), result, args);
        QVERIFY(QFileInfo(weights).size() > 0);
        QFile file(onnx);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.size() > 10000);
        // ModelProto starts with ir_version (field 1, varint): tag 0x08, IR version 6.
        QCOMPARE(bytes.left(2), QByteArray("\x08\x06", 2));
        QVERIFY(bytes.contains("mean_probabilities"));
    }

    void nothingToWrite()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QStringList args = {QStringLiteral("export"), m_run};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("--onnx"), result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("--out"), result, args);
    }

    void folderAsOnnxFile()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QString folder = path(QStringLiteral("a-folder"));
        QVERIFY(QDir().mkpath(folder));
        const QStringList args = {QStringLiteral("export"), m_run, QStringLiteral("--onnx"), folder};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, folder, result, args);
    }
};

QTEST_APPLESS_MAIN(TestCliExport)
#include "test_cli_export.moc"
