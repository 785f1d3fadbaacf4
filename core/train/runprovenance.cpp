#include "core/train/runprovenance.h"

#include "core/util/buildinfo.h"
#include "core/util/machineinfo.h"
#include "datasets/catalogue.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

namespace lbd {
namespace {

namespace fs = std::filesystem;

// FNV-1a, 64 bits: stable across machines and versions (std::hash is neither).
class Fnv1a {
public:
    void add(const std::string& text)
    {
        for (const char c : text) {
            m_hash = (m_hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
        }
    }
    std::string hex() const
    {
        char text[17];
        std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(m_hash));
        return text;
    }

private:
    uint64_t m_hash = 14695981039346656037ull;
};

// "name<TAB>size<TAB>mtime" lines, sorted, with `name` relative to `root` where it lies below it.
struct FileList {
    std::set<std::string> lines;
    uintmax_t bytes = 0;

    void add(const fs::path& file, const fs::path& root)
    {
        std::error_code ec;
        const auto size = fs::file_size(file, ec);
        if (ec) {
            lines.insert(file.generic_string() + "\tmissing");
            return;
        }
        const auto time = fs::last_write_time(file, ec);
        const auto seconds = ec ? 0 : std::chrono::duration_cast<std::chrono::seconds>(time.time_since_epoch()).count();
        const fs::path relative = root.empty() ? file : file.lexically_relative(root);
        const std::string name = relative.empty() || *relative.begin() == ".." ? file.generic_string() : relative.generic_string();
        lines.insert(name + "\t" + std::to_string(size) + "\t" + std::to_string(seconds));
        bytes += size;
    }
};

fs::path resolve(const std::string& file, const fs::path& root)
{
    const fs::path path(file);
    return path.is_absolute() || root.empty() ? path : root / path;
}

// A list file's image paths: "relative/path label" lines (the path may hold spaces).
void addListed(FileList& files, const fs::path& list, const fs::path& root)
{
    files.add(list, root);
    std::ifstream in(list);
    for (std::string line; std::getline(in, line);) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
            line.pop_back();
        }
        const auto space = line.find_last_of(" \t");
        if (line.empty() || line[0] == '#' || space == std::string::npos) {
            continue;
        }
        files.add(resolve(line.substr(0, space), root), root);
    }
}

} // namespace

const std::vector<std::string>& provenanceKeys()
{
    static const std::vector<std::string> keys = {"lbd_version", "git_commit", "command_line", "host",  "cpu",
                                                  "gpu",         "gpu_driver", "cuda",         "cudnn", "nccl",
                                                  "libtorch",    "data_fingerprint"};
    return keys;
}

nlohmann::json currentProvenance(const DatasetOptions* data)
{
    const BuildInfo build = buildInfo();
    std::string gpus;
    for (const std::string& device : build.cudaDevices) {
        gpus += (gpus.empty() ? "" : ", ") + device;
    }
    std::string fingerprint = "unknown";
    if (data != nullptr) {
        try {
            fingerprint = dataFingerprint(*data);
        } catch (const std::exception& error) {
            fingerprint = std::string("unknown (") + error.what() + ")";
        }
    }
    return {{"lbd_version", build.lbdVersion},
            {"git_commit", build.gitCommit},
            {"command_line", commandLine()},
            {"host", hostName()},
            {"cpu", cpuModelName()},
            {"gpu", gpus.empty() ? std::string("none") : gpus},
            {"gpu_driver", build.cudaAvailable ? gpuDriverVersion() : std::string("none")},
            {"cuda", build.cudaVersion},
            {"cudnn", build.cudnnVersion},
            {"nccl", build.ncclVersion},
            {"libtorch", build.torchVersion},
            {"data_fingerprint", fingerprint}};
}

std::string dataFingerprint(const DatasetOptions& data)
{
    const DatasetEntry& entry = datasetEntry(data.dataset); // InputError for an unknown name
    Fnv1a hash;
    hash.add(data.dataset + "\n");
    FileList files;
    if (entry.settings.synthetic) {
        // Generated, not read: its parameters are its identity.
        const SyntheticSpec& s = data.synthetic;
        hash.add(std::to_string(s.classes) + " " + std::to_string(s.trainPerClass) + " " + std::to_string(s.testPerClass) + " "
                 + std::to_string(s.channels) + " " + std::to_string(s.size) + " " + std::to_string(s.seed) + "\n");
    } else {
        const fs::path root = entry.settings.directory ? fs::path(entry.directoryFor(data)) : fs::path();
        if (entry.settings.listFiles) {
            for (const std::string* list : {&data.trainList, &data.testList, &data.validationList}) {
                if (!list->empty()) {
                    addListed(files, resolve(*list, root), root);
                }
            }
            if (!data.classNamesFile.empty()) {
                files.add(resolve(data.classNamesFile, root), root);
            }
        } else if (!root.empty()) {
            std::error_code ec;
            for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
                 it.increment(ec)) {
                if (it->is_regular_file(ec)) {
                    files.add(it->path(), root);
                }
            }
        }
    }
    for (const std::string& line : files.lines) {
        hash.add(line + "\n");
    }
    return "fnv1a64:" + hash.hex() + " (" + std::to_string(files.lines.size()) + " files, " + std::to_string(files.bytes) + " bytes)";
}

} // namespace lbd
