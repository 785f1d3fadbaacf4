// A run's provenance (issue 29 items 5 and 6): the data fingerprint follows the files' names,
// sizes and modification times (an image folder's, a list file's listed images) without reading
// pixels; the command line is recorded shell-quoted; a SLURM job array's task maps to a study
// shard, and malformed shards are refused naming what is wrong.
#include "core/study/studyshard.h"
#include "core/train/runprovenance.h"
#include "core/util/error.h"
#include "core/util/machineinfo.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>

using namespace lbd;

namespace {

void writeText(const std::string& file, const std::string& text)
{
    std::filesystem::create_directories(std::filesystem::path(file).parent_path());
    std::ofstream(file, std::ios::binary) << text;
}

DatasetOptions folderData(const std::string& directory)
{
    DatasetOptions data;
    data.dataset = "folder";
    data.directory = directory;
    return data;
}

} // namespace

class TestRunProvenance final : public QObject {
    Q_OBJECT

private slots:
    void folderFingerprintFollowsNamesSizesAndTimes()
    {
        QTemporaryDir temp;
        const std::string root = temp.path().toStdString() + "/images";
        writeText(root + "/cat/a.png", "12345");
        writeText(root + "/dog/b.png", "123");
        const std::string before = dataFingerprint(folderData(root));
        QVERIFY2(QString::fromStdString(before).startsWith(QStringLiteral("fnv1a64:")), before.c_str());
        QVERIFY2(QString::fromStdString(before).endsWith(QStringLiteral("(2 files, 8 bytes)")), before.c_str());
        QCOMPARE(dataFingerprint(folderData(root)), before); // deterministic

        // The same names, sizes and times elsewhere: the same data.
        const std::string copy = temp.path().toStdString() + "/copy";
        std::filesystem::copy(root, copy, std::filesystem::copy_options::recursive);
        for (const char* file : {"/cat/a.png", "/dog/b.png"}) {
            std::filesystem::last_write_time(copy + file, std::filesystem::last_write_time(root + file));
        }
        QCOMPARE(dataFingerprint(folderData(copy)), before);

        // A touched file, a renamed one, one more: another fingerprint each.
        std::filesystem::last_write_time(copy + "/cat/a.png", std::filesystem::last_write_time(root + "/cat/a.png")
                                                                 + std::chrono::hours(1));
        const std::string touched = dataFingerprint(folderData(copy));
        QVERIFY(touched != before);
        std::filesystem::rename(copy + "/dog/b.png", copy + "/dog/c.png");
        const std::string renamed = dataFingerprint(folderData(copy));
        QVERIFY(renamed != touched);
        writeText(copy + "/dog/d.png", "1");
        QVERIFY(dataFingerprint(folderData(copy)) != renamed);
    }

    void listFingerprintCoversTheListedImages()
    {
        QTemporaryDir temp;
        const std::string root = temp.path().toStdString();
        writeText(root + "/img/x.png", "xx");
        writeText(root + "/img/y z.png", "yyy");
        writeText(root + "/train.txt", "img/x.png 0\nimg/y z.png 1\n");
        writeText(root + "/test.txt", "img/x.png 0\n");
        DatasetOptions data;
        data.dataset = "list";
        data.directory = root;
        data.trainList = "train.txt";
        data.testList = "test.txt";
        const std::string before = dataFingerprint(data);
        // Both lists and both images (one listed twice): 4 files.
        QVERIFY2(QString::fromStdString(before).contains(QStringLiteral("(4 files,")), before.c_str());
        writeText(root + "/img/y z.png", "yyyy"); // a listed image changed in size
        QVERIFY(dataFingerprint(data) != before);
    }

    void syntheticFingerprintIsItsParameters()
    {
        DatasetOptions data;
        data.dataset = "synthetic";
        const std::string first = dataFingerprint(data);
        QVERIFY2(QString::fromStdString(first).endsWith(QStringLiteral("(0 files, 0 bytes)")), first.c_str());
        data.synthetic.seed = 7;
        QVERIFY(dataFingerprint(data) != first);
    }

    void provenanceHasEveryKeyFilled()
    {
        setCommandLine(std::string("lbd train --preset 'my preset'"));
        DatasetOptions data;
        data.dataset = "synthetic";
        const nlohmann::json provenance = currentProvenance(&data);
        QCOMPARE(provenance.size(), provenanceKeys().size());
        for (const std::string& key : provenanceKeys()) {
            QVERIFY2(provenance.contains(key) && provenance.at(key).is_string() && !provenance.at(key).get<std::string>().empty(),
                     key.c_str());
        }
        QCOMPARE(provenance.at("command_line").get<std::string>(), std::string("lbd train --preset 'my preset'"));
        QCOMPARE(currentProvenance(nullptr).at("data_fingerprint").get<std::string>(), std::string("unknown"));
        const char* argv[] = {"lbd", "train", "--set", "name=it's", "--out", "/tmp/a b"};
        setCommandLine(6, argv);
        QCOMPARE(commandLine(), std::string("lbd train --set 'name=it'\\''s' --out '/tmp/a b'"));
    }

    void slurmArrayTaskIsAShard()
    {
        const auto shardFor = [](std::map<std::string, std::string> env) {
            return studyShardFromEnvironment([env](const char* name) -> const char* {
                const auto it = env.find(name);
                return it == env.end() ? nullptr : it->second.c_str();
            });
        };
        QVERIFY(!shardFor({}).enabled());
        const StudyShard first = shardFor({{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_COUNT", "3"}});
        QCOMPARE(first.index, 0);
        QCOMPARE(first.count, 3);
        const StudyShard stepped = shardFor({{"SLURM_ARRAY_TASK_ID", "14"}, {"SLURM_ARRAY_TASK_COUNT", "3"},
                                             {"SLURM_ARRAY_TASK_MIN", "10"}, {"SLURM_ARRAY_TASK_STEP", "2"}});
        QCOMPARE(stepped.index, 2);
        QCOMPARE(stepped.text(), std::string("3/3"));
        QVERIFY(stepped.owns(2) && stepped.owns(5) && !stepped.owns(0) && !stepped.owns(4));
        QVERIFY_THROWS_EXCEPTION(InputError, shardFor({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_COUNT", "3"}}));
        QVERIFY_THROWS_EXCEPTION(InputError, shardFor({{"SLURM_ARRAY_TASK_ID", "1"}}));
        QVERIFY_THROWS_EXCEPTION(InputError, shardFor({{"SLURM_ARRAY_TASK_ID", "x"}, {"SLURM_ARRAY_TASK_COUNT", "3"}}));

        const StudyShard parsed = parseStudyShard("2/5");
        QCOMPARE(parsed.index, 1);
        QCOMPARE(parsed.count, 5);
        for (const char* bad : {"0/5", "6/5", "1/0", "5", "/5", "1/", "-1/5", "1/5/2", " 1/5"}) {
            QVERIFY_THROWS_EXCEPTION(InputError, parseStudyShard(bad));
        }
    }
};

QTEST_APPLESS_MAIN(TestRunProvenance)
#include "test_runprovenance.moc"
