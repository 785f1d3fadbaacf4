#include "app/cli/command.h"

#include <map>

namespace lbd::cli {
namespace {

std::map<const CLI::Option*, std::vector<std::string>>& registry()
{
    static std::map<const CLI::Option*, std::vector<std::string>> words;
    return words;
}

} // namespace

CLI::Option* choices(CLI::Option* option, const std::vector<std::string>& words)
{
    registry()[option] = words;
    return option->check(CLI::IsMember(words));
}

std::vector<std::string> completionWords(const CLI::Option* option)
{
    const auto found = registry().find(option);
    return found == registry().end() ? std::vector<std::string>{} : found->second;
}

} // namespace lbd::cli
