#include "ui/panels/datasetsection.h"

#include "datasets/catalogue.h"
#include "ui/panels/datasetcacherow.h"
#include "ui/panels/datasetcatalog.h"
#include "ui/engine/datasetscan.h"
#include "ui/widgets/classcountchart.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <memory>

namespace lbd::ui {
namespace {

QSpinBox* spin(QWidget* parent, int lo, int hi, const QString& tip, const QString& name)
{
    auto* box = new QSpinBox(parent);
    box->setRange(lo, hi);
    box->setToolTip(tip);
    box->setObjectName(name);
    box->setKeyboardTracking(false);
    return box;
}

QWidget* formBlock(QWidget* parent, QFormLayout** form)
{
    auto* block = new QWidget(parent);
    *form = new QFormLayout(block);
    (*form)->setContentsMargins(0, 0, 0, 0);
    return block;
}

} // namespace

DatasetSection::DatasetSection(QWidget* parent) : QWidget(parent)
{
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("datasetKind"));
    // Every entry of the catalogue, in its order; the item's data is the entry's name.
    for (const lbd::DatasetEntry* entry : lbd::datasetEntries()) {
        m_kind->addItem(datasetTitle(*entry), QString::fromStdString(entry->name));
        m_kind->setItemData(m_kind->count() - 1, datasetToolTip(*entry), Qt::ToolTipRole);
    }
    m_kind->setToolTip(tr("The data set to make long-tailed. The paper's benchmarks: CIFAR-10-LT, CIFAR-100-LT, "
                          "ImageNet-LT; Fashion-MNIST-LT is the quick default here."));

    m_directory = new QLineEdit(this);
    m_directory->setObjectName(QStringLiteral("datasetDirectory"));
    m_directory->setPlaceholderText(tr("default location"));
    m_directory->setToolTip(tr("Directory holding the data set files."));
    // The field is narrow beside Browse... at 1024 pixels (it shows the path's end): the tooltip
    // has the whole path.
    connect(m_directory, &QLineEdit::textChanged, this, [this](const QString& path) {
        const QString what = tr("Directory holding the data set files.");
        m_directory->setToolTip(path.isEmpty() ? what : what + QLatin1Char('\n') + path);
    });
    m_browse = new QPushButton(tr("Browse..."), this);
    m_directoryRow = new QWidget(this);
    auto* dirLayout = new QHBoxLayout(m_directoryRow);
    dirLayout->setContentsMargins(0, 0, 0, 0);
    dirLayout->addWidget(m_directory, 1);
    dirLayout->addWidget(m_browse);

    QFormLayout* listForm = nullptr;
    m_listRows = formBlock(this, &listForm);
    m_trainList = new QLineEdit(m_listRows);
    m_trainList->setObjectName(QStringLiteral("trainList"));
    m_trainList->setToolTip(tr("Training list: one 'relative/path.jpg label' per line (relative to the directory)."));
    m_testList = new QLineEdit(m_listRows);
    m_testList->setObjectName(QStringLiteral("testList"));
    m_testList->setToolTip(tr("Test list, same format. The test split stays as it is (not long-tailed)."));
    listForm->addRow(tr("Train list"), m_trainList);
    listForm->addRow(tr("Test list"), m_testList);

    QFormLayout* formatForm = nullptr;
    m_formatRows = formBlock(this, &formatForm);
    m_channels = spin(m_formatRows, 0, 3, tr("Images are converted to 1 (grayscale) or 3 (RGB) channels; \"from the "
                                             "images\" keeps grey images grey (1 when every image is grey, else 3)."),
                      QStringLiteral("imageChannels"));
    m_channels->setSpecialValueText(tr("from the images"));
    m_imageSize = spin(m_formatRows, 8, 1024, tr("Images are resized to this many pixels square."),
                       QStringLiteral("imageSize"));
    // 0 (from the images), 1 or 3: a step onto 2 goes on to the next allowed value.
    connect(m_channels, &QSpinBox::valueChanged, this, [this](int value) {
        if (value == 2) {
            m_channels->setValue(m_lastChannels < 2 ? 3 : 1);
            return;
        }
        m_lastChannels = value;
    });
    formatForm->addRow(tr("Channels"), m_channels);
    formatForm->addRow(tr("Image size"), m_imageSize);

