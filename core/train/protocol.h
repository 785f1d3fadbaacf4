#pragma once
// The named protocols of lbd-math.md section 8: which training utility, decision rule and metrics
// a number follows, so that a number compared with the paper's tables says how it was made.
// Torch-free and Qt-free: config files, presets, studies, the CLI and the GUI name them from here.
#include <string>
#include <vector>

namespace lbd {

enum class Protocol {
    App,           // the user's own training utility; decisions by the user's rule and matrix
    PaperStandard, // one-hot training utility (utility term zero), mean-logit decision, published metrics beside ours
    PaperTail,     // tail-sensitive training utility c = 1, mean-logit decision, FHR by the code convention
};

struct ProtocolInfo {
    Protocol protocol;
    std::string name;        // "app", "paper-standard", "paper-tail": config files and the CLI
    std::string title;       // short label for tables and headers
    std::string description; // one or two sentences for tooltips and --help
};

const std::vector<ProtocolInfo>& protocols();
const ProtocolInfo& protocolInfo(Protocol protocol);
std::string protocolName(Protocol protocol);
// Throws InputError naming the text and the accepted names.
Protocol parseProtocol(const std::string& text);
std::string protocolNameList(); // "app, paper-standard or paper-tail"

} // namespace lbd
