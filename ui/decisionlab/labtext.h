#pragma once
// How the Decision lab writes its numbers: percentages, differences in points and relative
// changes, and "–" for a group with no test images (never "0 %", which would read as a result).
#include <QString>

#include <string>
#include <vector>

#include "core/eval/evaluationreport.h"

namespace lbd::ui::labtext {

// The mark for a value that does not exist (an empty group, an undefined change).
QString dash();
// "81.3 %"
QString percent(double rate);
// "81.3 %", or "–" when the group has no images.
QString percent(const lbd::GroupAccuracy& group);
// "+1.25" / "-0.50" / "0.00"
QString signedNumber(double value, int decimals);
// "-3.1 pts": rates as fractions in, percentage points out.
QString points(double labRate, double baselineRate);
// The difference of two groups in points, "–" when either is empty.
QString points(const lbd::GroupAccuracy& lab, const lbd::GroupAccuracy& baseline);
// "-34 % relative", or "" when the baseline is 0 (no relative change defined).
QString relative(double lab, double baseline);
// "-2.0 pts (-34 % relative)", or only the points when no relative change is defined.
QString change(double lab, double baseline);

// Messages (warnings, notes) as HTML lines, escaped.
QString htmlLines(const std::vector<std::string>& lines);

// The lab's warning banner (empty for a healthy evaluation), its headline (the chosen rule and
// matrix against one-hot argmax; a flagged evaluation shows its accuracy cost only, never a gain)
// and its defer summary.
QString warningsText(const lbd::EvaluationReport& lab);
QString headlineText(const lbd::EvaluationReport& lab, const lbd::EvaluationReport& base, const QString& evaluatedDescription);
QString deferText(const lbd::EvaluationReport& lab);
// "Calibrated probabilities ... ECE a -> b, NLL c -> d": for a report with a temperature and its uncalibrated summary.
QString calibrationNoteText(const lbd::EvaluationReport& lab);

} // namespace lbd::ui::labtext
