#pragma once
// Image files the image folder and list file tests write (PNG, through the decoder's writer).
#include <torch/torch.h>

#include <QDir>
#include <QString>

#include "core/data/imagedecoder.h"

namespace lbd::test {

// Writes `count` 20x24 colour PNGs (solid colour = shade + i) into dir/name.
inline void writeClass(const QString& dir, const QString& name, int count, int shade)
{
    QDir(dir).mkpath(name);
    for (int i = 0; i < count; ++i) {
        const auto image = torch::full({3, 20, 24}, shade + i, torch::kUInt8);
        writeImageFile((dir + "/" + name + QString("/img%1.png").arg(i)).toStdString(), image);
    }
}

} // namespace lbd::test
