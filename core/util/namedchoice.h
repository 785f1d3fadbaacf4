#pragma once
// Enumerations a user names by a word (precisions, baselines, utility forms, discrepancy kinds,
// long-tail profiles): one lookup and one error that lists the words, not a loop and a message
// written again for each enumeration.
#include "core/util/error.h"

#include <string>
#include <vector>

namespace lbd {

// The value of `all` whose nameOf(value) is `text`; otherwise InputError "WHAT 'TEXT' is not
// known (use a, b or c)".
template <typename Enum, typename NameOf>
Enum parseNamedChoice(const std::string& text, const std::vector<Enum>& all, NameOf nameOf, const std::string& what)
{
    std::string words;
    for (size_t i = 0; i < all.size(); ++i) {
        if (nameOf(all[i]) == text) {
            return all[i];
        }
        words += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + nameOf(all[i]);
    }
    throw InputError(what + " '" + text + "' is not known (use " + words + ")");
}

} // namespace lbd
