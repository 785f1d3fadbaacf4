#include "app/cli/commands.h"

#include "core/eval/decisionrule.h"
#include "core/util/buildinfo.h"
#include "core/util/error.h"

#include <iostream>

namespace lbd::cli {

void printUsage(std::ostream& out)
{
    out << "lbd " << LBD_VERSION << " - Long-tailed Bayesian Decision (LBD Studio command line)\n\n"
        << "usage: lbd <command> [options]\n\n"
        << "commands:\n"
        << "  data     per-class train/test counts, names and regions of a long-tailed data set\n"
        << "             --dataset fashion-mnist|mnist|cifar10|cifar100|folder|list|synthetic\n"
        << "             [--data-dir DIR] [--train-list F --test-list F] [--imbalance-ratio R]\n"
        << "             [--profile exp|step|lbd-published] [--seed S] [--val-fraction F | --val-list F] [--json]\n"
        << "  train    train an LBD particle ensemble: [--preset NAME | --config FILE] [--out RUN_DIR]\n"
        << "             [--device cpu|cuda[:N]] [--resume RUN_DIR] [--epochs N] [--arch A] [--particles M]\n"
        << "             [--baseline lbd|ce|cb|ldam-drw|ensemble] [--alpha A] [--tau T]\n"
        << "             [--train-utility onehot|tail:c|FILE] [--utility-form bounded|published|paper]   (training)\n"
        << "             [--utility onehot|tail:c|FILE] [--rule " << lbd::decisionRuleNameList() << "] [--defer r]   (decisions)\n"
        << "             [--lr X] [--batch-size B] [--checkpoint-every N] [--seed S | --train-seed S] [data flags] [--list-presets] [--quiet]\n"
        << "             [--precision fp16|bf16|fp32] [--no-cuda-graph]   (CUDA only)\n"
        << "  eval     re-decide a run's cached probabilities: RUN_DIR [--utility onehot|tail:c|FILE] [--rule R]\n"
        << "             [--defer r] [--split test|validation] [--json]\n"
        << "             [--tune tail-penalty [--max-accuracy-loss POINTS] | --tune defer [--coverage F]]   (on validation)\n"
        << "  predict  classify images with a run: RUN_DIR IMAGE... [--json] [--top K] [--utility U] [--rule R] [--defer r]\n"
        << "  export   weights for Python (torch.load): RUN_DIR --out FILE.pt\n"
        << "  bench    throughput: --what augment|train|all [--device cpu|cuda[:N]] [--batch B] [--particles M]\n"
        << "             [--arch A] [--seconds S] [--train-seconds S] [--precision fp16|bf16|fp32] [--no-straightforward] [--no-fused-bn] [--json] [--out FILE]\n"
        << "  --version  versions of LBD Studio, LibTorch, OpenCV and the CUDA devices found\n\n"
        << "Exit status: 0 success, 1 run failure, 2 bad input (the message names the file or option).\n";
}

int runCommand(const std::string& verb, Args args)
{
    if (verb == "--version" || verb == "version") {
        const BuildInfo info = buildInfo();
        std::cout << "lbd " << info.lbdVersion << "\nLibTorch " << info.torchVersion << "\nOpenCV " << info.openCvVersion
                  << "\nCUDA " << (info.cudaAvailable ? "available" : "not available") << '\n';
        for (const auto& device : info.cudaDevices) {
            std::cout << "  " << device << '\n';
        }
        return 0;
    }
    if (verb == "data") {
        return runData(args);
    }
    if (verb == "eval") {
        return runEval(args);
    }
    if (verb == "predict") {
        return runPredict(args);
    }
    if (verb == "export") {
        return runExport(args);
    }
    if (verb == "train") {
        return runTrain(args);
    }
    if (verb == "bench") {
        return runBench(args);
    }
    throw InputError("unknown command '" + verb + "' (see lbd --help)");
}

} // namespace lbd::cli
