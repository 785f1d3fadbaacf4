// `lbd train` on a user's own image folder (issue 26): the quick preset's long tail and name are
// Fashion-MNIST's, so a folder is trained as given (its counts, less the small share held out for
// the caution, issue 35), grey PNGs stay one channel, the run is named after the folder, and the
// log says the counts used and warns about classes with fewer than 10 images before training. A
// long tail stays an explicit choice.
#include "tests/app/clitest.h"

#include <QRegularExpression>

using namespace lbd::test;

namespace {

// 150 down to 8 training images per class, as the folder of the issue (scikit-learn's digits).
const QList<int> kCounts = {150, 108, 78, 56, 41, 30, 21, 15, 11, 8};
constexpr int kTestPerClass = 5;
// Without a validation split, 5 % of each class is held out for the caution (rounded, 2 to 50,
// leaving at least 5): 7.5 -> 8, 5.4 -> 5, 3.9 -> 4, 2.8 -> 3, then the least, 2.
const QList<int> kCautionCounts = {8, 5, 4, 3, 2, 2, 2, 2, 2, 2};
const QList<int> kTrainedCounts = {142, 103, 74, 53, 39, 28, 19, 13, 9, 6};

// Grey 8x8 PNGs (the size of scikit-learn's digits): class c is a bright column at c-ish.
bool writeGreyClass(const QString& dir, int c, int count)
{
    if (!QDir().mkpath(dir)) {
        return false;
    }
    for (int i = 0; i < count; ++i) {
        QImage image(8, 8, QImage::Format_Grayscale8);
        image.fill(i % 5);
        for (int y = 0; y < 8; ++y) {
            image.setPixel(c % 8, y, qRgb(255, 255, 255));
            image.setPixel(y, c / 8 + 3, qRgb(128, 128, 128));
        }
        if (!image.save(QDir(dir).filePath(QStringLiteral("%1.png").arg(i)))) {
            return false;
        }
    }
    return true;
}

QList<int> intList(const QJsonValue& value)
{
    QList<int> list;
    for (const QJsonValue& item : value.toArray()) {
        list << item.toInt();
    }
    return list;
}

} // namespace

