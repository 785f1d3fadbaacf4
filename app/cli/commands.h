#pragma once
// The verbs of `lbd`, one file each (cmd_<verb>.cpp). Each returns the process exit status and
// throws InputError for bad input (main prints it and exits 2).
#include <ostream>
#include <string>

#include "app/cli/args.h"

namespace lbd::cli {

void printUsage(std::ostream& out);
int runCommand(const std::string& verb, Args args);

int runData(Args& args);
int runBench(Args& args);
int runTrain(Args& args);
int runEval(Args& args);
int runPredict(Args& args);
int runExport(Args& args);

} // namespace lbd::cli
