#pragma once
// "Start from" in the model section of the experiment panel (model.init_from): scratch, a file
// (a torchvision ResNet-50 state dict, or any run's weights.pt) or an earlier run's folder. A
// chosen file is checked at once against the architecture and particle count shown
// (lbd::checkInitialWeights, the run's own checks, nothing copied): an incompatible one is refused
// here, with the reason under the choice, and the previous choice stays.
#include <QWidget>

#include <functional>

#include "core/model/modelspec.h"

class QComboBox;
class QLabel;

namespace lbd::ui {

class StartFromRow final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StartFromRow)

public:
    enum Choice { Scratch = 0, File = 1, Run = 2 };

    explicit StartFromRow(QWidget* parent = nullptr);

    // The model the choice must fit (arch and particles as the section shows them).
    void setModelProvider(std::function<lbd::ModelSpec()> provider) { m_model = std::move(provider); }
    // Replaces the file dialogs (tests): returns the chosen path, or empty for cancel.
    void setChooser(std::function<QString(Choice)> chooser) { m_chooser = std::move(chooser); }

    // A config's model.init_from, shown without a check (the run checks it when it starts).
    void setPath(const QString& path);
    QString path() const { return m_path; }

    // Checks `path` for `choice` (File or Run) and takes it if it fits; false (and the reason
    // shown) if not. What choosing in the combo box does after the dialog.
    bool choose(Choice choice, const QString& path);
    // Checks the current choice again (the architecture or particle count changed): only the
    // message changes.
    void recheck();
    QString message() const;

signals:
    void changed();

private:
    void onActivated(int index);
    void showChoice();
    void showMessage(const QString& text, bool error);

    QComboBox* m_mode = nullptr;
    QLabel* m_status = nullptr;
    QString m_path;
    Choice m_choice = Scratch;
    std::function<lbd::ModelSpec()> m_model;
    std::function<QString(Choice)> m_chooser;
};

} // namespace lbd::ui