    QFormLayout* synthForm = nullptr;
    m_syntheticRows = formBlock(this, &synthForm);
    m_synthClasses = spin(m_syntheticRows, 2, 100, tr("Number of classes C of the synthetic data set."),
                          QStringLiteral("syntheticClasses"));
    m_synthPerClass = spin(m_syntheticRows, 1, 100000, tr("Training images per class before the long-tailed split (n_max)."),
                           QStringLiteral("syntheticTrainPerClass"));
    m_synthTestPerClass = spin(m_syntheticRows, 1, 100000, tr("Test images per class (the test set stays balanced)."),
                               QStringLiteral("syntheticTestPerClass"));
    m_synthSize = spin(m_syntheticRows, 8, 256, tr("Side of the square synthetic images, in pixels."),
                       QStringLiteral("syntheticSize"));
    synthForm->addRow(tr("Classes"), m_synthClasses);
    synthForm->addRow(tr("Train / class"), m_synthPerClass);
    synthForm->addRow(tr("Test / class"), m_synthTestPerClass);
    synthForm->addRow(tr("Image size"), m_synthSize);

    m_profile = new QComboBox(this);
    m_profile->setObjectName(QStringLiteral("longTailProfile"));
    // Every profile core offers, with core's one-sentence description (lbd-math.md section 1).
    for (const lbd::LongTailProfile profile : lbd::allProfiles()) {
        m_profile->addItem(QString::fromStdString(lbd::profileName(profile)), static_cast<int>(profile));
        m_profile->setItemData(m_profile->count() - 1, QString::fromStdString(lbd::profileDescription(profile)), Qt::ToolTipRole);
    }
    m_profile->setToolTip(tr("exp (Cui et al. 2019, the CIFAR-LT standard): n_c = n_max (1/rho)^(c/(C-1)). step (Cao et "
                             "al. 2019): half the classes keep n_max, the rest n_max/rho. lbd-published: the published "
                             "code's split behind the paper's CIFAR tables (CIFAR-10: effective rho 62.5)."));
    m_ratio = new QDoubleSpinBox(this);
    m_ratio->setObjectName(QStringLiteral("imbalanceRatio"));
    m_ratio->setRange(1, 10000);
    m_ratio->setDecimals(1);
    m_ratio->setKeyboardTracking(false);
    m_ratio->setToolTip(tr("Imbalance ratio rho = n_max / n_min. The paper uses 100 (and 10, 50); 1 keeps the data balanced."));
    m_splitSeed = spin(this, 0, 1000000, tr("Seed of the random subset each class keeps. The split is a pure function of "
                                            "(data set, profile, ratio, seed) and is saved with the run."),
                       QStringLiteral("splitSeed"));

    m_validation = new QDoubleSpinBox(this);
    m_validation->setObjectName(QStringLiteral("validationFraction"));
    m_validation->setRange(0, 50);
    m_validation->setDecimals(1);
    m_validation->setSuffix(QStringLiteral(" %"));
    m_validation->setKeyboardTracking(false);
    m_validation->setToolTip(tr("Share of each class's long-tailed training images held out as a validation split "
                                "(seeded, saved with the run). 0: none. With a validation split the Decision lab tunes "
                                "c and r on it and reports the test set at the tuned value, and the Runs comparison "
                                "picks the best epoch by validation accuracy instead of the test set."));

    m_cache = new DatasetCacheRow(this);
    m_cache->setObjectName(QStringLiteral("datasetCacheRow"));
    connect(m_cache, &DatasetCacheRow::changed, this, [this] {
        if (!m_loading) {
            emit changed();
        }
    });

