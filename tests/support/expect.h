#pragma once
// Checks that an action throws lbd::InputError (or RunError) whose message contains every fragment.
#include <QtGlobal>

#include <string>
#include <vector>

#include "core/util/error.h"

namespace lbd::test {

template <typename Error, typename Action>
bool throwsErrorOf(Action action, const std::vector<std::string>& fragments, const char* errorName)
{
    try {
        action();
    } catch (const Error& error) {
        const std::string message = error.what();
        for (const auto& fragment : fragments) {
            if (message.find(fragment) == std::string::npos) {
                qWarning("message '%s' lacks '%s'", message.c_str(), fragment.c_str());
                return false;
            }
        }
        return true;
    } catch (const std::exception& other) {
        qWarning("expected %s, got '%s'", errorName, other.what());
        return false;
    }
    qWarning("expected %s, nothing was thrown", errorName);
    return false;
}

template <typename Action>
bool throwsInputError(Action action, const std::vector<std::string>& fragments)
{
    return throwsErrorOf<InputError>(action, fragments, "InputError");
}

template <typename Action>
bool throwsRunError(Action action, const std::vector<std::string>& fragments)
{
    return throwsErrorOf<RunError>(action, fragments, "RunError");
}

} // namespace lbd::test
