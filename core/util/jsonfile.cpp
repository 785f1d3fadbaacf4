#include "core/util/jsonfile.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"

namespace lbd {

nlohmann::json parseJsonText(const std::string& text, const std::string& source)
{
    const auto limitDepth = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
        if (depth > kMaxJsonDepth
            && (event == nlohmann::json::parse_event_t::object_start || event == nlohmann::json::parse_event_t::array_start)) {
            throw InputError(source + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        }
        return true;
    };
    try {
        return nlohmann::json::parse(text, limitDepth);
    } catch (const nlohmann::json::exception& error) {
        throw InputError(source + ": not valid JSON (" + error.what() + ")");
    }
}

nlohmann::json readJsonFile(const std::string& path) { return parseJsonText(readTextFile(path), path); }

} // namespace lbd
