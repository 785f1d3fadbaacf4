// UtilityMatrix presets, CSV / JSON files, class-name reordering and every kind of bad input.
#include "core/lbd/utilitymatrix.h"
#include "core/util/error.h"

#include <QtTest>

#include <fstream>

using namespace lbd;

namespace {

const std::vector<std::string> kNames = {"cat", "dog", "frog"};

void writeText(const QString& path, const std::string& text)
{
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << text;
}

// Runs `load`, expects InputError, and checks its message holds every fragment.
template <typename Load>
void expectInputError(Load load, const QStringList& fragments)
{
    try {
        load();
        QFAIL("expected InputError");
    } catch (const InputError& error) {
        for (const QString& fragment : fragments) {
            QVERIFY2(QString(error.what()).contains(fragment), qPrintable(QString(error.what()) + " lacks " + fragment));
        }
    }
}

} // namespace

class TestUtilityMatrix : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void presets()
    {
        const UtilityMatrix one = UtilityMatrix::oneHot(3);
        QVERIFY(one.isOneHot());
        QCOMPARE(one.classCount(), int64_t{3});
        QCOMPARE(one(1, 1), 1.0);
        QCOMPARE(one(1, 0), 0.0);

        const UtilityMatrix tail = UtilityMatrix::tailSensitive(3, 0.5);
        QVERIFY(!tail.isOneHot());
        const std::vector<double> expected = {1, 0, 0, -0.5, 1, 0, -0.5, -0.5, 1}; // lbd-math.md 7A
        QCOMPARE(tail.values(), expected);
        QVERIFY(UtilityMatrix::tailSensitive(3, 0.0).isOneHot());
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)tail.at(3, 0));
        QVERIFY_THROWS_EXCEPTION(InputError, UtilityMatrix(3, std::vector<double>(8, 0.0)));
    }

    void csvRoundTrip()
    {
        UtilityMatrix u = UtilityMatrix::tailSensitive(3, 0.3);
        u(0, 2) = 0.1; // not a preset value, and not exact in binary
        saveUtilityCsv(u, path("u.csv").toStdString(), kNames);
        QCOMPARE(loadUtilityCsv(path("u.csv").toStdString(), kNames), u);
        saveUtilityMatrix(u, path("plain.csv").toStdString());
        QCOMPARE(loadUtilityMatrix(path("plain.csv").toStdString(), kNames), u);
        // No temporary file left behind by the atomic save.
        QCOMPARE(QDir(m_dir.path()).entryList({"*.tmp*"}, QDir::Files).size(), 0);
    }

    void jsonRoundTrip()
    {
        UtilityMatrix u = UtilityMatrix::tailSensitive(3, 2.0);
        u(2, 1) = -1.0 / 3.0;
        saveUtilityJson(u, path("u.json").toStdString(), kNames);
        QCOMPARE(loadUtilityJson(path("u.json").toStdString(), kNames), u);
        saveUtilityMatrix(u, path("plain.JSON").toStdString());
        QCOMPARE(loadUtilityMatrix(path("plain.JSON").toStdString(), kNames), u);
    }

    void csvHeaderWithPermutedNamesReorders()
    {
        // File order frog, cat, dog. U[frog][cat] = -2 means: truth frog, decided cat.
        writeText(path("perm.csv"), "frog,cat,dog\n"
                                    "1,-2,-3\n"
                                    "0,1,0.5\n"
                                    "0,0,1\n");
        const UtilityMatrix u = loadUtilityCsv(path("perm.csv").toStdString(), kNames);
        // Dataset order cat = 0, dog = 1, frog = 2.
        QCOMPARE(u(2, 0), -2.0); // frog -> cat
        QCOMPARE(u(2, 1), -3.0); // frog -> dog
        QCOMPARE(u(0, 1), 0.5);  // cat -> dog
        QCOMPARE(u(2, 2), 1.0);
        QCOMPARE(u(0, 2), 0.0); // cat -> frog
    }

    void jsonClassesPermutedReorders()
    {
        writeText(path("perm.json"), R"({"classes": ["dog", "cat", "frog"],
                                         "matrix": [[1, 7, 0], [0, 1, 0], [0, 0, 1]]})");
        const UtilityMatrix u = loadUtilityJson(path("perm.json").toStdString(), kNames);
        QCOMPARE(u(1, 0), 7.0); // dog -> cat
        QCOMPARE(u(0, 1), 0.0);
    }

    void numericClassNamesInHeader()
    {
        // Folders named 0, 1, 2: the header looks like numbers, the extra line gives it away.
        writeText(path("digits.csv"), "2,0,1\n1,0,0\n0,1,0\n5,0,1\n");
        const UtilityMatrix u = loadUtilityCsv(path("digits.csv").toStdString(), {"0", "1", "2"});
        QCOMPARE(u(2, 2), 1.0);
        QCOMPARE(u(1, 2), 5.0); // file row "1" (third), column "2" (first)
    }

    void commentsBlankLinesAndQuotes()
    {
        const UtilityMatrix u = parseUtilityCsv("# made by hand\n\"cat\", dog ,\"frog\"\n\n1,0,0\r\n0,1,0\n+0,0,1e0\n",
                                                kNames, "inline.csv");
        QVERIFY(u.isOneHot());
    }

    void wrongSize()
    {
        writeText(path("small.csv"), "1,0\n0,1\n");
        expectInputError([&] { loadUtilityCsv(path("small.csv").toStdString(), kNames); },
                         {"small.csv", "3 x 3", "found 2 x 2"});
        writeText(path("ragged.csv"), "1,0,0\n0,1\n0,0,1\n");
        expectInputError([&] { loadUtilityCsv(path("ragged.csv").toStdString(), kNames); },
                         {"ragged.csv", "3 x 3", "row 2 has 2 values"});
        writeText(path("small.json"), R"({"matrix": [[1, 0], [0, 1]]})");
        expectInputError([&] { loadUtilityJson(path("small.json").toStdString(), kNames); },
                         {"small.json", "3 x 3", "found 2 x 2"});
        expectInputError([&] { parseUtilityCsv("", kNames, "empty.csv"); }, {"empty.csv", "empty"});
    }

    void nonFiniteValues()
    {
        writeText(path("nan.csv"), "cat,dog,frog\n1,0,0\n0,1,nan\n0,0,1\n");
        expectInputError([&] { loadUtilityCsv(path("nan.csv").toStdString(), kNames); },
                         {"nan.csv", "row 2, column 3", "dog", "frog", "finite"});
        writeText(path("inf.csv"), "1,0,0\n0,1,0\n-inf,0,1\n");
        expectInputError([&] { loadUtilityCsv(path("inf.csv").toStdString(), kNames); },
                         {"inf.csv", "row 3, column 1"});
        writeText(path("null.json"), R"({"matrix": [[1, 0, 0], [0, null, 0], [0, 0, 1]]})");
        expectInputError([&] { loadUtilityJson(path("null.json").toStdString(), kNames); },
                         {"null.json", "row 2, column 2"});
        writeText(path("text.csv"), "1,0,0\n0,one,0\n0,0,1\n");
        expectInputError([&] { loadUtilityCsv(path("text.csv").toStdString(), kNames); },
                         {"text.csv", "'one' is not a number"});
    }

    void unknownOrRepeatedClassName()
    {
        writeText(path("unknown.csv"), "cat,dog,horse\n1,0,0\n0,1,0\n0,0,1\n");
        expectInputError([&] { loadUtilityCsv(path("unknown.csv").toStdString(), kNames); },
                         {"unknown.csv", "'horse'", "not a class"});
        writeText(path("twice.json"), R"({"classes": ["cat", "cat", "dog"], "matrix": [[1,0,0],[0,1,0],[0,0,1]]})");
        expectInputError([&] { loadUtilityJson(path("twice.json").toStdString(), kNames); },
                         {"twice.json", "'cat'", "twice"});
    }

    void missingOrBadFile()
    {
        expectInputError([&] { loadUtilityMatrix(path("absent.csv").toStdString(), kNames); },
                         {"absent.csv", "no such file"});
        expectInputError([&] { loadUtilityMatrix(path("u.txt").toStdString(), kNames); }, {"u.txt", ".csv or .json"});
        writeText(path("broken.json"), "{\"matrix\": [[1, 0");
        expectInputError([&] { loadUtilityJson(path("broken.json").toStdString(), kNames); },
                         {"broken.json", "not valid JSON"});
        expectInputError(
            [&] { saveUtilityCsv(UtilityMatrix::oneHot(3), path("no/such/dir/u.csv").toStdString()); },
            {"u.csv", "cannot write"});
    }

    void specs()
    {
        QVERIFY(parseUtilitySpec("onehot", kNames).isOneHot());
        QCOMPARE(parseUtilitySpec("tail:0.5", kNames), UtilityMatrix::tailSensitive(3, 0.5));
        saveUtilityJson(UtilityMatrix::tailSensitive(3, 4.0), path("spec.json").toStdString(), kNames);
        QCOMPARE(parseUtilitySpec(path("spec.json").toStdString(), kNames), UtilityMatrix::tailSensitive(3, 4.0));
        expectInputError([&] { parseUtilitySpec("tail:abc", kNames); }, {"tail:abc", "number"});
        expectInputError([&] { parseUtilitySpec("tail:-1", kNames); }, {"tail:-1"});
        expectInputError([&] { parseUtilitySpec("bayes", kNames); }, {"bayes", "onehot"});
        expectInputError([&] { parseUtilitySpec(path("gone.csv").toStdString(), kNames); }, {"gone.csv", "no such file"});
    }
};

QTEST_APPLESS_MAIN(TestUtilityMatrix)
#include "test_utilitymatrix.moc"
