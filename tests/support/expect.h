#pragma once
// Checks that an action throws lbd::InputError whose message contains every fragment.
#include <QtGlobal>

#include <string>
#include <vector>

#include "core/util/error.h"

namespace lbd::test {

template <typename Action>
bool throwsInputError(Action action, const std::vector<std::string>& fragments)
{
    try {
        action();
    } catch (const InputError& error) {
        const std::string message = error.what();
        for (const auto& fragment : fragments) {
            if (message.find(fragment) == std::string::npos) {
                qWarning("message '%s' lacks '%s'", message.c_str(), fragment.c_str());
                return false;
            }
        }
        return true;
    } catch (const std::exception& other) {
        qWarning("expected InputError, got '%s'", other.what());
        return false;
    }
    qWarning("expected InputError, nothing was thrown");
    return false;
}

} // namespace lbd::test
