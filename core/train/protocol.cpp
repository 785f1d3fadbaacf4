#include "core/train/protocol.h"

#include "core/util/error.h"

namespace lbd {

const std::vector<ProtocolInfo>& protocols()
{
    static const std::vector<ProtocolInfo> all = {
        {Protocol::App, "app", "app (your utility and rule)",
         "Your own settings: the training utility you chose and decisions by your rule and decision matrix "
         "(expected utility, the Bayes decision, by default). Numbers are not comparable with the paper's tables."},
        {Protocol::PaperStandard, "paper-standard", "paper-standard (one-hot, mean-logit)",
         "The paper's protocol for its accuracy, calibration, discrepancy-ratio, repulsion and particle tables "
         "(Tables 1/2, 4, 6, 7, Figure 3): trained with the one-hot utility, so the utility term is zero; decided by "
         "the published code's argmax of the mean logits; the published ECE and AUC reported beside ours."},
        {Protocol::PaperTail, "paper-tail", "paper-tail (tail-sensitive c = 1, mean-logit)",
         "The paper's protocol for its False Head Rate and utility-ablation tables (Tables 3 and 5): trained with the "
         "tail-sensitive utility, c = 1; decided by the argmax of the mean logits; False Head Rates at the published "
         "code's three points and along the whole curve."},
    };
    return all;
}

const ProtocolInfo& protocolInfo(Protocol protocol)
{
    for (const auto& info : protocols()) {
        if (info.protocol == protocol) {
            return info;
        }
    }
    return protocols().front();
}

std::string protocolName(Protocol protocol)
{
    return protocolInfo(protocol).name;
}

std::string protocolNameList()
{
    std::string list;
    const auto& all = protocols();
    for (size_t i = 0; i < all.size(); ++i) {
        list += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i].name;
    }
    return list;
}

Protocol parseProtocol(const std::string& text)
{
    for (const auto& info : protocols()) {
        if (info.name == text) {
            return info.protocol;
        }
    }
    throw InputError("protocol '" + text + "' is not known (use " + protocolNameList() + ")");
}

} // namespace lbd
