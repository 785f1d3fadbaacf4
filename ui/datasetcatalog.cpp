#include "ui/datasetcatalog.h"

#include "core/data/longtailspec.h"
#include "core/data/syntheticspec.h"

#include <QFile>

#include <QObject>

namespace lbd::ui {

QString datasetTitle(lbd::DatasetKind kind)
{
    switch (kind) {
    case lbd::DatasetKind::FashionMnist: return QObject::tr("Fashion-MNIST");
    case lbd::DatasetKind::Mnist: return QObject::tr("MNIST");
    case lbd::DatasetKind::Cifar10: return QObject::tr("CIFAR-10 (directory)");
    case lbd::DatasetKind::Cifar100: return QObject::tr("CIFAR-100 (directory)");
    case lbd::DatasetKind::Folder: return QObject::tr("Image folder");
    case lbd::DatasetKind::List: return QObject::tr("List files");
    case lbd::DatasetKind::Synthetic: return QObject::tr("Synthetic shapes");
    }
    return {};
}

QString datasetToolTip(lbd::DatasetKind kind)
{
    switch (kind) {
    case lbd::DatasetKind::FashionMnist:
        return QObject::tr("Fashion-MNIST (10 classes, 28x28 grayscale, zero-padded to 32x32). Empty directory: "
                           "the system copy in /usr/share/datasets/fashion-mnist.");
    case lbd::DatasetKind::Mnist: return QObject::tr("MNIST digits in IDX files (10 classes, 28x28 grayscale).");
    case lbd::DatasetKind::Cifar10:
        return QObject::tr("CIFAR-10 binary batches (cifar-10-batches-bin). CIFAR-10-LT is one of the paper's benchmarks.");
    case lbd::DatasetKind::Cifar100:
        return QObject::tr("CIFAR-100 binary files (cifar-100-binary). CIFAR-100-LT is one of the paper's benchmarks.");
    case lbd::DatasetKind::Folder:
        return QObject::tr("A folder with one sub-folder per class (optionally train/ and test/). Classes are "
                           "ordered by training count, head first.");
    case lbd::DatasetKind::List:
        return QObject::tr("Text files listing 'path label' per line for the training and test splits "
                           "(the ImageNet-LT format).");
    case lbd::DatasetKind::Synthetic:
        return QObject::tr("A seeded procedural data set of textured shapes: learnable, generated in milliseconds; "
                           "for quick runs and tests.");
    }
    return {};
}

bool datasetNeedsDirectory(lbd::DatasetKind kind)
{
    return kind == lbd::DatasetKind::Cifar10 || kind == lbd::DatasetKind::Cifar100 || kind == lbd::DatasetKind::Folder
           || kind == lbd::DatasetKind::List;
}

bool datasetHasKnownCounts(lbd::DatasetKind kind)
{
    return kind != lbd::DatasetKind::Folder && kind != lbd::DatasetKind::List;
}

DatasetPreview datasetPreview(const lbd::DataSpec& spec)
{
    DatasetPreview preview;
    int64_t classes = 0;
    int64_t perClass = 0;
    switch (spec.kind) {
    case lbd::DatasetKind::FashionMnist:
        preview.classNames = {QObject::tr("T-shirt/top"), QObject::tr("Trouser"), QObject::tr("Pullover"),
                              QObject::tr("Dress"),       QObject::tr("Coat"),    QObject::tr("Sandal"),
                              QObject::tr("Shirt"),       QObject::tr("Sneaker"), QObject::tr("Bag"),
                              QObject::tr("Ankle boot")};
        classes = 10;
        perClass = 6000;
        preview.exact = true;
        break;
    case lbd::DatasetKind::Mnist:
        for (int i = 0; i < 10; ++i) {
            preview.classNames << QString::number(i);
        }
        classes = 10;
        perClass = 5421; // the smallest MNIST class: every class can fill n_max
        break;
    case lbd::DatasetKind::Cifar10:
        preview.classNames = {QObject::tr("airplane"), QObject::tr("automobile"), QObject::tr("bird"),
                              QObject::tr("cat"),      QObject::tr("deer"),       QObject::tr("dog"),
                              QObject::tr("frog"),     QObject::tr("horse"),      QObject::tr("ship"),
                              QObject::tr("truck")};
        classes = 10;
        perClass = 5000;
        preview.exact = true;
        break;
    case lbd::DatasetKind::Cifar100:
        classes = 100;
        perClass = 500;
        preview.exact = true;
        // The names the loader will use: fine_label_names.txt when the directory has it (else
        // "class i", as the loader falls back to), so a utility file saved with them loads.
        for (const QString& folder : {QString::fromStdString(spec.directory),
                                      QString::fromStdString(spec.directory) + QStringLiteral("/cifar-100-binary")}) {
            QFile names(folder + QStringLiteral("/fine_label_names.txt"));
            if (!spec.directory.empty() && names.open(QIODevice::ReadOnly | QIODevice::Text)) {
                QStringList read;
                for (const QByteArray& line : names.readAll().split('\n')) {
                    const QString name = QString::fromUtf8(line).trimmed();
                    if (!name.isEmpty()) {
                        read << name;
                    }
                }
                if (read.size() == 100) {
                    preview.classNames = read;
                    break;
                }
            }
        }
        break;
    case lbd::DatasetKind::Synthetic:
        for (int64_t c = 0; c < spec.synthetic.classes; ++c) {
            preview.classNames << QString::fromStdString(lbd::syntheticClassName(c));
        }
        classes = spec.synthetic.classes;
        perClass = spec.synthetic.trainPerClass;
        preview.exact = true;
        break;
    case lbd::DatasetKind::Folder:
    case lbd::DatasetKind::List:
        return preview;
    }
    if (preview.classNames.isEmpty()) {
        for (int64_t i = 0; i < classes; ++i) {
            preview.classNames << QObject::tr("class %1").arg(i);
        }
    }
    try {
        preview.trainCounts = lbd::longTailCounts(perClass, classes, spec.longTail);
    } catch (const std::exception&) {
        preview.trainCounts.clear(); // an invalid ratio: the panel shows the validation message
    }
    return preview;
}

} // namespace lbd::ui
