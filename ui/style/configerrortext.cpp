#include "ui/style/configerrortext.h"

#include <QCoreApplication>
#include <QObject>
#include <QRegularExpression>

namespace lbd::ui {
namespace {

struct PanelField {
    const char* key;   // without its section ("data_dir" for data.data_dir): core's DataSpec omits it
    const char* words; // the panel's label and group
};

// The keys of the fields the experiment panel shows, in its own labels (ui/panels/*section.cpp).
const PanelField kFields[] = {
    {"data_dir", QT_TRANSLATE_NOOP("ConfigError", "Directory (Data)")},
    {"train_list", QT_TRANSLATE_NOOP("ConfigError", "Train list (Data)")},
    {"test_list", QT_TRANSLATE_NOOP("ConfigError", "Test list (Data)")},
    {"imbalance_ratio", QT_TRANSLATE_NOOP("ConfigError", "Imbalance ratio (Data)")},
    {"val_fraction", QT_TRANSLATE_NOOP("ConfigError", "Validation (Data)")},
    {"channels", QT_TRANSLATE_NOOP("ConfigError", "Channels (Data)")},
    {"image_size", QT_TRANSLATE_NOOP("ConfigError", "Image size (Data)")},
    {"profile", QT_TRANSLATE_NOOP("ConfigError", "Long-tail profile (Data)")},
    {"particles", QT_TRANSLATE_NOOP("ConfigError", "Particles M (Model and objective)")},
    {"drw_epoch", QT_TRANSLATE_NOOP("ConfigError", "DRW epoch (Model and objective)")},
    {"epochs", QT_TRANSLATE_NOOP("ConfigError", "Epochs (Optimisation and run)")},
    {"batch_size", QT_TRANSLATE_NOOP("ConfigError", "Batch size (Optimisation and run)")},
    {"learning_rate", QT_TRANSLATE_NOOP("ConfigError", "Learning rate (Optimisation and run)")},
    {"warmup_epochs", QT_TRANSLATE_NOOP("ConfigError", "Warm-up epochs (Optimisation and run)")},
    {"eval_every", QT_TRANSLATE_NOOP("ConfigError", "Evaluate every (Optimisation and run)")},
};

} // namespace

QString configErrorInPanelWords(const QString& error)
{
    // A required folder or list: say what to do, not which key is empty.
    static const QRegularExpression required(
        QStringLiteral("^(?:data\\.)?data_dir is required for the (\\S+) data set"));
    if (const QRegularExpressionMatch match = required.match(error); match.hasMatch()) {
        return match.captured(1) == QLatin1String("folder")
                   ? QObject::tr("Choose the folder of your images (Data > Directory: Browse...).")
                   : QObject::tr("Choose the folder of the %1 data set's files (Data > Directory: Browse...).")
                         .arg(match.captured(1));
    }
    static const QRegularExpression lists(QStringLiteral("^(?:data\\.)?train_list and test_list are required"));
    if (lists.match(error).hasMatch()) {
        return QObject::tr("Choose the training and test lists (Data > Train list and Test list).");
    }
    // "[section.]key rest": the key becomes the panel's label and group.
    static const QRegularExpression leadingKey(QStringLiteral("^(?:[a-z]+\\.)?([a-z_]+)( .*)$"),
                                               QRegularExpression::DotMatchesEverythingOption);
    if (const QRegularExpressionMatch match = leadingKey.match(error); match.hasMatch()) {
        for (const PanelField& field : kFields) {
            if (match.captured(1) == QLatin1String(field.key)) {
                return QCoreApplication::translate("ConfigError", field.words) + match.captured(2);
            }
        }
    }
    return error;
}

} // namespace lbd::ui
