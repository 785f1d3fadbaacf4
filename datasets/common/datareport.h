#pragma once
// What reading a folder or list of image files left out, ignored or found doubtful, said before a
// run starts (the experiment panel's data section, `lbd train`'s log) and kept in run.json
// ("data_report", "data_check"). A user's folder is messy (an empty file, .DS_Store, a README, a
// nested copy): a run trains on what can be read, and says what it did with the rest.
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

// data.on_bad_file: what an unreadable, empty or non-image file among the images does.
enum class BadFilePolicy { Skip, Refuse };
BadFilePolicy parseBadFilePolicy(const std::string& text); // "skip" | "refuse"; InputError otherwise
std::string badFilePolicyName(BadFilePolicy policy);

struct SkippedFile {
    std::string file;
    std::string reason; // the decoder's message without the path: "empty file", "cannot decode image ..."
};

struct NestedFolder {
    std::string folder;    // the nested folder's path
    std::string className; // the class it is counted in
    int64_t images = 0;    // image files under it
};

struct DataReport {
    std::vector<SkippedFile> skipped;   // bad image files left out (data.on_bad_file skip)
    std::vector<std::string> ignored;   // hidden and system files and folders (.DS_Store, Thumbs.db, ._*, .*)
    std::vector<std::string> notImages; // other files without an image extension (README.txt, .svg)
    std::vector<NestedFolder> nested;   // folders inside a class folder, counted in that class
    int64_t composited = 0;             // decoded images with transparency, composited on `background`
    int64_t turned = 0;                 // JPEGs turned upright by their EXIF orientation
    std::string background = "white";   // data.alpha_background's name
    bool checked = false;               // the data check ran (images in memory; a streamed split is not checked)
    std::vector<std::string> checkWarnings; // the data check: images that cannot be learnt as read

    bool empty() const;
    void append(const DataReport& other); // the test split's report after the training split's
};

// How many names the summaries list before "and N more".
inline constexpr size_t kNamesShown = 5;

// Sentences for the summary before Start: what was left out (a warning: the user should look),
// what was ignored, counted or composited (notes).
std::vector<std::string> dataReportNotes(const DataReport& report);
std::vector<std::string> dataReportWarnings(const DataReport& report);

// True for names a person did not put there as images: .DS_Store, Thumbs.db, desktop.ini, ._*,
// any name starting with '.', __MACOSX.
bool isHiddenOrSystemName(const std::string& name);

} // namespace lbd
