// The published code's decision and metrics (lbd-math.md section 6) on the hand-checked vectors
// E (published ECE and AUC, with an image whose confidence 1 - H(q) is negative) and F (mean-logit
// from the exact log-softmax, where a 1e-12 floor would change the decision), and their place in
// the evaluation report and report.json.
#include "core/eval/decisions.h"
#include "core/eval/evaluator.h"
#include "core/eval/publishedmetrics.h"
#include "core/eval/reportjson.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace lbd;

namespace {

// Vector E: mean logits of 5 images (C = 3) and their labels. One particle whose probabilities are
// softmax(z): the mean of log p is z minus a constant per image, so q = softmax(z) as published.
torch::Tensor vectorEProbabilities(torch::Dtype dtype)
{
    const torch::Tensor z = torch::tensor({4.0, 0.0, 0.0, 2.0, 1.0, 0.0, 0.1, 0.0, 0.0, 1.0, 3.0, 0.0, 0.0, 2.5, 0.5},
                                          torch::kFloat64)
                                .view({5, 3});
    return torch::softmax(z, 1).unsqueeze(0).to(dtype);
}

const std::vector<int64_t> kVectorELabels = {0, 1, 0, 1, 2};

// Vector F: three particles' logits of one image.
torch::Tensor vectorFProbabilities(torch::Dtype dtype)
{
    const torch::Tensor logits = torch::tensor({30.0, -10.0, -12.0, 5.0, 22.0, -8.0, 5.0, 22.0, -8.0}, torch::kFloat64)
                                     .view({3, 1, 3});
    return torch::softmax(logits, 2).to(dtype);
}

} // namespace

class TestPublishedMetrics : public QObject {
    Q_OBJECT
private slots:
    void vectorEConfidenceIsOneMinusEntropy()
    {
        const torch::Tensor confidence = publishedConfidence(vectorEProbabilities(torch::kFloat64));
        const std::vector<double> expected = {0.82268, 0.16760, -0.09748, 0.47573, 0.41237};
        for (int64_t i = 0; i < 5; ++i) {
            QVERIFY2(std::abs(confidence[i].item<double>() - expected[size_t(i)]) < 5e-5,
                     qPrintable(QStringLiteral("image %1: %2").arg(i).arg(confidence[i].item<double>())));
        }
    }

    void vectorEEceCountsTheUnbinnedImageInTheDenominator()
    {
        const std::vector<double> confidence = {0.82268, 0.16760, -0.09748, 0.47573, 0.41237};
        const std::vector<bool> correct = {true, false, true, true, false};
        const PublishedCalibration calibration = publishedCalibration(confidence, correct);
        QCOMPARE(calibration.unbinned, int64_t(1));
        QVERIFY2(std::abs(calibration.ece - 0.09136) < 5e-5, qPrintable(QString::number(calibration.ece, 'f', 6)));
        // Dividing by the binned images only (the mistake this definition guards against) would give 0.1142.
        QVERIFY(std::abs(calibration.ece - 0.45682 / 4) > 0.01);
    }

    void vectorEFromProbabilities()
    {
        for (const auto dtype : {torch::kFloat64, torch::kFloat32}) {
            const PublishedMetrics metrics = publishedMetrics(vectorEProbabilities(dtype), kVectorELabels);
            QCOMPARE(metrics.accuracy, 0.6); // decisions [0, 0, 0, 1, 1], correct [1, 0, 1, 1, 0]
            QCOMPARE(metrics.unbinned, int64_t(1));
            QVERIFY2(std::abs(metrics.ece - 0.09136) < 5e-5, qPrintable(QString::number(metrics.ece, 'f', 6)));
            QVERIFY(metrics.auroc.has_value());
            QVERIFY2(std::abs(*metrics.auroc - 2.0 / 3.0) < 1e-9, qPrintable(QString::number(*metrics.auroc, 'f', 6)));
        }
    }

    void vectorFMeanLogitUsesTheExactLogSoftmax()
    {
        for (const auto dtype : {torch::kFloat64, torch::kFloat32}) {
            const torch::Tensor probs = vectorFProbabilities(dtype);
            const Decisions decided = decide(probs, UtilityMatrix::oneHot(3), DecisionRule::MeanLogit);
            QCOMPARE(decided.decisions[0].item<int64_t>(), int64_t(0)); // mean logits [13.333, 11.333, -9.333]
            // The scores are the mean logits minus one constant: their differences are exact.
            const torch::Tensor scores = decided.scores[0].to(torch::kFloat64);
            QVERIFY2(std::abs((scores[0] - scores[1]).item<double>() - 2.0) < 1e-3,
                     qPrintable(QString::number((scores[0] - scores[1]).item<double>(), 'f', 6)));
            // The bug vector F catches: probabilities floored at 1e-12 before the log decide class 1.
            const torch::Tensor floored = probs.clamp_min(1e-12).log().mean(0);
            QCOMPARE(floored.argmax(1)[0].item<int64_t>(), int64_t(1));
            // The published metrics decide the same way.
            QCOMPARE(publishedMetrics(probs, {0}).accuracy, 1.0);
        }
    }

    void theEvaluationReportCarriesThePublishedMetrics()
    {
        const torch::Tensor probs = vectorEProbabilities(torch::kFloat32);
        const torch::Tensor labels = torch::tensor({0, 1, 0, 1, 2}, torch::kInt64);
        const EvaluationReport report = evaluate(probs, labels, {30, 20, 10}, UtilityMatrix::oneHot(3), DecisionRule::Expected);
        QVERIFY(report.published.has_value());
        QVERIFY(std::abs(report.published->ece - 0.09136) < 5e-5);
        // Ours differs: 15 bins of pbar of the decision, over the binned images.
        QVERIFY(std::abs(report.calibration.ece - report.published->ece) > 1e-3);
        const nlohmann::json json = reportToJson(report);
        QVERIFY(json.contains("published"));
        QVERIFY(std::abs(json["published"]["ece"].get<double>() - 0.09136) < 5e-5);
        QCOMPARE(json["published"]["unbinned"].get<int64_t>(), int64_t(1));
        const EvaluationReport back = reportFromJson(json);
        QVERIFY(back.published.has_value());
        QCOMPARE(back.published->ece, report.published->ece);
        QCOMPARE(*back.published->auroc, *report.published->auroc);
        // A report written before the published metrics reads without them, not with zeros.
        nlohmann::json old = json;
        old.erase("published");
        QVERIFY(!reportFromJson(old).published.has_value());
    }
};

QTEST_APPLESS_MAIN(TestPublishedMetrics)
#include "test_publishedmetrics.moc"
