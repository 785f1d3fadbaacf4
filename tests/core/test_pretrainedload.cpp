// model.init_from (core/model/pretrainedload): the torchvision parity test of issue 29 and the
// loader's refusals. A torchvision ResNet-50 with a fixed random initialisation (every batch norm
// randomised too, so that each key carries its own numbers) is made by Debian's Python with
// python3-torchvision (tests/python/make_torchvision_resnet50.py): its state dict, an input batch
// and its features (avgpool, flattened, eval mode). Loaded into LBD's ResNet-50 with M = 3
// particles, every particle's features must equal torchvision's within 1e-4 of the largest
// feature (fp32: the two libraries sum the convolutions in different orders). No Python with
// torchvision is a failure, not a skip: the parity is the bar. Also an LBD run's weights.pt and
// checkpoint.pt (fine-tuning), and the unpickler's refusals.
#include "core/model/modelfactory.h"
#include "core/model/pretrainedload.h"
#include "core/train/checkpoint.h"
#include "core/train/flatsgd.h"
#include "core/train/pythonexport.h"
#include "core/util/error.h"
#include "core/util/picklereader.h"
#include "core/util/torchsavearchive.h"
#include "tests/support/expect.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <QtTest>

using namespace lbd;

namespace {

constexpr double kTolerance = 1e-4; // of max |torchvision feature|

ModelSpec resnet50Spec(int64_t particles, int64_t channels = 3)
{
    ModelSpec spec;
    spec.arch = "resnet50";
    spec.particles = particles;
    spec.inputChannels = channels;
    spec.numClasses = 5;
    spec.inputSize = 64;
    return spec;
}

torch::Tensor readTensor(const std::string& path)
{
    const TorchSaveReader reader(path, "a tensor", int64_t(1) << 30);
    return reader.tensor(reader.root().asTensor(), path);
}

// max |a - b| / max |b|
double relativeDeviation(const torch::Tensor& a, const torch::Tensor& b)
{
    return (a - b).abs().max().item<double>() / b.abs().max().item<double>();
}

// The state dict of `path` with `edit` applied (entries renamed, dropped, replaced), rewritten in
// torch.save's layout by our own writer.
void rewriteStateDict(const std::string& from, const std::string& to,
                      const std::function<bool(std::string&, torch::Tensor&)>& edit)
{
    const TorchSaveReader reader(from, "a state dict", int64_t(1) << 30);
    TorchSaveArchive archive;
    PickleValue dict = PickleValue::dict({});
    for (const auto& [name, value] : reader.root().entries()) {
        std::string key = name;
        torch::Tensor tensor = reader.tensor(value.asTensor(), name);
        if (edit(key, tensor)) {
            dict.insert(key, archive.add(tensor));
        }
    }
    archive.write(to, dict);
}

// The two-particle grey smallcnn of the LBD-run fixtures (weights.pt, checkpoint.pt).
ModelSpec smallRunSpec(int64_t classes)
{
    ModelSpec spec;
    spec.arch = "smallcnn";
    spec.particles = 2;
    spec.inputChannels = 1;
    spec.numClasses = classes;
    spec.inputSize = 16;
    return spec;
}

} // namespace

