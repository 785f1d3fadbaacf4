#include "ui/app/userguide.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>
#include <QResizeEvent>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lbd::ui {
namespace {

// The guide's screenshots are 1600 pixels wide: at their own size they ran off the window. Each
// picture is drawn at most as wide as the text (its aspect kept), again whenever the window is
// resized; the files in docs/screenshots/ keep every pixel.
class GuideBrowser final : public QTextBrowser {
public:
    using QTextBrowser::QTextBrowser;

    void fitImages()
    {
        const double widest = std::max(120, viewport()->width() - 2 * int(document()->documentMargin()) - 4);
        QTextCursor cursor(document());
        for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QTextFragment fragment = it.fragment();
                if (!fragment.isValid() || !fragment.charFormat().isImageFormat()) {
                    continue;
                }
                QTextImageFormat image = fragment.charFormat().toImageFormat();
                const QVariant resource = document()->resource(QTextDocument::ImageResource, QUrl(image.name()));
                const QSize natural = resource.canConvert<QImage>() ? resource.value<QImage>().size()
                                                                     : resource.value<QPixmap>().size();
                if (natural.isEmpty()) {
                    continue;
                }
                const double width = std::min(double(natural.width()), widest);
                if (std::abs(image.width() - width) < 0.5) {
                    continue;
                }
                image.setWidth(width);
                image.setHeight(width * natural.height() / natural.width());
                cursor.setPosition(fragment.position());
                cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
                cursor.setCharFormat(image);
            }
        }
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QTextBrowser::resizeEvent(event);
        fitImages();
    }
};

} // namespace

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
        auto* browser = new GuideBrowser(window);
        browser->setObjectName(QStringLiteral("userGuideText"));
        browser->setOpenExternalLinks(true);
        // The Markdown's relative links (screenshots/...) resolve against the guide's folder.
        browser->setSource(QUrl::fromLocalFile(guide), QTextDocument::MarkdownResource);
        browser->fitImages();
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
