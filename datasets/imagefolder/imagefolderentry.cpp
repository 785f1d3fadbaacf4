// Catalogue entry of image folders: the user's own images, one sub-folder per class.
#include "datasets/datasetentry.h"
#include "datasets/imagefolder/imagefolderreader.h"

namespace lbd {

DatasetEntry imageFolderEntry()
{
    DatasetEntry entry;
    entry.name = "folder";
    entry.title = "Image folder";
    entry.description = "A folder with one sub-folder per class (optionally train/ and test/). Classes are ordered by "
                        "training count, head first.";
    entry.files = {"<class>/*.png|jpg|jpeg|bmp|tif|tiff|webp|pgm|ppm|pbm", "or train/<class>/... and test/<class>/..."};
    entry.obtain = "your own images, one folder per class";
    entry.licence = "that of your images";
    entry.settings.imageFormat = true;
    entry.settings.heldOutFraction = true;
    entry.format = convertedImageFormat;
    entry.read = [](const ReadRequest& request) {
        ImageFolderOptions options;
        options.files.format = convertedImageFormat(request.options);
        options.files.limits = request.options.limits;
        options.files.onBadFile = request.options.onBadFile;
        options.heldOutFraction = request.options.heldOutFraction;
        options.seed = request.seed;
        return readImageFolder(request.directory, options);
    };
    return entry;
}

} // namespace lbd
