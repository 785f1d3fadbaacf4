#include "ui/panels/datasetcatalog.h"

#include "core/data/longtailspec.h"
#include "datasets/catalogue.h"

#include <QObject>

namespace lbd::ui {

QString datasetTitle(const lbd::DatasetEntry& entry)
{
    return QString::fromStdString(entry.title.empty() ? entry.name : entry.title);
}

QString datasetToolTip(const lbd::DatasetEntry& entry)
{
    QString tip = QString::fromStdString(entry.description);
    if (!entry.defaultDirectory.empty()) {
        tip += QLatin1Char('\n') + QObject::tr("Empty directory: %1").arg(QString::fromStdString(entry.defaultDirectory));
    }
    if (!entry.obtain.empty()) {
        tip += QLatin1Char('\n') + QObject::tr("Get it: %1").arg(QString::fromStdString(entry.obtain));
    }
    if (!entry.licence.empty()) {
        tip += QLatin1Char('\n') + QObject::tr("Licence: %1").arg(QString::fromStdString(entry.licence));
    }
    return tip;
}

DatasetPreview datasetPreview(const lbd::DataSpec& spec)
{
    DatasetPreview preview;
    const lbd::DatasetEntry* entry = lbd::findDataset(spec.dataset);
    if (entry == nullptr) {
        return preview;
    }
    const lbd::DatasetPreview known = entry->previewFor(spec);
    if (known.imagesPerClass <= 0 || known.classNames.empty()) {
        return preview;
    }
    preview.known = true;
    preview.exact = known.exact;
    for (const std::string& name : known.classNames) {
        preview.classNames << QString::fromStdString(name);
    }
    try {
        preview.trainCounts =
            lbd::longTailCounts(known.imagesPerClass, static_cast<int64_t>(known.classNames.size()), spec.longTail);
    } catch (const std::exception&) {
        preview.trainCounts.clear(); // an invalid ratio: the panel shows the validation message
    }
    return preview;
}

} // namespace lbd::ui
