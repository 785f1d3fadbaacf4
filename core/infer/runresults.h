#pragma once
// RunResults: a finished run's cached test-set results, opened for re-deciding without
// retraining (the GUI's decision lab and disagreement gallery): the config, the classes, each
// particle's test probabilities and the labels, and on request the test images in the same order.
// Plain std types only, so Qt translation units include this header without torch; the .cpp reads
// the LibTorch files and calls the same evaluate() as `lbd eval`.
#include <cstdint>
#include <string>
#include <vector>

#include "core/eval/decisionrule.h"
#include "core/eval/evaluationreport.h"
#include "core/eval/imageuncertainty.h"
#include "core/infer/rundecisions.h"
#include "core/lbd/utilitymatrix.h"
#include "core/train/trainconfig.h"

#include <optional>

namespace lbd {

// Which cached probabilities: the test split (always there once a run finished), or the
// validation split (only for runs trained with val_fraction / val_list). Tune on validation,
// report on test.
enum class ResultSplit { Test, Validation };
std::string resultSplitName(ResultSplit split); // "test", "validation"

struct RunResults {
    std::string directory;
    ResultSplit split = ResultSplit::Test;
    bool hasValidation = false;          // val_probabilities.pt exists beside the test ones
    TrainConfig config;                  // config.json
    RunDecisions decisions;              // the run's matrices (by value), rule, defer; notes for old runs
    std::vector<std::string> classNames; // run.json, head to tail
    std::vector<int64_t> trainCounts;    // run.json: the long-tailed training split, per class
    std::vector<int64_t> testCounts;     // run.json
    int64_t particles = 0;               // M
    int64_t images = 0;                  // N, test images
    int64_t classes = 0;                 // C
    std::vector<float> probabilities;    // [M][N][C] row-major: particle j's p(c | image n)
    std::vector<int64_t> labels;         // [N], true class of each test image

    // Particle j's distribution over the C classes for image n (C consecutive floats).
    const float* distribution(int64_t particle, int64_t image) const
    {
        return probabilities.data() + static_cast<size_t>((particle * images + image) * classes);
    }
};

// The classes of a run as its folder recorded them (run.json, written once the data is read):
// what every page shows about a run, whatever data set the experiment panel shows now.
struct RunClasses {
    std::vector<std::string> classNames; // head to tail
    std::vector<int64_t> trainCounts;    // the training split actually used, per class
    std::vector<int64_t> testCounts;
};
// Throws InputError naming run.json when it is missing (a run that never read its data) or damaged.
RunClasses loadRunClasses(const std::string& directory);

// Reads config.json, run.json and test_probabilities.pt (or val_probabilities.pt) of a run folder.
// Throws InputError naming the file when the folder is not a finished run or a file is missing,
// damaged or inconsistent, or when the validation split is asked for and the run has none.
RunResults loadRunResults(const std::string& directory, ResultSplit split = ResultSplit::Test);

// Every metric of the cached split under `utility`, `rule` and an optional defer utility: exactly
// evaluate() of core/eval/evaluator.h (what `lbd eval` calls) on the cached probabilities.
EvaluationReport evaluateRunResults(const RunResults& results, const UtilityMatrix& utility, DecisionRule rule,
                                    std::optional<double> deferUtility = std::nullopt);
// ... under the run's own decision settings.
EvaluationReport evaluateRunResults(const RunResults& results);

// The rule's confidence in its decision for every image (max EU for expected, max pbar for argmax,
// pbar of the decision otherwise): the order of the risk-coverage curve and what a defer utility
// competes with.
std::vector<double> decisionConfidences(const RunResults& results, const UtilityMatrix& utility, DecisionRule rule);

// The rule's decision for every image had there been no defer option: the "decided" of the
// report's confusion[true][decided], so a view can list exactly the images of one cell.
std::vector<int64_t> decidedClasses(const RunResults& results, const UtilityMatrix& utility, DecisionRule rule);

// The uncertainty of every test image (total, aleatoric, mutual information, vote disagreement,
// each particle's top-1), in the cached order.
std::vector<ImageUncertainty> imageUncertainties(const RunResults& results);

// The run's test images in the order of the cached probabilities (the trainer evaluates the data
// set's test split in file order, unshuffled).
struct TestImages {
    int64_t count = 0;
    int64_t channels = 0; // 1 (grey) or 3 (RGB)
    int64_t height = 0;
    int64_t width = 0;
    // uint8 [N][H][W][C] interleaved (rows of QImage::Format_Grayscale8 / Format_RGB888);
    // empty when the test split is streamed from disk (then `files` names each image).
    std::vector<uint8_t> pixels;
    std::vector<std::string> files;
    std::vector<int64_t> labels; // as read from the data set (checked equal to the cached labels)

    bool isStreamed() const { return !files.empty(); }
};

// Loads the run's data set as config.json describes it (can take seconds for image folders: call
// it off the GUI thread). Throws InputError when the data set cannot be read or its test split no
// longer matches the cached labels (count or any label differs), naming the first difference.
TestImages loadTestImages(const RunResults& results);

// Image n as H x W x C bytes, decoding the file when the split is streamed. InputError when n is
// out of range or the file cannot be decoded.
std::vector<uint8_t> testImagePixels(const TestImages& images, int64_t n);

} // namespace lbd
