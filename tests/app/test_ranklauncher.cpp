// The command lines `lbd train --gpus N` / `--processes N` give their ranks (app/cli/ranklauncher):
// the launch options dropped, the launcher's own options replacing the user's (on the GPU machine,
// 2026-11-27, `--device cuda --gpus 2` made every rank refuse a second --device), --quiet after
// rank 0. Starting ranks on GPUs needs GPUs; what they are started with does not.
#include "app/cli/ranklauncher.h"

#include <QtTest>

#include <string>
#include <vector>

using Args = std::vector<std::string>;

class TestRankLauncher : public QObject {
    Q_OBJECT

private slots:
    void launchOptionsAreDropped()
    {
        const Args user = {"lbd", "train", "--processes", "2", "--preset", "quick-cpu", "--gpus=3"};
        QVERIFY(lbd::cli::rankArguments(user, {}, 0) == (Args{"lbd", "train", "--preset", "quick-cpu"}));
        QVERIFY(lbd::cli::rankArguments(user, {}, 1) == (Args{"lbd", "train", "--preset", "quick-cpu", "--quiet"}));
    }

    void theLaunchersDeviceReplacesTheUsers()
    {
        const Args gpus = {"--device", "cuda"};
        const Args user = {"lbd", "train", "--device", "cuda", "--gpus", "2", "--out", "run"};
        QVERIFY(lbd::cli::rankArguments(user, gpus, 0) == (Args{"lbd", "train", "--out", "run", "--device", "cuda"}));
        const Args joined = {"lbd", "bench", "--device=cuda:1", "--gpus", "2"};
        QVERIFY(lbd::cli::rankArguments(joined, gpus, 1) == (Args{"lbd", "bench", "--device", "cuda", "--quiet"}));
        // Values are not options: a run named "--device" elsewhere is not touched.
        const Args other = {"lbd", "train", "--out", "device", "--gpus", "2"};
        QVERIFY(lbd::cli::rankArguments(other, gpus, 0) == (Args{"lbd", "train", "--out", "device", "--device", "cuda"}));
    }
};

QTEST_APPLESS_MAIN(TestRankLauncher)
#include "test_ranklauncher.moc"