class TestPretrainedLoad : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::string m_fixture;

    std::string file(const char* name) const { return m_fixture + "/" + name; }

    // Loads the fixture into a fresh model of `spec` and returns its features for `input`.
    torch::Tensor featuresAfterLoading(const ModelSpec& spec, const std::string& input, bool separately = false)
    {
        torch::manual_seed(1);
        ParticleModel model = makeParticleModel(spec);
        loadInitialWeights(file("resnet50_state_dict.pt"), *model, {});
        model->eval();
        torch::NoGradGuard noGrad;
        const torch::Tensor x = readTensor(file(input.c_str()));
        return separately ? model->forwardSeparately(x).features : model->forwardWithFeatures(x).features;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_fixture = m_dir.path().toStdString();
        QProcess python;
        python.setProcessChannelMode(QProcess::MergedChannels);
        python.start(LBD_TEST_PYTHON, {QString(LBD_SOURCE_DIR) + "/tests/python/make_torchvision_resnet50.py", "--out",
                                       m_dir.path()});
        QVERIFY2(python.waitForFinished(300000), "the torchvision fixture did not finish");
        const QByteArray output = python.readAll();
        qInfo("%s", output.trimmed().constData());
        QVERIFY2(python.exitStatus() == QProcess::NormalExit && python.exitCode() == 0,
                 qPrintable("no torchvision fixture (python3-torchvision installed? installer/setup.sh installs it): "
                            + QString::fromUtf8(output)));
    }

    void everyParticleEqualsTorchvision()
    {
        const torch::Tensor expected = readTensor(file("features.pt"));
        const torch::Tensor features = featuresAfterLoading(resnet50Spec(3), "input.pt");
        QCOMPARE(features.size(0), 3);
        for (int64_t j = 0; j < 3; ++j) {
            const double deviation = relativeDeviation(features[j], expected);
            qInfo("particle %lld: max |lbd - torchvision| / max |torchvision| = %.3g", static_cast<long long>(j), deviation);
            QVERIFY2(deviation < kTolerance, qPrintable(QString("particle %1 deviates by %2").arg(j).arg(deviation)));
        }
    }

    void unfusedPathAgrees()
    {
        const torch::Tensor expected = readTensor(file("features.pt"));
        const torch::Tensor features = featuresAfterLoading(resnet50Spec(2), "input.pt", true);
        for (int64_t j = 0; j < 2; ++j) {
            QVERIFY(relativeDeviation(features[j], expected) < kTolerance);
        }
    }

    void pytorch2xLayout()
    {
        // PyTorch 2.x's records (byteorder, .data/serialization_id, the archive named after the
        // file), made from the 1.13 file: read alike; a big-endian byteorder is refused.
        torch::manual_seed(1);
        ParticleModel model = makeParticleModel(resnet50Spec(2));
        loadInitialWeights(file("layout_2x.pt"), *model, {});
        model->eval();
        torch::NoGradGuard noGrad;
        const torch::Tensor features = model->forwardWithFeatures(readTensor(file("input.pt"))).features;
        QVERIFY(relativeDeviation(features[1], readTensor(file("features.pt"))) < kTolerance);
        QVERIFY(test::throwsInputError([&] { loadInitialWeights(file("big_endian.pt"), *model, {}); },
                                       {"big_endian.pt", "other byte order"}));
    }

    void greyModelSumsConv1()
    {
        // conv1 summed over the 3 input channels: a grey image gives what torchvision gives for the
        // same image as R = G = B.
        const torch::Tensor expected = readTensor(file("grey_features.pt"));
        const torch::Tensor features = featuresAfterLoading(resnet50Spec(1, 1), "grey_input.pt");
        QVERIFY(relativeDeviation(features[0], expected) < kTolerance);
    }

    void reportSaysWhatWentWhere()
    {
        torch::manual_seed(3);
        ParticleModel model = makeParticleModel(resnet50Spec(2, 1));
        const torch::Tensor head = model->classifierWeights().clone();
        const InitialWeightsReport report = loadInitialWeights(file("resnet50_state_dict.pt"), *model, {});
        std::string all = report.kind;
        for (const auto& line : report.lines) {
            all += "\n" + line;
        }
        qInfo("%s", all.c_str());
        for (const char* fragment : {"torchvision ResNet-50", "layer3, layer4 copied into each of the 2 particles",
                                     "fc.weight [1000, 2048] and fc.bias not loaded", "summed into the model's 1"}) {
            QVERIFY2(all.find(fragment) != std::string::npos, fragment);
        }
        QVERIFY(torch::equal(model->classifierWeights(), head)); // the classifier keeps its initialisation

        // The GUI's check of 8 particles builds two (each fits as the other) and states eight.
        const InitialWeightsReport checked = checkInitialWeights(file("resnet50_state_dict.pt"), resnet50Spec(8));
        std::string text;
        for (const auto& line : checked.lines) {
            text += line + "\n";
        }
        QVERIFY2(text.find("copied into each of the 8 particles") != std::string::npos, text.c_str());
        QVERIFY2(text.find("head.weight [8, 5, 2048]") != std::string::npos, text.c_str());
    }

    void refusesMissingMisshapedAndUnknownKeys()
    {
        const std::string source = file("resnet50_state_dict.pt");
        const std::string edited = m_fixture + "/edited.pt";
        ParticleModel model = makeParticleModel(resnet50Spec(2));
        const auto load = [&] { loadInitialWeights(edited, *model, {}); };

        rewriteStateDict(source, edited, [](std::string& key, torch::Tensor&) { return key != "layer3.2.bn2.running_var"; });
        QVERIFY(test::throwsInputError(load, {edited, "layer3.2.bn2.running_var is missing", "[256]"}));

        rewriteStateDict(source, edited, [](std::string& key, torch::Tensor& t) {
            if (key == "layer4.1.conv2.weight") {
                t = torch::zeros({512, 512, 1, 1});
            }
            return true;
        });
        QVERIFY(test::throwsInputError(load, {edited, "layer4.1.conv2.weight has shape [512, 512, 1, 1]", "[512, 512, 3, 3] (per particle)"}));

        rewriteStateDict(source, edited, [](std::string& key, torch::Tensor& t) {
            if (key == "fc.bias") {
                key = "classifier.bias";
                t = torch::zeros({7});
            }
            return true;
        });
        QVERIFY(test::throwsInputError(load, {edited, "classifier.bias [7] has no place in the model"}));

        // fc of any size and no num_batches_tracked at all are fine.
        rewriteStateDict(source, edited, [](std::string& key, torch::Tensor& t) {
            if (key == "fc.weight") {
                t = torch::zeros({3, 2048});
            }
            return key.find("num_batches_tracked") == std::string::npos;
        });
        loadInitialWeights(edited, *model, {});
    }

    void refusesOtherArchitecturesAndFiles()
    {
        ModelSpec spec = resnet50Spec(2);
        spec.arch = "resnet32";
        spec.inputSize = 32;
        ParticleModel small = makeParticleModel(spec);
        QVERIFY(test::throwsInputError([&] { loadInitialWeights(file("resnet50_state_dict.pt"), *small, {}); },
                                       {"resnet50 only", "resnet32"}));
        QVERIFY(test::throwsInputError([&] { loadInitialWeights(file("features.pt"), *small, {}); },
                                       {"features.pt", "holds a tensor, not a state dict"}));
        QVERIFY(test::throwsInputError([&] { loadInitialWeights(m_fixture + "/absent.pt", *small, {}); },
                                       {"absent.pt", "not found"}));
        QVERIFY(QDir(m_dir.path()).mkpath("empty"));
        QVERIFY(test::throwsInputError([&] { loadInitialWeights(m_fixture + "/empty", *small, {}); }, {"without weights.pt"}));
    }

    void lbdRunWeightsFineTune()
    {
        ModelSpec spec = smallRunSpec(4);
        torch::manual_seed(5);
        ParticleModel trained = makeParticleModel(spec);
        const std::vector<std::string> classes = {"a", "b", "c", "d"};
        const std::string weights = m_fixture + "/weights.pt";
        exportPythonWeights(weights, *trained, classes, spec, Normalization{{0.5f}, {0.25f}});

        torch::manual_seed(6);
        ParticleModel same = makeParticleModel(spec);
        InitialWeightsReport report = loadInitialWeights(weights, *same, classes);
        const auto a = trained->named_parameters();
        for (const auto& p : same->named_parameters()) {
            QVERIFY2(torch::equal(p.value(), a[p.key()]), p.key().c_str());
        }
        QVERIFY(report.lines.back().find("head.weight loaded too") != std::string::npos);

        // Other classes (here 3 of them): everything but the classifier, which starts afresh.
        spec.numClasses = 3;
        torch::manual_seed(6);
        ParticleModel other = makeParticleModel(spec);
        const torch::Tensor head = other->classifierWeights().clone();
        report = loadInitialWeights(weights, *other, {"x", "y", "z"});
        QVERIFY(torch::equal(other->classifierWeights(), head));
        for (const auto& p : other->named_parameters()) {
            QVERIFY2(p.key() == "head.weight" || torch::equal(p.value(), a[p.key()]), p.key().c_str());
        }
        QVERIFY2(report.lines.back().find("head.weight re-initialised: the file's 4 classes are not this data's 3") != std::string::npos,
                 report.lines.back().c_str());

        spec.particles = 3;
        ParticleModel more = makeParticleModel(spec);
        QVERIFY(test::throwsInputError([&] { loadInitialWeights(weights, *more, {}); }, {"with 2 particles", "model.particles is 3"}));
        QVERIFY(test::throwsInputError([&] { checkInitialWeights(weights, resnet50Spec(2)); },
                                       {"LBD smallcnn run", "model.arch is resnet50"}));
        // The check of the GUI reads the file without copying and says the same.
        spec.particles = 2;
        QVERIFY(checkInitialWeights(weights, spec, {"x", "y", "z"}).kind.find("LBD run") != std::string::npos);
    }

    void lbdCheckpointOfAnUnfinishedRun()
    {
        // A run folder with only checkpoint.pt (stopped before weights.pt): its param/ and buffer/
        // tensors, the arch from its config, the classes from run.json.
        ModelSpec spec = smallRunSpec(3);
        torch::manual_seed(7);
        ParticleModel trained = makeParticleModel(spec);
        FlatSgd optimizer(trained->parameters(), 0.9, true, 5e-4, false);
        QVERIFY(QDir(m_dir.path()).mkpath("unfinished"));
        const std::string folder = m_fixture + "/unfinished";
        CheckpointState state;
        state.epoch = 3;
        state.configJson = R"({"model": {"arch": "smallcnn", "particles": 2}})";
        saveCheckpoint(folder + "/checkpoint.pt", *trained, optimizer, state);
        QFile manifest(QString::fromStdString(folder + "/run.json"));
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write(R"({"class_names": ["x", "y", "z"]})");
        manifest.close();

        torch::manual_seed(8);
        ParticleModel fresh = makeParticleModel(spec);
        const InitialWeightsReport report = loadInitialWeights(folder, *fresh, {"x", "y", "z"});
        QVERIFY2(report.kind.find("an LBD run's checkpoint (smallcnn, 3 classes)") != std::string::npos, report.kind.c_str());
        const auto a = trained->named_parameters();
        for (const auto& p : fresh->named_parameters()) {
            QVERIFY2(torch::equal(p.value(), a[p.key()]), p.key().c_str());
        }
        spec.arch = "resnet32";
        spec.inputSize = 16;
        QVERIFY(test::throwsInputError([&] { checkInitialWeights(folder, spec); }, {"checkpoint.pt", "LBD smallcnn run"}));
    }

    void pickleReaderRefusesWhatIsNotAStateDict()
    {
        const auto bytes = [](std::initializer_list<int> values) {
            std::string out;
            for (const int v : values) {
                out += static_cast<char>(v);
            }
            return out;
        };
        // os.system('x'): a global outside the state-dict ones is refused, not called.
        const std::string call = bytes({0x80, 2}) + "cos\nsystem\nX" + bytes({1, 0, 0, 0}) + "x" + bytes({0x85}) + "R.";
        QVERIFY(test::throwsErrorOf<std::runtime_error>([&] { readPickle(call); }, {"refused to call os.system"}, "runtime_error"));
        QVERIFY(test::throwsErrorOf<std::runtime_error>([&] { readPickle(bytes({0x80, 2, ']', 'q', 0, '('})); }, {"ends before STOP"},
                                                        "runtime_error"));
        // A list appended to itself is a cycle: refused by the depth limit, no crash.
        QVERIFY(test::throwsErrorOf<std::runtime_error>([&] { readPickle(bytes({0x80, 2, ']', 'q', 0, 'h', 0, 'a', '.'})); },
                                                        {"deeper than"}, "runtime_error"));
        // A tuple of itself twice, 60 levels deep: 2^60 values if expanded, refused by the budget.
        std::string doubling = bytes({0x80, 2, ')'});
        for (int level = 0; level < 60; ++level) {
            doubling += bytes({'q', 0, 'h', 0, 0x86});
        }
        QVERIFY(test::throwsErrorOf<std::runtime_error>([&] { readPickle(doubling + "."); }, {"expands to more than"},
                                                        "runtime_error"));
        // The memo shares objects as Python does: a dict filled after BINPUT is read filled.
        const std::string shared = bytes({0x80, 2, '}', 'q', 0, 'h', 0, 'X', 1, 0, 0, 0, 'k', 'K', 7, 's', 0x86, '.'});
        const PickleValue pair = readPickle(shared);
        QCOMPARE(pair.items().size(), size_t(2));
        QCOMPARE(pair.items()[0].find("k")->asInt(), int64_t(7));
        QCOMPARE(pair.items()[1].find("k")->asInt(), int64_t(7));
    }
};

QTEST_APPLESS_MAIN(TestPretrainedLoad)
#include "test_pretrainedload.moc"
