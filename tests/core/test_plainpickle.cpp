// The plain pickle writer (core/util/plainpickle) byte by byte, and the torch.save-layout archive
// around it (core/util/torchsavearchive): its records, and that LibTorch's own unpickler reads it
// back. That Python's torch.load reads it (default and weights_only=True) is checked by the
// python-labelled CTest (tests/python).
#include "core/train/pythonexport.h"
#include "core/util/error.h"
#include "core/util/plainpickle.h"
#include "core/util/torchsavearchive.h"
#include "tests/support/expect.h"

#include <caffe2/serialize/inline_container.h>

#include <QTemporaryDir>

#include <QtTest>

#include <fstream>

using namespace lbd;

namespace {

std::string bytes(std::initializer_list<int> values)
{
    std::string out;
    for (const int v : values) {
        out += static_cast<char>(v);
    }
    return out;
}

// "X" + 4-byte little-endian length + UTF-8
std::string unicode(const std::string& s)
{
    return "X" + bytes({static_cast<int>(s.size()), 0, 0, 0}) + s;
}

std::string pickled(const PickleValue& v) { return plainPickle(v); }

// The pickle of `v` without the PROTO 2 header and the STOP.
std::string body(const PickleValue& v)
{
    const std::string all = plainPickle(v);
    return all.substr(2, all.size() - 3);
}

void compareBytes(const std::string& actual, const std::string& expected)
{
    const QByteArray a = QByteArray::fromStdString(actual).toHex(' ');
    const QByteArray e = QByteArray::fromStdString(expected).toHex(' ');
    QCOMPARE(a, e);
}

} // namespace

class TestPlainPickle : public QObject {
    Q_OBJECT

private slots:
    void smallDictByteForByte()
    {
        // What CPython's pickle.dumps({'a': 1, 'b': [True, None], 'c': 'x'}, protocol=2) means, in
        // the unmemoised form: pickle.loads and pickletools.dis accept these bytes.
        PickleValue dict = PickleValue::dict({});
        dict.insert("a", PickleValue::integer(1));
        dict.insert("b", PickleValue::list({PickleValue::boolean(true), PickleValue::none()}));
        dict.insert("c", PickleValue::string("x"));
        const std::string expected = bytes({0x80, 0x02}) + "}(" + unicode("a") + "K" + bytes({1}) + unicode("b") + "](" + bytes({0x88})
            + "N" + "e" + unicode("c") + unicode("x") + "u" + ".";
        compareBytes(pickled(dict), expected);
    }

    void emptyContainersNeedNoMark()
    {
        compareBytes(body(PickleValue::dict({})), "}");
        compareBytes(body(PickleValue::list({})), "]");
        compareBytes(body(PickleValue::tuple({})), ")");
        compareBytes(body(PickleValue::boolean(false)), bytes({0x89}));
    }

    void integersTakeTheShortestForm()
    {
        compareBytes(body(PickleValue::integer(0)), "K" + bytes({0}));
        compareBytes(body(PickleValue::integer(255)), "K" + bytes({0xff}));
        compareBytes(body(PickleValue::integer(256)), "M" + bytes({0x00, 0x01}));
        compareBytes(body(PickleValue::integer(65535)), "M" + bytes({0xff, 0xff}));
        compareBytes(body(PickleValue::integer(65536)), "J" + bytes({0x00, 0x00, 0x01, 0x00}));
        compareBytes(body(PickleValue::integer(-1)), "J" + bytes({0xff, 0xff, 0xff, 0xff}));
        compareBytes(body(PickleValue::integer(-2147483648LL)), "J" + bytes({0x00, 0x00, 0x00, 0x80}));
        // Beyond 32 bits: LONG1 with 8 bytes, two's complement, little-endian (the only LONG1
        // length LibTorch's unpickler reads).
        compareBytes(body(PickleValue::integer(1LL << 40)), bytes({0x8a, 8, 0, 0, 0, 0, 0, 1, 0, 0}));
        compareBytes(body(PickleValue::integer(-(1LL << 40))), bytes({0x8a, 8, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff}));
    }

    void floatsAreBigEndianDoubles()
    {
        compareBytes(body(PickleValue::real(1.5)), "G" + bytes({0x3f, 0xf8, 0, 0, 0, 0, 0, 0}));
        compareBytes(body(PickleValue::real(-2.0)), "G" + bytes({0xc0, 0, 0, 0, 0, 0, 0, 0}));
    }

