// Catalogue entry of list files (the ImageNet-LT format): "relative/path label" lines.
#include "datasets/datasetentry.h"
#include "datasets/list/listfilereader.h"

namespace lbd {

DatasetEntry listFilesEntry()
{
    DatasetEntry entry;
    entry.name = "list";
    entry.title = "List files";
    entry.description = "Text files listing 'path label' per line for the training and test splits (the ImageNet-LT "
                        "format).";
    entry.files = {"a training list and a test list ('relative/path label' lines)", "optional: a validation list, a "
                   "class names file", "the images they name, under the directory"};
    entry.obtain = "ImageNet-LT: the lists of https://github.com/zhmiao/OpenLongTailRecognition-OLTR with the ImageNet "
                   "2012 images (image-net.org); or lists of your own images";
    entry.licence = "ImageNet: image-net.org's terms (non-commercial research); your own images: theirs";
    entry.settings.listFiles = true;
    entry.settings.imageFormat = true;
    entry.format = convertedImageFormat;
    entry.read = [](const ReadRequest& request) {
        ListFileOptions options;
        options.files.format = convertedImageFormat(request.options);
        options.files.limits = request.options.limits;
        options.files.onBadFile = request.options.onBadFile;
        options.classNamesFile = request.options.classNamesFile;
        options.validationList = request.options.validationList;
        return readListFiles(request.directory, request.options.trainList, request.options.testList, options);
    };
    return entry;
}

} // namespace lbd
