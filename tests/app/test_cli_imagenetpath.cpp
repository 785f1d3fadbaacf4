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
        QVERIFY(writeFile(root + QStringLiteral("/ImageNet_LT_test.txt"), test));

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
        const QJsonObject report = QJsonDocument::fromJson(readFile(run + QStringLiteral("/report.json"))).object();
        QVERIFY2(!report.isEmpty(), qPrintable(result.describe(args)));
        const QJsonObject evaluation = report.value(QStringLiteral("evaluation")).toObject();
        QCOMPARE(evaluation.value(QStringLiteral("images")).toInt(), 20); // every test image: 4 classes x 5
        QCOMPARE(evaluation.value(QStringLiteral("classes")).toInt(), 4);
        const double accuracy = evaluation.value(QStringLiteral("accuracy")).toObject().value(QStringLiteral("accuracy")).toDouble(-1);
        QVERIFY2(accuracy >= 0 && accuracy <= 1, qPrintable(QString::number(accuracy)));
        QCOMPARE(QString::fromUtf8(readFile(run + QStringLiteral("/metrics.jsonl"))).count(QLatin1Char('\n')), 2); // 2 epochs
    }
};

QTEST_MAIN(TestCliImageNetPath) // QImage writes the JPEG files
#include "test_cli_imagenetpath.moc"