    void tuplesUpToThreeHaveTheirOwnOpcodes()
    {
        const auto one = PickleValue::integer(1);
        compareBytes(body(PickleValue::tuple({one})), "K" + bytes({1, 0x85}));
        compareBytes(body(PickleValue::tuple({one, one})), "K" + bytes({1}) + "K" + bytes({1, 0x86}));
        compareBytes(body(PickleValue::tuple({one, one, one})), "K" + bytes({1}) + "K" + bytes({1}) + "K" + bytes({1, 0x87}));
        compareBytes(body(PickleValue::tuple({one, one, one, one})), "(K" + bytes({1}) + "K" + bytes({1}) + "K" + bytes({1}) + "K" + bytes({1}) + "t");
    }

    void stringsAreUtf8WithTheirByteLength()
    {
        const std::string grey = "gr\xc3\xa4u"; // "gräu": 5 bytes, 4 characters
        compareBytes(body(PickleValue::string(grey)), "X" + bytes({5, 0, 0, 0}) + grey);
    }

    void tensorIsRebuildTensorV2WithAStoragePersistentId()
    {
        PickledTensor t;
        t.storageType = "FloatStorage";
        t.key = "0";
        t.storageElements = 6;
        t.sizes = {2, 3};
        t.strides = {3, 1};
        const std::string expected = "ctorch._utils\n_rebuild_tensor_v2\n((" + unicode("storage") + "ctorch\nFloatStorage\n" + unicode("0")
            + unicode("cpu") + "K" + bytes({6}) + "tQ" + "K" + bytes({0}) + "K" + bytes({2}) + "K" + bytes({3, 0x86}) + "K" + bytes({3}) + "K"
            + bytes({1, 0x86, 0x89}) + "ccollections\nOrderedDict\n)RtR";
        compareBytes(body(PickleValue::tensor(t)), expected);
    }

