// How plots look and leave the app: region colours are the Okabe-Ito values (colour-blind safe),
// plots follow a dark window palette (axes, labels, titles and legend in the palette's text
// colour on its base colour), every plot exports to a PNG at twice its size, a PDF and an SVG, and the
// Training page's smoothing is TensorBoard's debiased moving average, checked by hand.
#include "tests/ui/uitestsupport.h"

#include "ui/pages/trainingpage.h"
#include "ui/style/regioncolors.h"
#include "ui/widgets/classcountchart.h"
#include "ui/widgets/plotexport.h"
#include "ui/widgets/plottitle.h"
#include "ui/widgets/smoothedseries.h"
#include "ui/widgets/throttledplot.h"

#include <QCheckBox>
#include <QFile>
#include <QImage>
#include <QSlider>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>

#include <cmath>

using namespace lbd::ui;

namespace {

QPalette darkPalette()
{
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
    dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Base, QColor(0x1a, 0x1a, 0x1e));
    dark.setColor(QPalette::Text, QColor(0xf0, 0xe8, 0xd8));
    return dark;
}

} // namespace

class TestPlotStyle : public QObject {
    Q_OBJECT

private slots:
    void regionColoursAreOkabeIto()
    {
        QCOMPARE(regionColor(lbd::Region::Head), QColor(0x00, 0x72, 0xb2));
        QCOMPARE(regionColor(lbd::Region::Medium), QColor(0xe6, 0x9f, 0x00));
        QCOMPARE(regionColor(lbd::Region::Tail), QColor(0xd5, 0x5e, 0x00));
    }

    void plotsFollowADarkPalette()
    {
        ThrottledPlot plot;
        addPlotTitle(&plot, QStringLiteral("a title"));
        plot.addGraph()->setName(QStringLiteral("a series"));
        plot.xAxis->setLabel(QStringLiteral("x"));
        const QPalette dark = darkPalette();
        plot.setPalette(dark);
        plot.replot();
        const QColor text = dark.color(QPalette::Text);
        for (QCPAxis* axis : {plot.xAxis, plot.yAxis, plot.xAxis2, plot.yAxis2}) {
            QCOMPARE(axis->tickLabelColor(), text);
            QCOMPARE(axis->labelColor(), text);
            QCOMPARE(axis->basePen().color(), text);
        }
        auto* title = qobject_cast<QCPTextElement*>(plot.plotLayout()->element(0, 0));
        QVERIFY(title);
        QCOMPARE(title->textColor(), text);
        QCOMPARE(plot.legend->item(0)->textColor(), text);
        const QImage picture = plot.toPixmap(200, 150).toImage();
        QCOMPARE(picture.pixelColor(1, 1), dark.color(QPalette::Base)); // the corner is background
        // The grid sits between background and text, so it shows on dark without shouting.
        const QColor grid = plot.xAxis->grid()->pen().color();
        QVERIFY(grid.lightness() > dark.color(QPalette::Base).lightness());
        QVERIFY(grid.lightness() < text.lightness());
    }

    // The Qt Charts chart (the panel's class counts) follows the palette too, whether the palette
    // comes before the data or changes afterwards (a theme switched while the app runs).
    void qtChartsFollowADarkPalette()
    {
        const QPalette dark = darkPalette();
        const QColor text = dark.color(QPalette::Text);
        for (const bool paletteFirst : {true, false}) {
            ClassCountChart chart;
            if (paletteFirst) {
                chart.setPalette(dark);
            }
            chart.setCounts({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}, {300, 60, 12});
            if (!paletteFirst) {
                chart.setPalette(dark);
            }
            QCOMPARE(chart.chart()->axes().size(), 2);
            for (QAbstractAxis* axis : chart.chart()->axes()) {
                QCOMPARE(axis->labelsColor(), text);
                QVERIFY(axis->labelsColor().lightness() > 180); // light on dark, readable
                QCOMPARE(axis->titleBrush().color(), text);
            }
            QCOMPARE(chart.chart()->titleBrush().color(), text);
            QCOMPARE(chart.chart()->legend()->labelColor(), text);
            QCOMPARE(chart.chart()->backgroundBrush().color(), dark.color(QPalette::Base));
        }
    }

