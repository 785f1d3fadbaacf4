// Data-parallel collectives on c10d/Gloo: the launch environment read strictly, two ranks (threads
// here; separate processes in the training test) that sum and broadcast, and ranks that never come
// or leave ending in a RunError within the timeout instead of a hang.
#include "core/dist/communicator.h"

#include "tests/support/expect.h"

#include <QElapsedTimer>
#include <QtTest>

#include <future>
#include <map>


using namespace lbd;

namespace {


DistributedSpec rankOf(int rank, int worldSize, int port, int timeoutSeconds = 20)
{
    DistributedSpec spec;
    spec.rank = rank;
    spec.localRank = rank;
    spec.worldSize = worldSize;
    spec.masterPort = port;
    spec.timeout = std::chrono::seconds(timeoutSeconds);
    return spec;
}

DistributedSpec fromVariables(const std::map<std::string, std::string>& variables)
{
    return distributedSpecFromEnvironment([&](const char* name) -> const char* {
        const auto found = variables.find(name);
        return found == variables.end() ? nullptr : found->second.c_str();
    });
}

} // namespace

class TestCommunicator : public QObject {
    Q_OBJECT

private slots:
    void readsTheLaunchEnvironmentStrictly()
    {
        QVERIFY(!fromVariables({}).enabled());
        const DistributedSpec spec = fromVariables({{"RANK", "1"}, {"WORLD_SIZE", "4"}, {"LOCAL_RANK", "0"},
                                                    {"MASTER_ADDR", "node7"}, {"MASTER_PORT", "29777"}, {"LBD_DIST_TIMEOUT", "30"}});
        QVERIFY(spec.enabled());
        QCOMPARE(spec.rank, 1);
        QCOMPARE(spec.worldSize, 4);
        QCOMPARE(spec.localRank, 0);
        QCOMPARE(spec.masterAddress, std::string("node7"));
        QCOMPARE(spec.masterPort, 29777);
        QCOMPARE(spec.timeout.count(), 30000);
        QCOMPARE(fromVariables({{"RANK", "2"}, {"WORLD_SIZE", "3"}}).localRank, 2); // one machine: the rank
        QVERIFY(test::throwsInputError([] { fromVariables({{"RANK", "2"}, {"WORLD_SIZE", "2"}}); }, {"RANK=2", "0 to 1"}));
        QVERIFY(test::throwsInputError([] { fromVariables({{"RANK", "0"}}); }, {"RANK is set but WORLD_SIZE is not"}));
        QVERIFY(test::throwsInputError([] { fromVariables({{"RANK", "0"}, {"WORLD_SIZE", "2x"}}); }, {"WORLD_SIZE=2x"}));
        QVERIFY(test::throwsInputError([] { fromVariables({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_PORT", "70000"}}); },
                                       {"MASTER_PORT=70000", "1 to 65535"}));
    }

    void twoRanksSumAndBroadcast()
    {
        if (!distributedAvailable()) {
            QSKIP("this LibTorch has no c10d/Gloo");
        }
        const int port = freeLocalPort();
        const auto rank = [port](int r) {
            Communicator communicator(rankOf(r, 2, port));
            torch::Tensor values = torch::tensor({1.0f, 2.0f, 3.0f}) * (r == 0 ? 1 : 10);
            communicator.allReduceSum(values);
            torch::Tensor mine = torch::full({2}, static_cast<float>(r + 5));
            communicator.broadcast(mine, /*root=*/1);
            communicator.barrier();
            return torch::cat({values, mine});
        };
        auto second = std::async(std::launch::async, rank, 1);
        const torch::Tensor first = rank(0);
        const torch::Tensor expected = torch::tensor({11.0f, 22.0f, 33.0f, 6.0f, 6.0f});
        QVERIFY(torch::equal(first, expected));
        QVERIFY(torch::equal(second.get(), expected));
    }

    void aRankThatNeverComesEndsInAnErrorNotAHang()
    {
        if (!distributedAvailable()) {
            QSKIP("this LibTorch has no c10d/Gloo");
        }
        QElapsedTimer timer;
        timer.start();
        const int port = freeLocalPort();
        QVERIFY(test::throwsRunError([&] { Communicator alone(rankOf(0, 2, port, 2)); },
                                     {"rank 0 of 2", "joining the group at 127.0.0.1:" + std::to_string(port)}));
        QVERIFY2(timer.elapsed() < 30000, "the timeout is 2 s");
    }

    void aRankThatLeavesEndsTheOthersCollectiveInAnError()
    {
        if (!distributedAvailable()) {
            QSKIP("this LibTorch has no c10d/Gloo");
        }
        const int port = freeLocalPort();
        auto leaver = std::async(std::launch::async, [port] {
            Communicator communicator(rankOf(1, 2, port, 3));
            communicator.barrier(); // joined; then it is gone before the all-reduce
        });
        Communicator communicator(rankOf(0, 2, port, 3));
        communicator.barrier();
        leaver.get();
        QElapsedTimer timer;
        timer.start();
        torch::Tensor values = torch::ones({4});
        QVERIFY(test::throwsRunError([&] { communicator.allReduceSum(values); }, {"rank 0 of 2", "all-reduce failed"}));
        QVERIFY2(timer.elapsed() < 30000, "the timeout is 3 s");
    }
};

QTEST_APPLESS_MAIN(TestCommunicator)
#include "test_communicator.moc"
