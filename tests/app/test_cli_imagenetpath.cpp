// The ImageNet-LT path on the CPU, at a toy scale: the imagenet-lt preset (list files, JPEG
// decoding, random resized crop and colour jitter, evaluation on the centre crop) on 40 JPEG
// photographs-to-be of 4 classes, long-tailed 16/12/8/4, trains, evaluates and writes its report.
#include "tests/app/clitest.h"

#include <QColor>
#include <QPainter>

using namespace lbd::test;

namespace {

// A 64 x 48 JPEG whose colour and shape say its class (so that the run can learn something).
bool writeClassImage(const QString& file, int label, int index)
{
    QImage image(64, 48, QImage::Format_RGB888);
    image.fill(QColor::fromHsv(label * 90, 200, 120 + (index * 7) % 60));
    QPainter painter(&image);
    painter.setBrush(QColor::fromHsv((label * 90 + 180) % 360, 255, 255));
    painter.drawEllipse(QPoint(16 + label * 10, 24), 8 + index % 3, 8);
    painter.end();
    return image.save(file, "JPEG", 90);
}

} // namespace

class TestCliImageNetPath final : public CliTest {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(kLbd).isExecutable(), qPrintable(kLbd + QStringLiteral(" is not built")));
        QVERIFY(m_temp.isValid());
    }

    void thePresetTrainsOnListFilesThroughTheWholePath()
    {
        const QString root = path(QStringLiteral("toy-imagenet"));
        QVERIFY(QDir().mkpath(root + QStringLiteral("/train")) && QDir().mkpath(root + QStringLiteral("/val")));
        QByteArray train, test;
        const int perClass[] = {16, 12, 8, 4};
        for (int label = 0; label < 4; ++label) {
            for (int i = 0; i < perClass[label]; ++i) {
                const QString name = QStringLiteral("train/c%1_%2.jpg").arg(label).arg(i);
                QVERIFY(writeClassImage(root + QLatin1Char('/') + name, label, i));
                train += name.toUtf8() + ' ' + QByteArray::number(label) + '\n';
            }
            for (int i = 0; i < 5; ++i) {
                const QString name = QStringLiteral("val/c%1_%2.jpg").arg(label).arg(i);
                QVERIFY(writeClassImage(root + QLatin1Char('/') + name, label, 100 + i));
                test += name.toUtf8() + ' ' + QByteArray::number(label) + '\n';
            }
        }
        QVERIFY(writeFile(root + QStringLiteral("/ImageNet_LT_train.txt"), train));
        // The preset evaluates on the published loader's validation list.
        QVERIFY(writeFile(root + QStringLiteral("/ImageNet_LT_val.txt"), test));

        // The preset as it ships, scaled down: 40-pixel images cropped to 32, a small network.
        const QString run = path(QStringLiteral("run"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--preset"), QStringLiteral("imagenet-lt"),
                                  QStringLiteral("--out"), run, QStringLiteral("--device"), QStringLiteral("cpu"),
                                  QStringLiteral("--epochs"), QStringLiteral("2"), QStringLiteral("--batch-size"),
                                  QStringLiteral("8"), QStringLiteral("--arch"), QStringLiteral("smallcnn"),
                                  QStringLiteral("--particles"), QStringLiteral("2"), QStringLiteral("--threads"),
                                  QStringLiteral("2"), QStringLiteral("--set"), QStringLiteral("data.data_dir=") + root,
                                  QStringLiteral("--set"), QStringLiteral("data.image_size=40"), QStringLiteral("--set"),
                                  QStringLiteral("augment.output_size=32"), QStringLiteral("--set"),
                                  QStringLiteral("optimizer.warmup_epochs=0"), QStringLiteral("--set"),
                                  QStringLiteral("optimizer.decay_epochs=1,2"), QStringLiteral("--set"),
                                  QStringLiteral("objective.drw_epoch=1"), QStringLiteral("--set"),
                                  QStringLiteral("train.eval_every=1")};
        const Result result = runLbd(args, 600000);
        EXPECT_EXIT(result, args, 0);
        const QJsonObject config = QJsonDocument::fromJson(readFile(run + QStringLiteral("/config.json"))).object();
        const QJsonObject augment = config.value(QStringLiteral("augment")).toObject();
        QVERIFY(augment.value(QStringLiteral("random_resized_crop")).toBool());
        QCOMPARE(augment.value(QStringLiteral("brightness")).toDouble(), 0.4);
        QCOMPARE(config.value(QStringLiteral("data")).toObject().value(QStringLiteral("dataset")).toString(), QStringLiteral("list"));
        // The published loader's validation list (lbd-math.md section 8), under the paper-standard protocol.
        QCOMPARE(config.value(QStringLiteral("data")).toObject().value(QStringLiteral("test_list")).toString(),
                 QStringLiteral("ImageNet_LT_val.txt"));
        QCOMPARE(config.value(QStringLiteral("protocol")).toString(), QStringLiteral("paper-standard"));
        const QJsonObject report = QJsonDocument::fromJson(readFile(run + QStringLiteral("/report.json"))).object();
        QVERIFY2(!report.isEmpty(), qPrintable(result.describe(args)));
        const QJsonObject evaluation = report.value(QStringLiteral("evaluation")).toObject();
        QCOMPARE(evaluation.value(QStringLiteral("images")).toInt(), 20); // every test image: 4 classes x 5
        QCOMPARE(evaluation.value(QStringLiteral("classes")).toInt(), 4);
        const double accuracy = evaluation.value(QStringLiteral("accuracy")).toObject().value(QStringLiteral("accuracy")).toDouble(-1);
        QVERIFY2(accuracy >= 0 && accuracy <= 1, qPrintable(QString::number(accuracy)));
        QCOMPARE(QString::fromUtf8(readFile(run + QStringLiteral("/metrics.jsonl"))).count(QLatin1Char('\n')), 2); // 2 epochs
    }

    // `lbd make-list-data`: the long-tailed counts asked for, lists `lbd data` reads, and nothing
    // written over an existing folder.
    void makeListDataWritesALongTailedListDataSet()
    {
        const QString root = path(QStringLiteral("made"));
        const QStringList make = {QStringLiteral("make-list-data"), root, QStringLiteral("--classes"), QStringLiteral("4"),
                                  QStringLiteral("--max-per-class"), QStringLiteral("8"), QStringLiteral("--ratio"),
                                  QStringLiteral("8"), QStringLiteral("--test-per-class"), QStringLiteral("3"),
                                  QStringLiteral("--width"), QStringLiteral("40"), QStringLiteral("--height"),
                                  QStringLiteral("30"), QStringLiteral("--threads"), QStringLiteral("2")};
        const Result made = runLbd(make, 120000);
        EXPECT_EXIT(made, make, 0);
        // 8 x 8^(-c/3) for c = 0..3: 8, 4, 2, 1.
        EXPECT_MENTIONS(made.out, QStringLiteral("wrote 15 training and 12 test images of 4 classes"), made, make);
        const QStringList trainLines = QString::fromUtf8(readFile(root + QStringLiteral("/ImageNet_LT_train.txt"))).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(trainLines.size(), 15);
        // The held-out images also under the validation list's name, which the imagenet-lt preset reads.
        QCOMPARE(readFile(root + QStringLiteral("/ImageNet_LT_val.txt")), readFile(root + QStringLiteral("/ImageNet_LT_test.txt")));
        QCOMPARE(trainLines.filter(QRegularExpression(QStringLiteral(" 3$"))).size(), 1);
        QImage first(root + QLatin1Char('/') + trainLines.first().section(QLatin1Char(' '), 0, 0));
        QCOMPARE(first.size(), QSize(40, 30));
        const QStringList data = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("list"),
                                  QStringLiteral("--data-dir"), root, QStringLiteral("--train-list"),
                                  QStringLiteral("ImageNet_LT_train.txt"), QStringLiteral("--test-list"),
                                  QStringLiteral("ImageNet_LT_test.txt"), QStringLiteral("--imbalance-ratio"),
                                  QStringLiteral("1"), QStringLiteral("--json")};
        const Result read = runLbd(data, 120000);
        EXPECT_EXIT(read, data, 0);
        const QJsonArray classes = QJsonDocument::fromJson(read.out.toUtf8()).object().value(QStringLiteral("classes")).toArray();
        QCOMPARE(classes.size(), 4);
        const int expected[] = {8, 4, 2, 1};
        for (int c = 0; c < 4; ++c) {
            QCOMPARE(classes.at(c).toObject().value(QStringLiteral("train")).toInt(), expected[c]);
            QCOMPARE(classes.at(c).toObject().value(QStringLiteral("test")).toInt(), 3);
        }
        const Result again = runLbd(make, 60000);
        EXPECT_EXIT(again, make, 2);
        EXPECT_MENTIONS(again.err, QStringLiteral("not an empty folder"), again, make);
    }
};

QTEST_MAIN(TestCliImageNetPath) // QImage writes the JPEG files
#include "test_cli_imagenetpath.moc"