    m_chart = new ClassCountChart(this);
    m_chart->setObjectName(QStringLiteral("classCountChart"));
    // The counts a run will use and the classes too small to learn, or the whole reason the data
    // cannot be read: wrapped, never cut off (the chart's title is one line).
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("datasetSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setVisible(false);
    // Warnings (files left out, the data check, classes too small) in their own colour: the notes
    // of a messy folder (ignored, not read, nested, composited) run to ten lines at 1024 pixels,
    // and a warning coloured among them with the rest was not told apart.
    m_warnings = new QLabel(this);
    m_warnings->setObjectName(QStringLiteral("datasetWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setTextFormat(Qt::PlainText);
    m_warnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warnings->setStyleSheet(QStringLiteral("color: #8a5a00;"));
    m_warnings->setVisible(false);

    auto* form = new QFormLayout;
    form->addRow(tr("Data set"), m_kind);
    form->addRow(tr("Directory"), m_directoryRow);
    form->addRow(m_listRows);
    form->addRow(m_formatRows);
    form->addRow(m_syntheticRows);
    form->addRow(tr("Long-tail profile"), m_profile);
    form->addRow(tr("Imbalance ratio"), m_ratio);
    form->addRow(tr("Split seed"), m_splitSeed);
    form->addRow(tr("Validation"), m_validation);
    form->addRow(m_cache);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_warnings);
    layout->addWidget(m_summary);

    m_scanDebounce.setSingleShot(true);
    m_scanDebounce.setInterval(400);
    connect(&m_scanDebounce, &QTimer::timeout, this, &DatasetSection::startScan);
    connect(m_browse, &QPushButton::clicked, this, &DatasetSection::browse);

    const auto edited = [this] {
        if (m_loading) {
            return;
        }
        updateVisibility();
        refreshCounts();
        emit changed();
    };
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this, edited] {
        if (!m_loading && currentEntry().settings.imageFormat) {
            // A user's own images are trained as they are: a preset's long tail was for its data
            // set. Choosing a profile afterwards resamples them, and the summary shows what it keeps.
            m_loading = true;
            m_profile->setCurrentIndex(std::max(0, m_profile->findData(static_cast<int>(lbd::LongTailProfile::None))));
            m_ratio->setValue(1.0);
            m_channels->setMinimum(0);
            m_channels->setValue(0); // from the images: grey stays grey
            m_loading = false;
        }
        edited();
    });
    connect(m_profile, &QComboBox::currentIndexChanged, this, edited);
    connect(m_ratio, &QDoubleSpinBox::valueChanged, this, edited);
    connect(m_validation, &QDoubleSpinBox::valueChanged, this, edited);
    for (QSpinBox* box : {m_splitSeed, m_channels, m_imageSize, m_synthClasses, m_synthPerClass, m_synthTestPerClass, m_synthSize}) {
        connect(box, &QSpinBox::valueChanged, this, edited);
    }
    for (QLineEdit* line : {m_directory, m_trainList, m_testList}) {
        connect(line, &QLineEdit::editingFinished, this, edited);
        connect(line, &QLineEdit::textChanged, this, [this] {
            if (!m_loading) {
                emit changed();
            }
        });
    }
    load(lbd::DataSpec{});
}

DatasetSection::~DatasetSection() = default;

void DatasetSection::load(const lbd::DataSpec& spec)
{
    m_loading = true;
    m_base = spec;
    m_kind->setCurrentIndex(std::max(0, m_kind->findData(QString::fromStdString(spec.dataset))));
    m_directory->setText(QString::fromStdString(spec.directory));
    m_trainList->setText(QString::fromStdString(spec.trainList));
    m_testList->setText(QString::fromStdString(spec.testList));
    // Synthetic data has its own channel count; folders and list files are converted to spec.channels.
    m_channels->setMinimum(currentEntry().settings.synthetic ? 1 : 0);
    m_channels->setValue(int(currentEntry().settings.synthetic ? spec.synthetic.channels : spec.channels));
    m_imageSize->setValue(int(spec.imageSize));
    m_synthClasses->setValue(int(spec.synthetic.classes));
    m_synthPerClass->setValue(int(spec.synthetic.trainPerClass));
    m_synthTestPerClass->setValue(int(spec.synthetic.testPerClass));
    m_synthSize->setValue(int(spec.synthetic.size));
    m_profile->setCurrentIndex(std::max(0, m_profile->findData(static_cast<int>(spec.longTail.profile))));
    m_ratio->setValue(spec.longTail.imbalanceRatio);
    m_splitSeed->setValue(int(spec.longTail.seed));
    m_validation->setValue(100.0 * spec.longTail.validationFraction);
    m_cache->setUseCache(spec.cache == "auto");
    m_loading = false;
    updateVisibility();
    refreshCounts();
    emit changed();
}

void DatasetSection::apply(lbd::DataSpec& spec) const
{
    spec = m_base;
    spec.dataset = currentEntry().name;
    spec.directory = m_directory->text().trimmed().toStdString();
    spec.trainList = m_trainList->text().trimmed().toStdString();
    spec.testList = m_testList->text().trimmed().toStdString();
    if (currentEntry().settings.synthetic) {
        spec.synthetic.channels = m_channels->value();
    } else {
        spec.channels = m_channels->value();
    }
    spec.imageSize = m_imageSize->value();
    spec.synthetic.classes = m_synthClasses->value();
    spec.synthetic.trainPerClass = m_synthPerClass->value();
    spec.synthetic.testPerClass = m_synthTestPerClass->value();
    spec.synthetic.size = m_synthSize->value();
    spec.longTail.profile = static_cast<lbd::LongTailProfile>(m_profile->currentData().toInt());
    spec.longTail.imbalanceRatio = m_ratio->value();
    spec.longTail.seed = static_cast<uint64_t>(m_splitSeed->value());
    spec.longTail.validationFraction = m_validation->value() / 100.0;
    spec.cache = m_cache->useCache() ? "auto" : "off";
}

const lbd::DatasetEntry& DatasetSection::currentEntry() const
{
    const lbd::DatasetEntry* entry = lbd::findDataset(m_kind->currentData().toString().toStdString());
    return entry ? *entry : *lbd::datasetEntries().front();
}

