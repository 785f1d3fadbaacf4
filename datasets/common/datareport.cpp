#include "datasets/common/datareport.h"

#include "datasets/common/error.h"

#include <algorithm>
#include <cctype>

namespace lbd {
namespace {

std::string lowered(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

std::string plural(size_t count, const std::string& one, const std::string& many)
{
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

// "a, b, c, d, e and 3 more".
std::string firstNames(const std::vector<std::string>& names)
{
    std::string text;
    for (size_t i = 0; i < names.size() && i < kNamesShown; ++i) {
        text += (i == 0 ? "" : ", ") + names[i];
    }
    if (names.size() > kNamesShown) {
        text += " and " + std::to_string(names.size() - kNamesShown) + " more";
    }
    return text;
}

} // namespace

BadFilePolicy parseBadFilePolicy(const std::string& text)
{
    if (text == "skip") {
        return BadFilePolicy::Skip;
    }
    if (text == "refuse") {
        return BadFilePolicy::Refuse;
    }
    throw InputError("data.on_bad_file: '" + text + "' is not skip or refuse");
}

std::string badFilePolicyName(BadFilePolicy policy)
{
    return policy == BadFilePolicy::Skip ? "skip" : "refuse";
}

bool DataReport::empty() const
{
    return skipped.empty() && ignored.empty() && notImages.empty() && nested.empty() && composited == 0 && turned == 0
        && checkWarnings.empty();
}

void DataReport::append(const DataReport& other)
{
    skipped.insert(skipped.end(), other.skipped.begin(), other.skipped.end());
    ignored.insert(ignored.end(), other.ignored.begin(), other.ignored.end());
    notImages.insert(notImages.end(), other.notImages.begin(), other.notImages.end());
    nested.insert(nested.end(), other.nested.begin(), other.nested.end());
    composited += other.composited;
    turned += other.turned;
    checkWarnings.insert(checkWarnings.end(), other.checkWarnings.begin(), other.checkWarnings.end());
}

std::vector<std::string> dataReportNotes(const DataReport& report)
{
    std::vector<std::string> notes;
    if (!report.ignored.empty()) {
        notes.push_back("ignored " + plural(report.ignored.size(), "hidden or system file", "hidden or system files") + ": "
                        + firstNames(report.ignored));
    }
    if (!report.notImages.empty()) {
        notes.push_back("not read (not an image file the app decodes): " + firstNames(report.notImages));
    }
    for (const NestedFolder& nested : report.nested) {
        notes.push_back("nested folder " + nested.folder + ": its " + plural(size_t(nested.images), "image", "images")
                        + " counted in class " + nested.className);
    }
    if (report.composited > 0) {
        notes.push_back(plural(size_t(report.composited), "image has", "images have") + " transparency: composited on "
                        + report.background + " (data.alpha_background)");
    }
    if (report.turned > 0) {
        notes.push_back(plural(size_t(report.turned), "JPEG was", "JPEGs were") + " turned upright by its EXIF orientation");
    }
    if (report.checked && report.checkWarnings.empty()) {
        // Said when it passed too: a user who saw the check fail once can see it pass after a fix.
        notes.push_back("data check passed: no class is one repeated image or flat colours, no image is in two classes");
    }
    return notes;
}

std::vector<std::string> dataReportWarnings(const DataReport& report)
{
    std::vector<std::string> warnings;
    if (!report.skipped.empty()) {
        std::vector<std::string> names;
        for (const SkippedFile& file : report.skipped) {
            names.push_back(file.file + " (" + file.reason + ")");
        }
        warnings.push_back("left out " + plural(report.skipped.size(), "file that could not be read", "files that could not be read")
                           + " (data.on_bad_file skip): " + firstNames(names));
    }
    warnings.insert(warnings.end(), report.checkWarnings.begin(), report.checkWarnings.end());
    return warnings;
}

bool isHiddenOrSystemName(const std::string& name)
{
    const std::string lower = lowered(name);
    return (!name.empty() && name[0] == '.') || lower == "thumbs.db" || lower == "desktop.ini" || lower == "__macosx"
        || lower == "ehthumbs.db";
}

} // namespace lbd
