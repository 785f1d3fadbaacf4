// A degenerate report names its piled classes by the run's class NAMES (issue 34): the warning,
// the status bar's headline and a report.json written by index before names were carried, read
// again with the run's names. Hand-built confusion matrices, so the shares are known exactly.
#include "core/eval/degeneracy.h"

#include <QtTest>

using namespace lbd;

namespace {

const std::vector<std::string> kNames = {"airplane", "automobile", "bird", "cat", "deer",
                                         "dog",      "frog",       "horse", "ship", "truck"};

// 10 classes x 4 test images. Rows 1-5 and 7 are all decided as class 6, row 8 half as 8 and half
// as 6; rows 0, 6 and 9 are right. Decided: class 6 30, class 0 4, class 9 4, class 8 2 (of 40).
// The two most decided: 6 and 0 (tied with 9, the lower index first): 34 / 40 = 85.0 % of the
// decisions for 8 / 40 = 20.0 % of the labels (<= half of 85 %): piled. Correct: 4 + 4 + 4 + 2 =
// 14 of 40 = 35 %, above 1.5 / 10: not near chance.
EvaluationReport piledReport()
{
    EvaluationReport report;
    report.classCount = 10;
    report.confusion.assign(10, std::vector<int64_t>(10, 0));
    for (const int row : {1, 2, 3, 4, 5, 7}) {
        report.confusion[row][6] = 4;
    }
    report.confusion[0][0] = 4;
    report.confusion[6][6] = 4;
    report.confusion[9][9] = 4;
    report.confusion[8][8] = 2;
    report.confusion[8][6] = 2;
    report.overall = {14, 40, 14.0 / 40.0};
    report.warnings = degeneracyWarnings(report); // as evaluate() writes it: by index
    return report;
}

} // namespace

class TestDegeneracyNames : public QObject {
    Q_OBJECT

private slots:
    void piledClassesAreFoundByIndex()
    {
        const auto piled = piledDecisions(piledReport());
        QVERIFY(piled.has_value());
        QCOMPARE(piled->classes, (std::vector<int64_t>{6, 0}));
        QCOMPARE(piled->decidedShare, 34.0 / 40.0);
        QCOMPARE(piled->trueShare, 8.0 / 40.0);
    }

    void theWarningNamesTheClasses()
    {
        const EvaluationReport report = piledReport();
        QCOMPARE(report.warnings, (std::vector<std::string>{
                                      "85.0 % of the decisions go to 2 classes (index 6, 0) that hold 20.0 % of the test "
                                      "images (flagged at 80.0 % or more)"}));
        QCOMPARE(degeneracyWarnings(report, kNames),
                 (std::vector<std::string>{"85.0 % of the decisions go to 2 classes (frog, airplane) that hold 20.0 % of "
                                           "the test images (flagged at 80.0 % or more)"}));
        QCOMPARE(degeneracyHeadline(report, kNames), std::string("85.0 % of the decisions go to 2 classes (frog, airplane)"));
    }

    void aReportWrittenByIndexIsShownByName()
    {
        EvaluationReport report = piledReport();
        report.warnings.insert(report.warnings.begin(), "the eq7 rule is degenerate with negative utilities");
        const std::vector<std::string> shown = warningsWithClassNames(report, kNames);
        QCOMPARE(shown.size(), size_t(2));
        QCOMPARE(shown[0], std::string("the eq7 rule is degenerate with negative utilities")); // not the check's: kept
        QVERIFY2(shown[1].find("(frog, airplane)") != std::string::npos, shown[1].c_str());
        // Named twice is named once: the names are already there.
        report.warnings = shown;
        QCOMPARE(warningsWithClassNames(report, kNames), shown);
    }

    void namesThatDoNotFitLeaveIndices()
    {
        const EvaluationReport report = piledReport();
        const std::vector<std::string> tooFew(kNames.begin(), kNames.begin() + 5); // class 6 has no name
        QCOMPARE(degeneracyHeadline(report, tooFew), std::string("85.0 % of the decisions go to 2 classes (index 6, 0)"));
        QCOMPARE(classListText({2, 3}, tooFew), std::string("bird, cat"));
        QCOMPARE(classListText({2, 3}, {}), std::string("index 2, 3"));
    }

    void oneDecidedClassIsNamedAlone()
    {
        // Every image decided as class 3: the second of the two "most decided" classes gets no
        // decision and is not named.
        EvaluationReport report;
        report.classCount = 10;
        report.confusion.assign(10, std::vector<int64_t>(10, 0));
        for (auto& row : report.confusion) {
            row[3] = 2;
        }
        report.overall = {2, 20, 0.1};
        report.warnings = degeneracyWarnings(report);
        QCOMPARE(degeneracyHeadline(report, kNames), std::string("100.0 % of the decisions go to 1 class (cat)"));
        // near chance comes first in the list, the headline is still the piled classes
        QVERIFY2(report.warnings.front().find("near chance") != std::string::npos, report.warnings.front().c_str());
    }

    void aHealthyReportHasNoHeadline()
    {
        EvaluationReport report;
        report.classCount = 2;
        report.confusion = {{5, 0}, {0, 5}};
        report.overall = {10, 10, 1.0};
        QVERIFY(degeneracyWarnings(report, {"a", "b"}).empty());
        QVERIFY(degeneracyHeadline(report, {"a", "b"}).empty());
    }
};

QTEST_APPLESS_MAIN(TestDegeneracyNames)
#include "test_degeneracynames.moc"
