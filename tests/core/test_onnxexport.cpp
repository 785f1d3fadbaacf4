// `lbd export --onnx` (issue 29 item 4): the ONNX file of a run, read by OpenCV 4.6's DNN module,
// gives the same particle probabilities as LibTorch's evaluation-mode forward on 100 test images
// (max |difference| < 1e-4), for every architecture the presets use: tiny trained runs of
// smallcnn and resnet32, and a ResNet-50 with random weights and random batch-norm statistics
// (the equality needs no training). onnx.checker (python3-onnx) accepts the files; a model kind
// the exporter does not know is refused by name.
#include "core/data/augmentation.h"
#include "core/data/datapreparation.h"
#include "core/infer/loadedrun.h"
#include "core/infer/onnxexport.h"
#include "core/model/modelfactory.h"
#include "core/train/trainer.h"
#include "core/util/error.h"
#include "tests/support/tinyconfig.h"

#ifdef LBD_HAVE_OPENCV_DNN
#include <opencv2/dnn.hpp>
#endif

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

using namespace lbd;

namespace {

constexpr double kTolerance = 1e-4;

struct Difference {
    double particles = 0; // max |ONNX - LibTorch| over [N, M, K]
    double mean = 0;      // the same for the mean over particles [N, K]
    double spread = 0;    // max - min of LibTorch's particle probabilities: the test means something only if not ~0
};

// LibTorch: the run's preprocessing and the model's forward; OpenCV: the same images as
// pixels / 255 (the graph normalises), through the exported file.
Difference compare(ParticleModelImpl& model, const torch::Tensor& images, const Normalization& normalization,
                   const std::string& onnxFile)
{
    torch::NoGradGuard noGrad;
    model.eval();
    const int64_t size = model.spec().inputSize;
    const auto expected = torch::softmax(model.forward(preprocessBatch(images, size, normalization)), -1)
                              .permute({1, 0, 2})
                              .contiguous(); // [N, M, K]
    Normalization pixels;
    pixels.mean.assign(normalization.mean.size(), 0.0f);
    pixels.std.assign(normalization.std.size(), 1.0f);
    auto input = preprocessBatch(images, size, pixels).contiguous();

#ifndef LBD_HAVE_OPENCV_DNN
    (void)input;
    (void)onnxFile;
    throw std::runtime_error("built without OpenCV's DNN module");
#else
    cv::dnn::Net net = cv::dnn::readNetFromONNX(onnxFile);
    const std::vector<int> dims(input.sizes().begin(), input.sizes().end());
    net.setInput(cv::Mat(static_cast<int>(dims.size()), dims.data(), CV_32F, input.data_ptr<float>()), "image");
    std::vector<cv::Mat> outputs;
    net.forward(outputs, std::vector<cv::String>{"probabilities", "mean_probabilities"});
    if (outputs.size() != 2 || outputs[0].total() != static_cast<size_t>(expected.numel())
        || outputs[1].total() != static_cast<size_t>(expected.size(0) * expected.size(2))) {
        throw std::runtime_error("OpenCV's outputs have the wrong size");
    }
    const auto particles = torch::from_blob(outputs[0].ptr<float>(), expected.sizes(), torch::kFloat).clone();
    const auto mean = torch::from_blob(outputs[1].ptr<float>(), {expected.size(0), expected.size(2)}, torch::kFloat).clone();
    return {(particles - expected).abs().max().item<double>(), (mean - expected.mean(1)).abs().max().item<double>(),
            (expected.max() - expected.min()).item<double>()};
#endif
}

TrainConfig tinyRunConfig(const std::string& arch)
{
    TrainConfig config = test::tinyConfig(1);
    config.data.synthetic.testPerClass = 25; // 4 classes: 100 test images
    config.model.arch = arch;
    if (arch != "smallcnn") {
        config.data.synthetic.channels = 3; // RGB: a normalisation per channel
    }
    return config;
}

} // namespace

