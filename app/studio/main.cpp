// lbd-studio: the desktop application. Wiring only; everything lives in lbd_ui.
#include "ui/app/aboutdialog.h"
#include "ui/app/mainwindow.h"
#include "ui/app/screenshotrunner.h"
#include "ui/app/sessionstate.h"
#include "ui/pages/classifypage.h"
#include "ui/panels/experimentpanel.h"

#include "core/infer/runstate.h"
#include "core/train/runsroot.h"
#include "core/util/machineinfo.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTabWidget>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv)
{
    // --version must work without a display (a server, a package check): answer it before
    // QApplication tries to connect to one.
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-v") == 0) {
            QCoreApplication core(argc, argv);
            std::printf("%s\n", qPrintable(lbd::ui::AboutDialog::versionText()));
            return 0;
        }
    }
    QApplication app(argc, argv);
    lbd::setCommandLine("GUI"); // what run.json records as the command line of runs started here
    QApplication::setOrganizationName(QStringLiteral("LBDStudio"));
    QApplication::setApplicationName(QStringLiteral("lbd-studio"));
    QApplication::setApplicationVersion(QStringLiteral(LBD_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("LBD Studio: long-tailed Bayesian decision training"));
    parser.addHelpOption();
    const QCommandLineOption version(QStringList{QStringLiteral("v"), QStringLiteral("version")},
                                     QStringLiteral("Print the versions of LBD Studio and what it links, then exit."));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Train a short run, write a PNG of every page into DIR, exit."),
                                        QStringLiteral("DIR"));
    const QCommandLineOption screenshotSize(QStringLiteral("screenshot-size"),
                                            QStringLiteral("With --screenshot: the window sizes to capture every page at, "
                                                           "e.g. 1600x1000,1024x700 (files named NN-page-WxH.png)."),
                                            QStringLiteral("WxH[,WxH...]"));
    const QCommandLineOption preset(QStringLiteral("preset"),
                                    QStringLiteral("Preset to open (id such as quick-cpu, or a JSON file)."),
                                    QStringLiteral("P"));
    const QCommandLineOption epochs(QStringLiteral("epochs"), QStringLiteral("Override the preset's epochs."),
                                    QStringLiteral("N"));
    const QCommandLineOption latency(QStringLiteral("measure-latency"),
                                     QStringLiteral("Train the preset, print the GUI event loop's latency, exit."));
    const QCommandLineOption screenshotStudy(QStringLiteral("screenshot-study"),
                                             QStringLiteral("With --screenshot: after the run, run STUDY (a built-in at its "
                                                            "quick scale, or a study.json) on the Studies page, so its "
                                                            "pictures show a finished study."),
                                             QStringLiteral("STUDY"));
    parser.addOption(version);
    parser.addOption(screenshotStudy);
    parser.addOption(screenshot);
    parser.addOption(screenshotSize);
    parser.addOption(preset);
    parser.addOption(epochs);
    parser.addOption(latency);
    parser.addPositionalArgument(QStringLiteral("RUN_DIR|IMAGE"),
                                 QStringLiteral("A run folder to open, or image files to classify with the last run."),
                                 QStringLiteral("[RUN_DIR | IMAGE...]"));
    parser.process(app);

    if (parser.isSet(version)) {
        std::printf("%s\n", qPrintable(lbd::ui::AboutDialog::versionText()));
        return 0;
    }

    const QList<QSize> screenshotSizes = lbd::ui::ScreenshotRunner::parseSizes(parser.value(screenshotSize));
    if (parser.isSet(screenshotSize) && screenshotSizes.isEmpty()) {
        std::fprintf(stderr, "lbd-studio: --screenshot-size takes WxH[,WxH...], e.g. 1024x700, not '%s'\n",
                     qPrintable(parser.value(screenshotSize)));
        return 2;
    }

    lbd::ui::MainWindow window;
    const bool automated = parser.isSet(screenshot) || parser.isSet(latency);
    if (!automated) {
        lbd::ui::SessionState::restore(window); // preset, decisions, last run and page
    }
    QString presetName = parser.value(preset);
    if (presetName.isEmpty() && automated) {
        presetName = QStringLiteral("quick-cpu");
    }
    if (!presetName.isEmpty() && !window.experimentPanel()->selectPreset(presetName)) {
        std::fprintf(stderr, "lbd-studio: unknown preset '%s'\n", qPrintable(presetName));
        return 2;
    }
    if (parser.isSet(epochs)) {
        lbd::TrainConfig config = window.experimentPanel()->config();
        config.train.epochs = parser.value(epochs).toInt();
        window.experimentPanel()->setConfig(config);
    }
    window.show();

    // `lbd-studio RUN_DIR` opens a run; `lbd-studio IMAGE...` classifies (the desktop entry's %F).
    QStringList images;
    bool runNamed = false;
    for (const QString& argument : parser.positionalArguments()) {
        if (QFileInfo(argument).isDir()) {
            runNamed = true;
            if (!window.openRun(QFileInfo(argument).absoluteFilePath())) {
                std::fprintf(stderr, "lbd-studio: %s could not be opened as a run\n", qPrintable(argument));
            }
        } else {
            images << QFileInfo(argument).absoluteFilePath();
        }
    }
    if (!images.isEmpty() && !runNamed) {
        // Images without a run: the last *finished* run classifies them, not whichever run the
        // session showed last (it may have stopped at epoch 2 of 20); the header says which and why.
        if (const auto choice = lbd::chooseRunForImages(window.shownRun().toStdString(), lbd::defaultRunsRoot())) {
            const QString chosen = QString::fromStdString(choice->directory);
            if (chosen != window.shownRun() && !window.openRun(chosen)) {
                std::fprintf(stderr, "lbd-studio: %s could not be opened as a run\n", qPrintable(chosen));
            }
            window.classifyPage()->setRunReason(QString::fromStdString(choice->reason));
            std::fprintf(stderr, "lbd-studio: classifying with %s: %s\n", qPrintable(chosen), choice->reason.c_str());
        }
    }
    if (!images.isEmpty()) {
        window.classifyPage()->classifyFiles(images);
        window.pages()->setCurrentWidget(window.classifyPage());
    }

    if (automated) {
        // Errors go to stderr instead of a dialog nobody will close.
        window.setErrorReporter([](const QString& title, const QString& message) {
            std::fprintf(stderr, "lbd-studio: %s: %s\n", qPrintable(title), qPrintable(message));
        });
        auto* runner = new lbd::ui::ScreenshotRunner(&window, parser.value(screenshot), &window);
        runner->setSizes(screenshotSizes);
        runner->setStudy(parser.value(screenshotStudy));
        if (!runner->start()) {
            std::fprintf(stderr, "lbd-studio: %s\n", qPrintable(window.experimentPanel()->validationMessage()));
            return 1;
        }
    }
    return app.exec();
}
