#pragma once
// The study runner's value types declared to Qt's meta-type system: they cross from the study's
// worker thread to the GUI thread in queued signals.
#include <QMetaType>

#include "core/study/studyrunner.h"

Q_DECLARE_METATYPE(lbd::StudyProgress)
Q_DECLARE_METATYPE(lbd::StudyOutcome)