void DatasetSection::updateVisibility()
{
    // The rows the entry's settings use (datasets/datasetentry.h: DatasetSettings).
    const lbd::DatasetEntry& entry = currentEntry();
    const lbd::DatasetSettings& uses = entry.settings;
    m_kind->setToolTip(datasetToolTip(entry));
    m_directoryRow->setEnabled(uses.directory);
    m_directory->setPlaceholderText(entry.requiresDirectory() ? tr("required") : tr("default location"));
    m_listRows->setVisible(uses.listFiles);
    m_formatRows->setVisible(uses.imageFormat || uses.synthetic);
    m_imageSize->setVisible(uses.imageFormat); // synthetic images have their own size
    m_channels->setMinimum(uses.synthetic ? 1 : 0); // synthetic data has no images to take it from
    // Profile none keeps every image: its ratio means nothing.
    m_ratio->setEnabled(static_cast<lbd::LongTailProfile>(m_profile->currentData().toInt()) != lbd::LongTailProfile::None);
    m_syntheticRows->setVisible(uses.synthetic);
    m_cache->setVisible(uses.imageFormat); // only image files are ever streamed
}

void DatasetSection::refreshCounts()
{
    lbd::DataSpec spec;
    apply(spec);
    m_scan.cancel(); // a scan still running is for the settings before this change
    m_cache->setSpec(spec);
    setDataError({});
    showSummary({});
    if (const DatasetPreview preview = datasetPreview(spec); preview.known) {
        m_counts = preview.trainCounts;
        m_names = preview.classNames;
        m_chart->setCounts(m_names, m_counts, preview.exact ? QString() : tr("estimate"));
        emit countsChanged();
        return;
    }
    m_counts.clear();
    m_names.clear();
    emit countsChanged();
    if (spec.directory.empty()) {
        m_chart->showMessage(tr("Choose the directory to see the class counts"));
        return;
    }
    m_chart->showMessage(tr("Reading the data set..."));
    m_scanDebounce.start();
}

void DatasetSection::startScan()
{
    lbd::DataSpec spec;
    apply(spec);
    m_scan.start([spec] { return scanDataset(spec); },
                 [this](const DatasetScan& result) {
                     if (!result.error.empty()) {
                         setDataError(QString::fromStdString(result.error));
                         return;
                     }
                     m_counts = result.trainCounts;
                     m_names.clear();
                     for (const std::string& name : result.classNames) {
                         m_names << QString::fromStdString(name);
                     }
                     m_chart->setCounts(m_names, m_counts);
                     showSummary(result);
                     emit countsChanged();
                 },
                 [this](const QString& error) { setDataError(error); });
}

void DatasetSection::setDataError(const QString& error)
{
    const bool changes = error != m_dataError;
    m_dataError = error;
    if (!error.isEmpty()) {
        const QString text = tr("Could not read the data set: %1").arg(error);
        m_chart->showMessage(tr("Could not read the data set (the reason is below)"));
        m_summary->setText(text);
        m_summary->setToolTip(text);
        m_summary->setStyleSheet(QStringLiteral("color: #b00020;"));
        m_summary->setVisible(true);
        m_warnings->clear();
        m_warnings->setVisible(false);
    }
    if (changes) {
        emit dataErrorChanged();
    }
}

void DatasetSection::showSummary(const DatasetScan& scan)
{
    QStringList lines;
    for (const std::string& line : scan.summary) {
        // A bullet per sentence: wrapped to the panel's width, the notes of a messy folder ran together.
        lines << QStringLiteral("\u2022 ") + QString::fromStdString(line);
    }
    QStringList warnings;
    for (const std::string& warning : scan.warnings) {
        warnings << tr("Warning: %1.").arg(QString::fromStdString(warning));
    }
    m_warningCount = static_cast<int>(warnings.size());
    const QString text = lines.join(QLatin1Char('\n'));
    m_summary->setText(text);
    m_summary->setToolTip(text);
    m_summary->setStyleSheet(QString());
    m_summary->setVisible(!text.isEmpty());
    m_warnings->setText(warnings.join(QLatin1Char('\n')));
    m_warnings->setVisible(!warnings.isEmpty());
}

QString DatasetSection::summaryText() const
{
    QStringList parts;
    if (!m_summary->isHidden()) {
        parts << m_summary->text();
    }
    if (!m_warnings->isHidden()) {
        parts << m_warnings->text();
    }
    return parts.join(QLatin1Char('\n'));
}

void DatasetSection::browse()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Data set directory (%1)").arg(datasetTitle(currentEntry())),
                                                          m_directory->text());
    if (!dir.isEmpty()) {
        m_directory->setText(dir);
        refreshCounts();
        emit changed();
    }
}

} // namespace lbd::ui
