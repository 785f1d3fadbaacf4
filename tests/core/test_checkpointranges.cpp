// checkpoint.pt read back only within what training writes (issue 37 item 1, loadCheckpoint's
// checkCheckpointValues): epoch in 1..the run's train.epochs, one history line per epoch in order,
// the loss scaler's scale a power of two (2^16 doubled or halved) with a growth tracker in 0..1999
// and a whole skip count, every floating tensor finite. Each file here carries a valid checksum
// (saveCheckpoint writes it), so only the range checks can refuse it; a refusal names the file and
// the entry and leaves the model as it was.
#include "core/train/checkpoint.h"
#include "core/train/flatsgd.h"
#include "tests/support/expect.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <functional>

using namespace lbd;
using test::throwsInputError;

namespace {

std::string historyOf(int lines)
{
    std::string text;
    for (int epoch = 1; epoch <= lines; ++epoch) {
        text += "{\"epoch\":" + std::to_string(epoch) + ",\"train_loss\":0.5}\n";
    }
    return text;
}

} // namespace

class TestCheckpointRanges : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string path() const { return m_dir.filePath("checkpoint.pt").toStdString(); }

    // Saves a 3 -> 2 linear model with `state` (after `spoil` changed the model or optimiser),
    // then loads it into a fresh model for a run of `runEpochs`; true when refused naming each
    // fragment, the fresh model untouched.
    bool refused(const CheckpointState& state, int runEpochs, const std::vector<std::string>& fragments,
                 const std::function<void(torch::nn::Linear&, FlatSgd&)>& spoil = {})
    {
        torch::manual_seed(1);
        torch::nn::Linear written(3, 2);
        FlatSgd writtenOptimizer(written->parameters(), 0.9, true, 5e-4, false);
        if (spoil) {
            torch::NoGradGuard noGrad;
            spoil(written, writtenOptimizer);
        }
        saveCheckpoint(path(), *written, writtenOptimizer, state);
        torch::manual_seed(2);
        torch::nn::Linear fresh(3, 2);
        FlatSgd optimizer(fresh->parameters(), 0.9, true, 5e-4, false);
        const torch::Tensor before = fresh->weight.detach().clone();
        std::vector<std::string> expected = {path() + ": entry "};
        expected.insert(expected.end(), fragments.begin(), fragments.end());
        const bool ok = throwsInputError([&] { loadCheckpoint(path(), *fresh, &optimizer, runEpochs); }, expected);
        if (!torch::equal(before, fresh->weight.detach())) {
            qWarning("the refused checkpoint changed the model");
            return false;
        }
        return ok;
    }

private slots:
    void writtenValuesLoad()
    {
        torch::nn::Linear model(3, 2);
        FlatSgd optimizer(model->parameters(), 0.9, true, 5e-4, false);
        // The ends of each range: epoch = train.epochs, scale 2^-3 and 2^40, growth 1999.
        for (const float scale : {0.125f, 65536.0f, 1099511627776.0f}) {
            saveCheckpoint(path(), *model, optimizer, {4, historyOf(4), "{}", torch::tensor({scale, 1999.0f, 12.0f})});
            const CheckpointState loaded = loadCheckpoint(path(), *model, &optimizer, 4);
            QCOMPARE(loaded.epoch, 4);
            QCOMPARE(loaded.lossScaler[0].item<float>(), scale);
        }
        // Blank lines (a trailing newline) are not epochs; a checkpoint before the scaler was saved loads.
        saveCheckpoint(path(), *model, optimizer, {1, "\n" + historyOf(1) + "\n", "{}", torch::Tensor()});
        QCOMPARE(loadCheckpoint(path(), *model, nullptr, 200).epoch, 1);
    }

    void epochOutsideTheRun()
    {
        QVERIFY(refused({5, historyOf(5), "{}", {}}, 4, {"epoch = 5 is outside 1..4 (the run's train.epochs)"}));
        QVERIFY(refused({0, "", "{}", {}}, 4, {"epoch = 0 is outside 1..4"}));
        QVERIFY(refused({-7, "", "{}", {}}, 4, {"epoch = -7 is outside 1..4"}));
    }

    void historyNotOneLinePerEpoch()
    {
        QVERIFY(refused({4, historyOf(3), "{}", {}}, 10, {"history has 3 lines, not 4 (one per finished epoch"}));
        QVERIFY(refused({2, historyOf(3), "{}", {}}, 10, {"history has more than 2 lines, not 2"}));
        QVERIFY(refused({2, "{\"epoch\":1}\n{\"epoch\":7}\n", "{}", {}}, 10, {"history: line 2 is of epoch 7, not 2"}));
        QVERIFY(refused({1, "[1, 2]\n", "{}", {}}, 10, {"history, line 1: must be a JSON object (found an array)"}));
    }

    void lossScalerOutsideItsUpdate()
    {
        const auto scaler = [](float scale, float growth, float skipped) {
            return CheckpointState{2, historyOf(2), "{}", torch::tensor({scale, growth, skipped})};
        };
        // 1000 and 3 x 2^14 are no 2^16 doubled or halved; 0 and -2^16 are not positive.
        QVERIFY(refused(scaler(1000.0f, 0, 0), 2, {"train/loss_scaler[0] (scale) = 1000 is outside the positive powers of two"}));
        QVERIFY(refused(scaler(49152.0f, 0, 0), 2, {"train/loss_scaler[0] (scale) = 49152"}));
        QVERIFY(refused(scaler(0.0f, 0, 0), 2, {"train/loss_scaler[0] (scale) = 0"}));
        QVERIFY(refused(scaler(-65536.0f, 0, 0), 2, {"train/loss_scaler[0] (scale) = -65536"}));
        QVERIFY(refused(scaler(INFINITY, 0, 0), 2, {"train/loss_scaler[0] (scale) = inf"}));
        QVERIFY(refused(scaler(65536.0f, 2000.0f, 0), 2, {"train/loss_scaler[1] (growth tracker) = 2000 is outside 0..1999"}));
        QVERIFY(refused(scaler(65536.0f, 2.5f, 0), 2, {"train/loss_scaler[1] (growth tracker) = 2.5"}));
        QVERIFY(refused(scaler(65536.0f, 0, -1.0f), 2, {"train/loss_scaler[2] (skipped steps) = -1 is outside 0..16777215"}));
        QVERIFY(refused(scaler(65536.0f, 0, NAN), 2, {"train/loss_scaler[2] (skipped steps) = nan"}));
        CheckpointState twoValues = scaler(65536.0f, 0, 0);
        twoValues.lossScaler = torch::tensor({65536.0f, 0.0f});
        QVERIFY(refused(twoValues, 2, {"train/loss_scaler = [2] float is outside [3] floats"}));
    }

    void nonFiniteTensors()
    {
        const CheckpointState state{1, historyOf(1), "{}", {}};
        QVERIFY(refused(state, 1, {"param/weight holds NaN or infinite values"},
                        [](torch::nn::Linear& model, FlatSgd&) { model->weight[0][1] = NAN; }));
        QVERIFY(refused(state, 1, {"param/bias holds NaN or infinite values"},
                        [](torch::nn::Linear& model, FlatSgd&) { model->bias[1] = INFINITY; }));
        QVERIFY(refused(state, 1, {"optimizer/momentum holds NaN or infinite values"},
                        [](torch::nn::Linear&, FlatSgd& optimizer) { optimizer.momentumBuffer()[0] = -INFINITY; }));
    }
};

QTEST_APPLESS_MAIN(TestCheckpointRanges)
#include "test_checkpointranges.moc"
