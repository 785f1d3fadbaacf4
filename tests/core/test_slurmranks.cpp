// Data-parallel ranks from SLURM (issue 29 item 6): inside a job step (srun) SLURM_PROCID,
// SLURM_NTASKS and SLURM_LOCALID are the rank, the world size and the GPU where RANK and
// WORLD_SIZE are not given; torchrun's variables win where both are set; a batch script's own
// environment (no SLURM_STEP_ID) is one process; several nodes need MASTER_ADDR.
#include "core/dist/distributedspec.h"
#include "core/util/error.h"

#include <QtTest>

#include <map>
#include <string>

using namespace lbd;

namespace {

DistributedSpec specFor(const std::map<std::string, std::string>& env)
{
    return distributedSpecFromEnvironment([&env](const char* name) -> const char* {
        const auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    });
}

} // namespace

class TestSlurmRanks final : public QObject {
    Q_OBJECT

private slots:
    void stepTasksAreRanks()
    {
        const DistributedSpec spec = specFor({{"SLURM_STEP_ID", "0"}, {"SLURM_PROCID", "5"}, {"SLURM_NTASKS", "8"},
                                              {"SLURM_LOCALID", "1"}, {"SLURM_NNODES", "2"}, {"MASTER_ADDR", "node0"}});
        QVERIFY(spec.enabled());
        QCOMPARE(spec.rank, 5);
        QCOMPARE(spec.worldSize, 8);
        QCOMPARE(spec.localRank, 1);
        QCOMPARE(spec.masterAddress, std::string("node0"));
    }

    void torchrunVariablesWin()
    {
        const DistributedSpec spec = specFor({{"SLURM_STEP_ID", "0"}, {"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"},
                                              {"RANK", "3"}, {"WORLD_SIZE", "4"}, {"LOCAL_RANK", "3"}});
        QCOMPARE(spec.rank, 3);
        QCOMPARE(spec.worldSize, 4);
        QCOMPARE(spec.localRank, 3);
    }

    void batchScriptIsOneProcess()
    {
        // sbatch --ntasks=4 runs the script once, with these set: not rank 0 of 4.
        QVERIFY(!specFor({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "4"}, {"SLURM_LOCALID", "0"}}).enabled());
        QVERIFY(!specFor({{"SLURM_STEP_ID", "0"}, {"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "1"}}).enabled());
    }

    void badSlurmValuesAreNamed()
    {
        try {
            specFor({{"SLURM_STEP_ID", "0"}, {"SLURM_PROCID", "4"}, {"SLURM_NTASKS", "4"}, {"SLURM_NNODES", "1"}});
            QFAIL("SLURM_PROCID 4 of 4 was accepted");
        } catch (const InputError& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("SLURM_PROCID=4")), error.what());
        }
        try {
            specFor({{"SLURM_STEP_ID", "0"}, {"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "8"}, {"SLURM_NNODES", "2"}});
            QFAIL("two nodes without MASTER_ADDR were accepted");
        } catch (const InputError& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("MASTER_ADDR is not set")), error.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestSlurmRanks)
#include "test_slurmranks.moc"
