// The only UI translation unit that reaches torch (through core/data/dataset.h); it includes no
// Qt header, so the `slots` clash cannot happen here.
#include "ui/engine/datasetscan.h"

#include "core/data/datapreparation.h"

#include <exception>

namespace lbd::ui {

DatasetScan scanDataset(const lbd::DataSpec& spec)
{
    DatasetScan scan;
    try {
        lbd::PreparedData prepared = lbd::prepareData(spec);
        scan.classNames = prepared.dataset.classNames;
        scan.trainCounts = prepared.trainCounts;
        scan.testCounts = prepared.testCounts;
        lbd::DataSummary summary = lbd::summarizeData(prepared, spec);
        scan.summary = std::move(summary.lines);
        scan.warnings = std::move(summary.warnings);
    } catch (const std::exception& error) {
        scan.error = error.what();
    } catch (...) {
        scan.error = "unknown error while reading the data set";
    }
    return scan;
}

} // namespace lbd::ui
