#pragma once
// Classifies image files of any size, colour or grey, with a trained run: decoded with OpenCV,
// converted to the run's input format and normalisation, then every particle's distribution,
// the uncertainties and the decision under the run's (or a chosen) utility matrix and rule, what
// was done to the image, and the out-of-distribution check when the run has a fit (ood.json).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/infer/prediction.h"
#include "core/infer/rundecisions.h"
#include "core/lbd/utilitymatrix.h"

namespace lbd {

class Predictor {
public:
    // device: "cpu", "cuda[:N]" or "auto". Throws InputError when the run cannot be opened.
    explicit Predictor(const std::string& runDirectory, const std::string& device = "cpu");
    ~Predictor();
    Predictor(const Predictor&) = delete;
    Predictor& operator=(const Predictor&) = delete;

    // InputError naming the file when it is missing or not a decodable image.
    Prediction predictFile(const std::string& path, int topK = 5);
    Prediction predictBytes(const std::vector<uint8_t>& encoded, const std::string& label, int topK = 5);

    void setUtility(const UtilityMatrix& utility); // InputError if the size does not match
    void setRule(DecisionRule rule);
    // r, or nothing for no defer option; InputError when the rule has none or r is not finite.
    void setDeferUtility(std::optional<double> deferUtility);
    const UtilityMatrix& utility() const;
    DecisionRule rule() const;
    std::optional<double> deferUtility() const;
    const RunDecisions& runDecisions() const; // what the run itself recorded (and its notes)
    const std::vector<std::string>& classNames() const;
    int64_t particleCount() const;
    // Whether images get an out-of-distribution check (RUN/ood.json fitted on this checkpoint),
    // and in words: the score and what it was fitted on, or why there is no check.
    bool hasOodFit() const;
    std::string oodSummary() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace lbd
