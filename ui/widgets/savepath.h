#pragma once
// A path from a save dialog with the file type's suffix: "runs" -> "runs.csv"; a path that
// already ends in it (any case) or an empty one (the dialog was cancelled) is left as it is.
#include <QFileInfo>
#include <QString>

namespace lbd::ui {

inline QString withSuffix(QString path, const QString& suffix)
{
    if (!path.isEmpty() && QFileInfo(path).suffix().compare(suffix, Qt::CaseInsensitive) != 0) {
        path += QLatin1Char('.') + suffix;
    }
    return path;
}

} // namespace lbd::ui
