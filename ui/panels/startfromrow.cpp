#include "ui/panels/startfromrow.h"

#include "core/model/pretrainedload.h"
#include "core/train/runsroot.h"
#include "core/util/error.h"

#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QVBoxLayout>

namespace lbd::ui {
namespace {

QString tip()
{
    return QObject::tr(
        "What the weights start from.\n"
        "Scratch: a random initialisation (the seed's).\n"
        "A file: a torchvision ResNet-50 state dict (torch.save(model.state_dict())) for the resnet50 architecture: the "
        "stem, layer1 and layer2 are loaded into the shared trunk and layer3 and layer4 are copied into every particle; "
        "fc is not loaded: the cosine classifier is replaced and starts at random. A 3-channel file into grey images: "
        "conv1 summed over the colour channels. Any run's weights.pt also works here.\n"
        "An earlier run: its weights.pt (an unfinished run's checkpoint), for the same architecture and particle count, "
        "to fine-tune; its classifier is "
        "kept only when the data has the same classes, otherwise it starts afresh.\n"
        "The file is checked when chosen; the run's log says what was loaded into what.");
}

} // namespace

StartFromRow::StartFromRow(QWidget* parent) : QWidget(parent)
{
    m_mode = new QComboBox(this);
    m_mode->setObjectName(QStringLiteral("startFrom"));
    m_mode->addItem(tr("Scratch"));
    m_mode->addItem(tr("A file…"));
    m_mode->addItem(tr("An earlier run…"));
    m_mode->setToolTip(tip());
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("startFromStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_mode);
    layout->addWidget(m_status);
    m_chooser = [this](Choice choice) {
        const QString runs = QString::fromStdString(lbd::defaultRunsRoot());
        return choice == Run ? QFileDialog::getExistingDirectory(this, tr("Start from an earlier run"), runs)
                             : QFileDialog::getOpenFileName(this, tr("Start from weights"), runs,
                                                            tr("PyTorch weights (*.pt *.pth);;All files (*)"));
    };
    connect(m_mode, &QComboBox::activated, this, &StartFromRow::onActivated);
    showChoice();
}

void StartFromRow::setPath(const QString& path)
{
    m_path = path;
    m_choice = path.isEmpty() ? Scratch : (QFileInfo(path).isDir() ? Run : File);
    showChoice();
    showMessage(path.isEmpty() ? QString() : tr("Starts from %1").arg(path), false);
}

void StartFromRow::onActivated(int index)
{
    const auto choice = static_cast<Choice>(index);
    if (choice == Scratch) {
        m_path.clear();
        m_choice = Scratch;
        showMessage({}, false);
        emit changed();
        return;
    }
    const QString path = m_chooser ? m_chooser(choice) : QString();
    if (path.isEmpty()) {
        showChoice(); // cancelled: the previous choice stays
        return;
    }
    choose(choice, path);
}

bool StartFromRow::choose(Choice choice, const QString& path)
{
    const lbd::ModelSpec spec = m_model ? m_model() : lbd::ModelSpec{};
    QApplication::setOverrideCursor(Qt::WaitCursor); // builds the model once: a second for ResNet-50
    QString summary;
    QString error;
    try {
        const lbd::InitialWeightsReport report = lbd::checkInitialWeights(path.toStdString(), spec);
        summary = QString::fromStdString(report.kind);
        for (const std::string& line : report.lines) {
            summary += QStringLiteral("\n") + QString::fromStdString(line);
        }
    } catch (const std::exception& failure) { // InputError, and a c10::Error from a model that cannot be built
        error = QString::fromUtf8(failure.what());
    }
    QApplication::restoreOverrideCursor();
    if (!error.isEmpty()) {
        showChoice();
        showMessage(tr("Refused: %1").arg(error), true);
        return false;
    }
    m_path = path;
    m_choice = choice;
    showChoice();
    showMessage(tr("Starts from %1: %2").arg(path, summary), false);
    emit changed();
    return true;
}

void StartFromRow::recheck()
{
    if (m_path.isEmpty()) {
        return;
    }
    try {
        lbd::checkInitialWeights(m_path.toStdString(), m_model ? m_model() : lbd::ModelSpec{});
        showMessage(tr("Starts from %1").arg(m_path), false);
    } catch (const std::exception& failure) {
        showMessage(tr("Does not fit the model now: %1").arg(QString::fromUtf8(failure.what())), true);
    }
}

QString StartFromRow::message() const
{
    return m_status->text();
}

void StartFromRow::showChoice()
{
    m_mode->setCurrentIndex(m_choice);
    m_mode->setItemText(File, m_choice == File ? QFileInfo(m_path).fileName() : tr("A file…"));
    m_mode->setItemText(Run, m_choice == Run ? tr("Run %1").arg(QFileInfo(m_path).fileName()) : tr("An earlier run…"));
}

void StartFromRow::showMessage(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
    m_status->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

} // namespace lbd::ui