class TestCliUserFolder final : public CliTest {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(kLbd).isExecutable(), qPrintable(kLbd + QStringLiteral(" is not built")));
        m_folder = path(QStringLiteral("digits"));
        for (int c = 0; c < kCounts.size(); ++c) {
            QVERIFY(writeGreyClass(m_folder + QStringLiteral("/train/digit%1").arg(c), c, kCounts[c]));
            QVERIFY(writeGreyClass(m_folder + QStringLiteral("/test/digit%1").arg(c), c, kTestPerClass));
        }
    }

    void theDefaultsTrainTheFolderAsGiven()
    {
        // The quick preset (the default) on the folder; one epoch: the data is what is checked.
        const QString runs = path(QStringLiteral("runs"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--dataset"), QStringLiteral("folder"),
                                  QStringLiteral("--data-dir"), m_folder, QStringLiteral("--epochs"), QStringLiteral("1"),
                                  QStringLiteral("--runs-dir"), runs};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        const QStringList made = QDir(runs).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(made.size(), 1);
        QVERIFY2(made.front().startsWith(QStringLiteral("digits-folder-")), qPrintable(made.front()));
        const QString run = runs + QLatin1Char('/') + made.front();

        QString error;
        const QJsonObject manifest = parseJson(QString::fromUtf8(readFile(run + QStringLiteral("/run.json"))), &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(intList(manifest.value(QStringLiteral("train_counts"))), kTrainedCounts);
        QCOMPARE(intList(manifest.value(QStringLiteral("caution_counts"))), kCautionCounts);
        QCOMPARE(manifest.value(QStringLiteral("image")).toObject().value(QStringLiteral("channels")).toInt(), 1);
        QCOMPARE(manifest.value(QStringLiteral("class_names")).toArray().last().toString(), QStringLiteral("digit9"));
        const QJsonObject config = parseJson(QString::fromUtf8(readFile(run + QStringLiteral("/config.json"))), &error).object();
        QCOMPARE(config.value(QStringLiteral("data")).toObject().value(QStringLiteral("profile")).toString(), QStringLiteral("none"));

        // Said before training: the counts used, as given, and the small classes.
        const QString said = result.out + result.err;
        EXPECT_MENTIONS(said, QStringLiteral("486 training images, used as given (profile none); images 1 channel (grey)"), result, args);
        EXPECT_MENTIONS(said, QStringLiteral("training images per class: digit0 142, digit1 103"), result, args);
        EXPECT_MENTIONS(said, QStringLiteral("held out 32 images for the caution (digit0 8, digit1 5, digit2 4, digit3 3, digit4 2, "
                                             "digit5 2, digit6 2, digit7 2, digit8 2, digit9 2): they are not trained on"),
                        result, args);
        EXPECT_MENTIONS(said, QStringLiteral("warning: class digit9 has only 6 training images (fewer than 10)"), result, args);
        EXPECT_MENTIONS(said, QStringLiteral("warning: class digit8 has only 9 training images (fewer than 10)"), result, args);
        QVERIFY2(!said.contains(QStringLiteral("class digit7 has only")), qPrintable(said)); // 13 images
        const QString log = QString::fromUtf8(readFile(run + QStringLiteral("/log.txt")));
        QVERIFY2(log.contains(QStringLiteral("training images per class: digit0 142")), qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("held out 32 images for the caution")), qPrintable(log));
        // The caution is fitted on exactly those images.
        const QJsonObject ood = parseJson(QString::fromUtf8(readFile(run + QStringLiteral("/ood.json"))), &error).object();
        QCOMPARE(ood.value(QStringLiteral("source")).toString(), QStringLiteral("images held out for the caution"));
        QCOMPARE(intList(ood.value(QStringLiteral("held_out")).toObject().value(QStringLiteral("per_class"))), kCautionCounts);
    }

    // lbd data says the same before any training: 'train' is what trains, the held-out images
    // on a line of their own (text) and caution_counts (JSON).
    void dataSaysTheCautionHoldOut()
    {
        QStringList args = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("folder"),
                            QStringLiteral("--data-dir"), m_folder};
        const Result text = runLbd(args);
        EXPECT_EXIT(text, args, 0);
        QVERIFY2(QRegularExpression(QStringLiteral("\\btotal +486 +50\\n")).match(text.out).hasMatch(), qPrintable(text.out));
        EXPECT_MENTIONS(text.out,
                        QStringLiteral("held out for the caution, not trained on (data.caution_holdout): 32 images (digit0 8, digit1 5, "
                                       "digit2 4, digit3 3, digit4 2, digit5 2, digit6 2, digit7 2, digit8 2, digit9 2)"),
                        text, args);
        args << QStringLiteral("--json");
        const Result json = runLbd(args);
        EXPECT_EXIT(json, args, 0);
        QString error;
        const QJsonObject out = parseJson(json.out, &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(out.value(QStringLiteral("train_total")).toInt(), 486);
        QCOMPARE(intList(out.value(QStringLiteral("caution_counts"))), kCautionCounts);
    }

    void aLongTailIsAnExplicitChoiceAndSaysWhatItKeeps()
    {
        const QString out = path(QStringLiteral("long-tail"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--dataset"), QStringLiteral("folder"),
                                  QStringLiteral("--data-dir"), m_folder, QStringLiteral("--epochs"), QStringLiteral("1"),
                                  QStringLiteral("--imbalance-ratio"), QStringLiteral("100"), QStringLiteral("--channels"),
                                  QStringLiteral("3"), QStringLiteral("--out"), out};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QString error;
        const QJsonObject manifest = parseJson(QString::fromUtf8(readFile(out + QStringLiteral("/run.json"))), &error).object();
        const QList<int> kept = intList(manifest.value(QStringLiteral("train_counts")));
        QCOMPARE(kept.front(), 150);
        QCOMPARE(kept.back(), 1); // exp, rho 100: n_9 = 150 / 100
        QCOMPARE(manifest.value(QStringLiteral("image")).toObject().value(QStringLiteral("channels")).toInt(), 3);
        int total = 0;
        for (int n : kept) {
            total += n;
        }
        EXPECT_MENTIONS(result.out + result.err,
                        QStringLiteral("resampled to a long tail (profile exp, ratio 100, seed 0): %1 of 518 images kept").arg(total),
                        result, args);
    }

private:
    QString m_folder;
};

QTEST_MAIN(TestCliUserFolder)
#include "test_cli_userfolder.moc"
