#include "datasets/catalogue.h"

#include "datasets/common/error.h"

#include <deque>
#include <mutex>
#include <stdexcept>

namespace lbd {

// The built-in entries, in the order the GUI and --help list them. Each is a function
// `DatasetEntry <name>Entry()` defined in its folder (datasets/<entry>/); adding a format is that
// folder and one line here.
#define LBD_BUILT_IN_DATASETS(ENTRY) \
    ENTRY(fashionMnist)              \
    ENTRY(mnist)                     \
    ENTRY(cifar10)                   \
    ENTRY(cifar100)                  \
    ENTRY(imageFolder)               \
    ENTRY(listFiles)                 \
    ENTRY(synthetic)                 \
    /* end of the list */

#define LBD_DECLARE_ENTRY(name) DatasetEntry name##Entry();
LBD_BUILT_IN_DATASETS(LBD_DECLARE_ENTRY)
#undef LBD_DECLARE_ENTRY

namespace {

void checkEntry(const DatasetEntry& entry, const std::deque<DatasetEntry>& entries)
{
    if (entry.name.empty()) {
        throw std::invalid_argument("a data set entry needs a name");
    }
    if (!entry.read) {
        throw std::invalid_argument("data set entry '" + entry.name + "' has no reader");
    }
    for (const DatasetEntry& other : entries) {
        if (other.name == entry.name) {
            throw std::invalid_argument("data set '" + entry.name + "' is registered twice");
        }
    }
}

struct Catalogue {
    std::mutex mutex;
    std::deque<DatasetEntry> entries; // a deque: references stay valid as entries are added

    Catalogue()
    {
#define LBD_REGISTER_ENTRY(name) add(name##Entry());
        LBD_BUILT_IN_DATASETS(LBD_REGISTER_ENTRY)
#undef LBD_REGISTER_ENTRY
    }

    void add(DatasetEntry entry)
    {
        checkEntry(entry, entries);
        entries.push_back(std::move(entry));
    }
};

Catalogue& catalogue()
{
    static Catalogue instance;
    return instance;
}

} // namespace

std::vector<const DatasetEntry*> datasetEntries()
{
    Catalogue& c = catalogue();
    std::lock_guard<std::mutex> lock(c.mutex);
    std::vector<const DatasetEntry*> all;
    for (const DatasetEntry& entry : c.entries) {
        all.push_back(&entry);
    }
    return all;
}

std::vector<std::string> datasetNames()
{
    std::vector<std::string> names;
    for (const DatasetEntry* entry : datasetEntries()) {
        names.push_back(entry->name);
    }
    return names;
}

const DatasetEntry* findDataset(const std::string& name)
{
    for (const DatasetEntry* entry : datasetEntries()) {
        if (entry->name == name) {
            return entry;
        }
    }
    return nullptr;
}

const DatasetEntry& datasetEntry(const std::string& name)
{
    if (const DatasetEntry* entry = findDataset(name)) {
        return *entry;
    }
    const std::vector<std::string> names = datasetNames();
    std::string known;
    for (size_t i = 0; i < names.size(); ++i) {
        known += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    }
    throw InputError("dataset '" + name + "' is not known (use " + known + ")");
}

void registerDataset(DatasetEntry entry)
{
    Catalogue& c = catalogue();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.add(std::move(entry));
}

RawDataset readDataset(const DatasetOptions& options, uint64_t seed)
{
    const DatasetEntry& entry = datasetEntry(options.dataset);
    ReadRequest request;
    request.options = options;
    request.directory = entry.directoryFor(options);
    request.seed = seed;
    return entry.read(request);
}

} // namespace lbd