class TestOnnxExport : public QObject {
    Q_OBJECT

private:
    // Trains a tiny run of `arch`, exports it with exportRunAsOnnx (what `lbd export --onnx`
    // calls) and compares on the run's 100 test images.
    void checkRun(const std::string& arch)
    {
        const std::string runDir = m_temp.filePath(QString::fromStdString("run-" + arch)).toStdString();
        const TrainConfig config = tinyRunConfig(arch);
        Trainer trainer(config, runDir, false);
        QCOMPARE(trainer.run({}, nullptr).epochsCompleted, 1);

        const std::string file = m_temp.filePath(QString::fromStdString(arch + ".onnx")).toStdString();
        const OnnxExportSummary summary = exportRunAsOnnx(runDir, file);
        QCOMPARE(summary.arch, arch);
        QCOMPARE(summary.particles, int64_t(2));
        QCOMPARE(summary.epoch, 1);
        m_files.push_back(file);

        LoadedRun run = loadRun(runDir, torch::kCPU);
        const torch::Tensor images = loadDataset(config.data).test.images;
        QCOMPARE(images.size(0), int64_t(100));
        const Difference d = compare(*run.model, images, run.manifest.normalization, file);
        qInfo("%s: max |OpenCV DNN - LibTorch| over 100 test images: particles %.3g, mean %.3g (probabilities span %.3g)",
              arch.c_str(), d.particles, d.mean, d.spread);
        QVERIFY(d.spread > 0.1);
        QVERIFY2(d.particles < kTolerance, qPrintable(QString::number(d.particles)));
        QVERIFY2(d.mean < kTolerance, qPrintable(QString::number(d.mean)));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_temp.isValid());
#ifndef LBD_HAVE_OPENCV_DNN
        QSKIP("built without OpenCV's DNN module: nothing to run the ONNX files with");
#endif
    }

    void smallCnnRunMatchesLibTorch() { checkRun("smallcnn"); }
    void resNet32RunMatchesLibTorch() { checkRun("resnet32"); }

    void resNet50MatchesLibTorch()
    {
        torch::manual_seed(7);
        ModelSpec spec;
        spec.arch = "resnet50";
        spec.particles = 2;
        spec.inputChannels = 3;
        spec.numClasses = 5;
        spec.inputSize = 32;
        ParticleModel model = makeParticleModel(spec);
        {
            // Statistics and affine parameters away from their initial 0/1, so that the folding
            // of batch norm into the convolutions is exercised.
            torch::NoGradGuard noGrad;
            for (auto& buffer : model->named_buffers()) {
                if (buffer.key().find("running_mean") != std::string::npos) {
                    buffer.value().uniform_(-0.2, 0.2);
                } else if (buffer.key().find("running_var") != std::string::npos) {
                    buffer.value().uniform_(0.5, 1.5);
                }
            }
            for (auto& parameter : model->named_parameters()) {
                if (parameter.key().find("bn.weight") != std::string::npos || parameter.key().find("bn1.weight") != std::string::npos) {
                    parameter.value().uniform_(0.5, 1.5);
                } else if (parameter.key().find("bn.bias") != std::string::npos || parameter.key().find("bn1.bias") != std::string::npos) {
                    parameter.value().uniform_(-0.2, 0.2);
                }
            }
        }
        const Normalization normalization{{0.49f, 0.48f, 0.45f}, {0.25f, 0.24f, 0.26f}};
        const std::string file = m_temp.filePath(QStringLiteral("resnet50.onnx")).toStdString();
        const OnnxExportSummary summary =
            writeParticleModelOnnx(file, *model, normalization.mean, normalization.std, {"a", "b", "c", "d", "e"});
        QCOMPARE(summary.arch, std::string("resnet50"));
        const auto images = torch::randint(0, 256, {100, 3, 32, 32}, torch::kUInt8);
        const Difference d = compare(*model, images, normalization, file);
        qInfo("resnet50 (random weights): max |OpenCV DNN - LibTorch| over 100 images: particles %.3g, mean %.3g (probabilities "
              "span %.3g)",
              d.particles, d.mean, d.spread);
        QVERIFY(d.spread > 0.1);
        QVERIFY2(d.particles < kTolerance, qPrintable(QString::number(d.particles)));
        QVERIFY2(d.mean < kTolerance, qPrintable(QString::number(d.mean)));
        m_files.push_back(file);
    }

    // A model kind the exporter does not know is refused by name, and no file is left behind.
    void unknownArchitectureIsRefused()
    {
        struct OtherModel : ParticleModelImpl {
            explicit OtherModel(ModelSpec spec) : ParticleModelImpl(std::move(spec)) {}
            ParticleOutput forwardWithFeatures(const torch::Tensor& x) override { return {x, x}; }
            ParticleOutput forwardSeparately(const torch::Tensor& x) override { return {x, x}; }
        };
        ModelSpec spec;
        spec.arch = "vit-tiny";
        spec.inputChannels = 1;
        OtherModel model(spec);
        const std::string file = m_temp.filePath(QStringLiteral("other.onnx")).toStdString();
        QString message;
        try {
            writeParticleModelOnnx(file, model, {0.5f}, {0.25f}, {});
        } catch (const InputError& error) {
            message = QString::fromStdString(error.what());
        }
        QVERIFY2(message.contains(QStringLiteral("vit-tiny")) && message.contains(QStringLiteral("resnet50")), qPrintable(message));
        QVERIFY(!QFileInfo::exists(QString::fromStdString(file)));
    }

    // python3-onnx's checker (full check: also shape inference) on every file written above.
    void onnxCheckerAcceptsTheFiles()
    {
        QVERIFY2(!m_files.empty(), "no ONNX file was written by the tests above");
        const QString script = QStringLiteral(
            "import sys\n"
            "try:\n"
            "    import onnx\n"
            "except ImportError as e:\n"
            "    print('no onnx module:', e); sys.exit(77)\n"
            "for path in sys.argv[1:]:\n"
            "    model = onnx.load(path)\n"
            "    onnx.checker.check_model(model, full_check=True)\n"
            "    print(path, 'opset', model.opset_import[0].version, len(model.graph.node), 'nodes: ok')\n");
        QStringList args = {QStringLiteral("-c"), script};
        for (const std::string& file : m_files) {
            args << QString::fromStdString(file);
        }
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"), args);
        QVERIFY2(python.waitForFinished(300000), "python3 did not finish");
        const QString out = QString::fromUtf8(python.readAllStandardOutput() + python.readAllStandardError());
        if (python.exitCode() == 77) {
            QSKIP(qPrintable("python3-onnx is not installed (installer/setup.sh test installs it): " + out));
        }
        QVERIFY2(python.exitStatus() == QProcess::NormalExit && python.exitCode() == 0, qPrintable(out));
        qInfo("%s", qPrintable(out.trimmed()));
    }

private:
    QTemporaryDir m_temp;
    std::vector<std::string> m_files;
};

QTEST_APPLESS_MAIN(TestOnnxExport)
#include "test_onnxexport.moc"
