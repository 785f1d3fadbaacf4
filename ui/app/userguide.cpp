#include "ui/app/userguide.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace lbd::ui {

QString UserGuide::path()
{
    const QStringList candidates{
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/doc/lbd-studio/user-guide.md")),
        QStringLiteral(LBD_SOURCE_DIR "/docs/user-guide.md"),
    };
    for (const QString& candidate : candidates) {
        if (QFileInfo(candidate).isFile()) {
            return QFileInfo(candidate).canonicalFilePath();
        }
    }
    return {};
}

bool UserGuide::show(QWidget* parent)
{
    const QString guide = path();
    if (guide.isEmpty()) {
        return false;
    }
    auto* window = parent->findChild<QDialog*>(QStringLiteral("userGuide"));
    if (!window) {
        window = new QDialog(parent);
        window->setObjectName(QStringLiteral("userGuide"));
        window->setWindowTitle(QCoreApplication::translate("UserGuide", "LBD Studio user guide"));
        auto* browser = new QTextBrowser(window);
        browser->setObjectName(QStringLiteral("userGuideText"));
        browser->setOpenExternalLinks(true);
        // The Markdown's relative links (screenshots/...) resolve against the guide's folder.
        browser->setSource(QUrl::fromLocalFile(guide), QTextDocument::MarkdownResource);
        auto* layout = new QVBoxLayout(window);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(browser);
        window->resize(900, 680);
    }
    window->show();
    window->raise();
    return true;
}

} // namespace lbd::ui
