// The Classify page's inputs: Open..., the clipboard, drag and drop (the page's list and
// classification are in classifypage.cpp).
#include "ui/pages/classifypage.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QDropEvent>
#include <QFileDialog>
#include <QLabel>
#include <QMimeData>
#include <QUrl>

namespace lbd::ui {

void ClassifyPage::pasteFromClipboard()
{
    const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
    if (mime != nullptr && !classifyMime(mime, tr("pasted image %1")) && mime->urls().isEmpty()) {
        m_status->setText(tr("<b style='color:#b00020'>The clipboard holds no image and no image files.</b>"));
    }
}

bool ClassifyPage::classifyMime(const QMimeData* mime, const QString& imageLabel)
{
    QStringList files;
    QStringList remote;
    for (const QUrl& url : mime->urls()) {
        url.isLocalFile() ? files << url.toLocalFile() : remote << url.toString();
    }
    if (!files.isEmpty()) {
        classifyFiles(files);
    } else if (mime->hasImage()) {
        classifyImage(qvariant_cast<QImage>(mime->imageData()), imageLabel.arg(++m_pasted));
    }
    if (!remote.isEmpty()) {
        m_status->setText(tr("<b style='color:#b00020'>Only local files can be classified; not downloaded: %1</b>")
                              .arg(remote.join(QStringLiteral(", ")).toHtmlEscaped()));
    }
    return !files.isEmpty() || mime->hasImage();
}

void ClassifyPage::openFiles()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Classify images"), QDir::homePath(),
        tr("Images (*.png *.jpg *.jpeg *.bmp *.gif *.tif *.tiff *.webp *.pgm *.ppm);;All files (*)"));
    if (!files.isEmpty()) {
        classifyFiles(files);
    }
}

// ---- Drag and drop --------------------------------------------------------------------------

void ClassifyPage::dragEnterEvent(QDragEnterEvent* event) { dragMoveEvent(event); }

void ClassifyPage::dragMoveEvent(QDragMoveEvent* event)
{
    if (event->mimeData()->hasUrls() || event->mimeData()->hasImage()) {
        event->acceptProposedAction();
    }
}

void ClassifyPage::dropEvent(QDropEvent* event)
{
    classifyMime(event->mimeData(), tr("dropped image %1"));
    event->acceptProposedAction();
}

} // namespace lbd::ui