    void exportsPngAtTwiceTheSizePdfAndSvg()
    {
        ThrottledPlot plot;
        plot.setObjectName(QStringLiteral("exported"));
        QCPGraph* graph = plot.addGraph();
        graph->setData({0, 1, 2}, {1, 3, 2});
        plot.resize(400, 300);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.replot();
        QTemporaryDir dir;

        const QString png = dir.filePath(QStringLiteral("plot.png"));
        QVERIFY(exportPlot(&plot, png));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(800, 600));

        const QString pdf = dir.filePath(QStringLiteral("plot.pdf"));
        QVERIFY(exportPlot(&plot, pdf));
        QFile file(pdf);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.size() > 500);
        QVERIFY(file.read(5) == "%PDF-");

        QString error;
        QVERIFY(!exportPlot(&plot, dir.filePath(QStringLiteral("plot.bmp")), &error));
        QVERIFY(error.contains(QStringLiteral("png")));
        QCOMPARE(plotExportSuffixes().contains(QStringLiteral("svg")), plotSvgAvailable());
        // The set-up installs Qt Svg (installer/setup.sh): SVG export is part of the product.
        QVERIFY2(plotSvgAvailable(), "built without Qt Svg (qt6-svg-dev)");
        const QString svg = dir.filePath(QStringLiteral("plot.svg"));
        QVERIFY(exportPlot(&plot, svg));
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray text = svgFile.readAll();
        QVERIFY2(text.contains("<svg") && text.contains("</svg>") && text.size() > 500, text.left(200).constData());
    }

    void smoothingIsADebiasedMovingAverage()
    {
        // By hand, w = 0.5 over 1, 3, 2: m = 0.5, 1.75, 1.875; 1 - w^n = 0.5, 0.75, 0.875.
        const double expected[] = {1.0, 1.75 / 0.75, 1.875 / 0.875};
        const std::vector<double> smoothed = smoothSeries({1, 3, 2}, 0.5);
        QCOMPARE(smoothed.size(), size_t(3));
        for (int i = 0; i < 3; ++i) {
            QVERIFY2(std::abs(smoothed[size_t(i)] - expected[i]) < 1e-12, qPrintable(QString::number(smoothed[size_t(i)])));
        }

        TrainingPage page;
        page.beginRun({});
        const double losses[] = {1, 3, 2};
        for (int e = 1; e <= 3; ++e) {
            lbd::EpochMetrics metrics;
            metrics.epoch = e;
            metrics.objective.total = losses[e - 1];
            page.addEpoch(metrics);
        }
        QCPGraph* total = nullptr;
        for (int i = 0; i < page.lossPlot()->graphCount(); ++i) {
            if (page.lossPlot()->graph(i)->name().startsWith(QStringLiteral("total L"))) {
                total = page.lossPlot()->graph(i);
            }
        }
        QVERIFY(total);
        QCOMPARE(total->data()->size(), 3);
        QCOMPARE(total->data()->at(1)->value, 3.0); // no smoothing yet: the raw values
        page.setSmoothing(0.5);
        QCOMPARE(page.smoothingSlider()->value(), 50);
        for (int i = 0; i < 3; ++i) {
            QVERIFY(std::abs(total->data()->at(i)->value - expected[i]) < 1e-12);
        }
        // A point added while smoothing continues the average: m = 0.9375 + 2, 1 - w^4 = 0.9375.
        lbd::EpochMetrics fourth;
        fourth.epoch = 4;
        fourth.objective.total = 4;
        page.addEpoch(fourth);
        QVERIFY(std::abs(total->data()->at(3)->value - 2.9375 / 0.9375) < 1e-12);
        page.setSmoothing(0);
        QCOMPARE(total->data()->at(3)->value, 4.0);

        page.logYBox()->setChecked(true);
        QCOMPARE(page.lossPlot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(page.learningRatePlot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        page.setLogY(false);
        QVERIFY(!page.logYBox()->isChecked());
        QCOMPARE(page.lossPlot()->yAxis->scaleType(), QCPAxis::stLinear);
    }
};

QTEST_MAIN(TestPlotStyle)
#include "test_plotstyle.moc"