    void misuseIsRefused()
    {
        QVERIFY_THROWS_EXCEPTION(std::logic_error, PickleValue::integer(1).insert("a", PickleValue::none()));
        PickledTensor t;
        t.sizes = {2};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PickleValue::tensor(t));
    }

    // ---- the archive -------------------------------------------------------------------------

    void archiveHasTheRecordsOfPythonsTorchSave()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("a.pt")).toStdString();
        TorchSaveArchive archive;
        PickleValue root = PickleValue::dict({});
        root.insert("w", archive.add(torch::arange(6, torch::kFloat32).view({2, 3})));
        root.insert("n", archive.add(torch::tensor(int64_t(7))));
        archive.write(path, root);

        caffe2::serialize::PyTorchStreamReader reader(path);
        std::vector<std::string> records = reader.getAllRecords();
        std::sort(records.begin(), records.end());
        QCOMPARE(records, (std::vector<std::string>{"byteorder", "data.pkl", "data/0", "data/1", "version"}));
        const auto [order, orderSize] = reader.getRecord("byteorder");
        QCOMPARE(std::string(static_cast<const char*>(order.get()), orderSize), std::string("little"));
        const auto [storage, storageSize] = reader.getRecord("data/0");
        QCOMPARE(storageSize, size_t(6 * sizeof(float)));
        QCOMPARE(static_cast<const float*>(storage.get())[5], 5.0f);
        // The pickle record is exactly the writer's output.
        const auto [pickle, pickleSize] = reader.getRecord("data.pkl");
        QCOMPARE(std::string(static_cast<const char*>(pickle.get()), pickleSize), plainPickle(root));
    }

    void libtorchReadsTheArchiveBack()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("b.pt")).toStdString();
        TorchSaveArchive archive;
        const auto weights = torch::randn({3, 4, 5});
        const auto transposed = torch::arange(6, torch::kInt64).view({2, 3}).t(); // not contiguous
        PickleValue root = PickleValue::dict({});
        root.insert("weights", archive.add(weights));
        root.insert("transposed", archive.add(transposed));
        root.insert("mask", archive.add(torch::tensor({true, false, true})));
        root.insert("scalar", archive.add(torch::tensor(30.0, torch::kFloat64)));
        root.insert("empty", archive.add(torch::zeros({0, 4})));
        root.insert("names", PickleValue::stringList({"cat", "dog"}));
        root.insert("count", PickleValue::integer(1LL << 40));
        root.insert("negative", PickleValue::integer(-5));
        root.insert("ratio", PickleValue::real(0.25));
        root.insert("flag", PickleValue::boolean(true));
        root.insert("nothing", PickleValue::none());
        PickleValue inner = PickleValue::dict({});
        inner.insert("pair", PickleValue::tuple({PickleValue::integer(1), PickleValue::string("two")}));
        root.insert("inner", std::move(inner));
        archive.write(path, root);

        const c10::IValue value = readTorchSaveFile(path, "a test file");
        const auto dict = value.toGenericDict();
        QVERIFY(torch::equal(dict.at("weights").toTensor(), weights));
        QVERIFY(torch::equal(dict.at("transposed").toTensor(), transposed));
        QVERIFY(torch::equal(dict.at("mask").toTensor(), torch::tensor({true, false, true})));
        const auto scalar = dict.at("scalar").toTensor();
        QCOMPARE(scalar.dim(), int64_t(0));
        QCOMPARE(scalar.scalar_type(), torch::kFloat64);
        QCOMPARE(scalar.item<double>(), 30.0);
        QCOMPARE(dict.at("empty").toTensor().sizes().vec(), (std::vector<int64_t>{0, 4}));
        const auto names = dict.at("names").toListRef();
        QCOMPARE(names.size(), size_t(2));
        QCOMPARE(names[1].toStringRef(), std::string("dog"));
        QCOMPARE(dict.at("count").toInt(), int64_t(1LL << 40));
        QCOMPARE(dict.at("negative").toInt(), int64_t(-5));
        QCOMPARE(dict.at("ratio").toDouble(), 0.25);
        QVERIFY(dict.at("flag").toBool());
        QVERIFY(dict.at("nothing").isNone());
        const auto pair = dict.at("inner").toGenericDict().at("pair").toTuple();
        QCOMPARE(pair->elements().at(1).toStringRef(), std::string("two"));
    }

    void probabilitiesRoundTripAndOldFilesStillRead()
    {
        QTemporaryDir dir;
        const auto probabilities = torch::softmax(torch::randn({2, 5, 3}), -1);
        const auto labels = torch::tensor({0, 1, 2, 1, 0}, torch::kInt64);
        const std::string path = dir.filePath(QStringLiteral("test_probabilities.pt")).toStdString();
        saveTestProbabilities(path, probabilities, labels, {"a", "b", "c"});
        const TestProbabilities read = loadTestProbabilities(path);
        QVERIFY(torch::equal(read.probabilities, probabilities));
        QVERIFY(torch::equal(read.labels, labels));
        QCOMPARE(read.classNames, (std::vector<std::string>{"a", "b", "c"}));

        // Run folders of earlier versions hold torch::pickle_save files: they still open.
        c10::impl::GenericDict old(c10::StringType::get(), c10::AnyType::get());
        old.insert("probabilities", probabilities);
        old.insert("labels", labels);
        old.insert("class_names", c10::List<std::string>({"a", "b", "c"}));
        const std::vector<char> oldBytes = torch::pickle_save(old);
        const std::string oldPath = dir.filePath(QStringLiteral("old.pt")).toStdString();
        std::ofstream(oldPath, std::ios::binary).write(oldBytes.data(), static_cast<std::streamsize>(oldBytes.size()));
        QVERIFY(torch::equal(loadTestProbabilities(oldPath).probabilities, probabilities));
    }

    void errorsNameTheFile()
    {
        QTemporaryDir dir;
        const std::string text = dir.filePath(QStringLiteral("notes.txt")).toStdString();
        std::ofstream(text) << "not a zip";
        for (const std::string& path : {text, dir.filePath(QStringLiteral("missing.pt")).toStdString()}) {
            try {
                readTorchSaveFile(path, "a weights file");
                QFAIL("expected InputError");
            } catch (const InputError& error) {
                QVERIFY2(std::string(error.what()).find(path) != std::string::npos, error.what());
            }
        }
        // A large file that is not a zip (a 2 GiB sparse file of zeros: it costs no disk) is refused
        // from its first bytes, and one over the limit from its size, before it is read (issue 30:
        // `lbd eval` read 2 GiB, and copied it, before refusing it).
        const std::string sparse = dir.filePath(QStringLiteral("sparse.pt")).toStdString();
        {
            std::ofstream out(sparse, std::ios::binary);
            out.seekp((int64_t(2) << 30) - 1);
            out.put('\0');
        }
        QVERIFY(lbd::test::throwsInputError([&] { readTorchSaveFile(sparse, "a test-probabilities file"); },
                                            {sparse, "not a zip"}));
        QVERIFY(lbd::test::throwsInputError([&] { readTorchSaveFile(sparse, "a test-probabilities file", int64_t(1) << 30); },
                                            {sparse, "larger than 1024 MiB"}));
        // Below a regular file no folder can be made: the write fails naming the file.
        const std::string unwritable = text + "/w.pt";
        try {
            TorchSaveArchive().write(unwritable, PickleValue::dict({}));
            QFAIL("expected RunError");
        } catch (const RunError& error) {
            QVERIFY2(std::string(error.what()).find(unwritable) != std::string::npos, error.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestPlainPickle)
#include "test_plainpickle.moc"
