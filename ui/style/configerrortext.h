#pragma once
// The engine's input errors name config keys ("data.data_dir is required for the folder data
// set"): right for `lbd` and config files, raw in the GUI. The experiment panel and the status
// bar show them in the panel's words instead: where to click ("Choose the folder of your images
// (Data > Directory: Browse...)"), or the field's label and group in place of its key. Text that
// names no known key is returned as it is.
#include <QString>

namespace lbd::ui {

QString configErrorInPanelWords(const QString& error);

} // namespace lbd::ui
