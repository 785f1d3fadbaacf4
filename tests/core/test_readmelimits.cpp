// README's limits table and the constants the code checks are one table (issue 37 item 4): each
// row below is found by its first cell and its limit cell must read exactly as the constant
// formats, so a limit changed in the code without the README (or the other way) fails here.
#include "core/model/modelspec.h"
#include "core/train/pythonexport.h"
#include "core/util/atomicfile.h"
#include "core/util/jsonfile.h"
#include "core/util/torchsavearchive.h"

#include <QFile>
#include <QTest>

namespace {

// "4,000,000": the README writes counts with thousands separators.
QString grouped(int64_t value)
{
    QString digits = QString::number(value);
    for (int at = digits.size() - 3; at > 0; at -= 3) {
        digits.insert(at, QLatin1Char(','));
    }
    return digits;
}

QString mib(int64_t bytes)
{
    return QString::number(bytes >> 20) + QStringLiteral(" MiB");
}

QString gib(int64_t bytes)
{
    return QString::number(bytes >> 30) + QStringLiteral(" GiB");
}

} // namespace

class TestReadmeLimits final : public QObject {
    Q_OBJECT

    QMap<QString, QString> m_rows; // first cell -> second cell of the rows under "### Limits"

private slots:
    void initTestCase()
    {
        QFile readme(QStringLiteral(LBD_SOURCE_DIR "/README.md"));
        QVERIFY(readme.open(QIODevice::ReadOnly | QIODevice::Text));
        bool inLimits = false;
        for (const QString& line : QString::fromUtf8(readme.readAll()).split(QLatin1Char('\n'))) {
            if (line.startsWith(QStringLiteral("### "))) {
                inLimits = line == QStringLiteral("### Limits");
            } else if (inLimits && line.startsWith(QStringLiteral("| "))) {
                const QStringList cells = line.split(QStringLiteral(" | "));
                if (cells.size() >= 3) {
                    m_rows.insert(cells[0].mid(2), cells[1]);
                }
            }
        }
        QVERIFY2(m_rows.size() >= 10, "README's ### Limits table not found");
    }

    void limitsAgree_data()
    {
        QTest::addColumn<QString>("row");
        QTest::addColumn<QString>("limit");
        QTest::newRow("text") << "text inputs (`--config`, utility CSV/JSON, list files, class-name files, run files)"
                              << mib(lbd::kMaxTextFileBytes);
        QTest::newRow("text size") << "text inputs, from their size" << mib(lbd::kMaxTextFileBytes);
        QTest::newRow("classes") << "classes, and a label's value"
                                 << grouped(lbd::kMaxClasses) + QStringLiteral(" classes, labels 0..") + grouped(lbd::kMaxClasses - 1);
        QTest::newRow("particles") << "particles M" << QStringLiteral("1..") + QString::number(lbd::kMaxParticles);
        QTest::newRow("input size") << "input size (`augment.output_size`)"
                                    << QStringLiteral("8..") + QString::number(lbd::kMaxInputSize) + QStringLiteral(" pixels");
        QTest::newRow("json") << "one JSON document (config, run file, study, report)"
                              << grouped(lbd::kMaxJsonValues) + QStringLiteral(" values, ") + QString::number(lbd::kMaxJsonDepth)
                                     + QStringLiteral(" levels deep");
        QTest::newRow("tensor files") << "tensor files (test / validation probabilities, weights, checkpoints read by `lbd eval`)"
                                      << gib(lbd::kMaxTensorFileBytes) + QStringLiteral(", and a zip archive");
        QTest::newRow("probabilities")
            << "a run's test / validation probabilities"
            << QStringLiteral("particles x images x classes floats, the labels and class names, + ") + mib(lbd::kProbabilityFileAllowance)
                   + QStringLiteral(" for headers (from config.json, run.json, split.json)");
    }

    void limitsAgree()
    {
        QFETCH(QString, row);
        QFETCH(QString, limit);
        QVERIFY2(m_rows.contains(row), qPrintable(QStringLiteral("README's limits table has no row '%1'").arg(row)));
        QCOMPARE(m_rows.value(row), limit);
    }

    // The allowance the row states is the one the limit adds: 2 particles x 40 images x 4 classes.
    void probabilityLimitIsTheRowsFormula()
    {
        const std::vector<std::string> names = {"a", "bb", "ccc", "dddd"};
        const int64_t expected = 2 * 40 * 4 * 4 + 40 * 8 + (1 + 2 + 3 + 4 + 4 * 16) + (int64_t(1) << 20);
        QCOMPARE(lbd::probabilityFileLimit(2, 40, names), expected);
        QCOMPARE(lbd::probabilityFileLimit(int64_t(1) << 40, int64_t(1) << 40, names), lbd::kMaxTensorFileBytes);
    }
};

QTEST_APPLESS_MAIN(TestReadmeLimits)
#include "test_readmelimits.moc"
