#include "core/util/jsonfile.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"

namespace lbd {
namespace {

// One linear pass over the text before nlohmann parses it: the nesting depth (outside strings)
// and an upper bound of the values it would allocate, so that neither a deep nor a huge document
// costs more than its limit. (A depth check in nlohmann's parser callback made parsing quadratic:
// 300,000 empty objects took 12 s to be refused.)
void checkJsonShape(const std::string& text, const std::string& source, int64_t maxValues)
{
    int depth = 0;
    int64_t values = 1;
    bool inString = false;
    bool escaped = false;
    for (const char c : text) {
        if (inString) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        switch (c) {
        case '"': inString = true; break;
        case '[':
        case '{':
            if (++depth > kMaxJsonDepth) {
                throw InputError(source + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
            }
            ++values;
            break;
        case ']':
        case '}': --depth; break;
        case ',':
        case ':':
            if (++values > maxValues) {
                throw InputError(source + ": JSON with more than " + std::to_string(maxValues)
                                 + " values, the limit for one document (is it the right file?)");
            }
            break;
        default: break;
        }
    }
}

} // namespace

nlohmann::json parseJsonText(const std::string& text, const std::string& source, int64_t maxValues)
{
    checkJsonShape(text, source, maxValues);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& error) {
        throw InputError(source + ": not valid JSON (" + error.what() + ")");
    }
}

nlohmann::json readJsonFile(const std::string& path, int64_t maxValues)
{
    return parseJsonText(readTextFile(path), path, maxValues);
}

} // namespace lbd
