#!/usr/bin/env python3
"""kill -9 during training, then --resume: is anything lost or corrupted?

    tools/kill_trials.py --lbd build/app/lbd [--trials 20] [--markdown docs/results/kill-trials.md]

A small synthetic run (12 epochs, a checkpoint every epoch) is trained once uninterrupted to learn
how long it takes (T). Each trial starts the same run and sends SIGKILL after a delay drawn over
the whole run, a third of them in its last 15 % (the final evaluation and the final files:
report.json, test_probabilities.pt, weights.pt). Then `lbd train --resume` must exit 0 and leave a
finished run with every final file, and the report's test accuracy must equal the uninterrupted
run's (training is deterministic on the CPU, and resuming restores the sampler, the RNG and the
optimizer). A run killed before its first checkpoint resumes from epoch 1 on its saved split; one
killed before its folder existed has nothing to resume and is counted apart.
Standard library only.
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CONFIG = {
    "name": "kill-trial",
    "data": {"dataset": "synthetic", "imbalance_ratio": 4,
             "synthetic": {"classes": 4, "train_per_class": 600, "test_per_class": 25, "channels": 1, "size": 16}},
    "augment": {"output_size": 16, "padding": 2},
    "model": {"arch": "smallcnn", "particles": 2},
    "train": {"epochs": 12, "batch_size": 32, "device": "cpu", "threads": 1, "checkpoint_every": 1},
}
FINAL_FILES = ("report.json", "test_probabilities.pt", "weights.pt", "checkpoint.pt", "config.json", "run.json")


def train(lbd, config, out, kill_after=None):
    process = subprocess.Popen([lbd, "train", "--config", config, "--out", out, "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    if kill_after is None:
        output, _ = process.communicate()
        return process.returncode, output.decode("utf-8", "replace")
    try:
        process.wait(timeout=kill_after)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
    output, _ = process.communicate()
    return process.returncode, output.decode("utf-8", "replace")


def resume(lbd, out):
    result = subprocess.run([lbd, "train", "--resume", out, "--quiet"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    return result.returncode, result.stdout.decode("utf-8", "replace")


def test_accuracy(folder):
    with open(os.path.join(folder, "report.json")) as f:
        report = json.load(f)
    # The whole test evaluation, not one number: a resumed run must decide every image alike.
    return json.dumps(report["evaluation"]["accuracy"]) + json.dumps(report["evaluation"]["confusion"])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lbd", required=True)
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown")
    options = parser.parse_args()
    lbd = os.path.abspath(options.lbd)
    root = tempfile.mkdtemp(prefix="lbd-kill-")
    os.environ["LBD_CONFIG_DIR"] = os.path.join(root, "settings")
    rng = random.Random(options.seed)
    rows, lost = [], 0
    try:
        config = os.path.join(root, "config.json")
        with open(config, "w") as f:
            json.dump(CONFIG, f)
        reference = os.path.join(root, "reference")
        start = time.monotonic()
        code, output = train(lbd, config, reference)
        duration = time.monotonic() - start
        if code != 0:
            sys.exit("the uninterrupted run failed:\n" + output)
        expected = test_accuracy(reference)
        print("uninterrupted run: %.1f s, test accuracy %s" % (duration, expected.split("}")[0] + "}"))
        for trial in range(options.trials):
            late = trial % 3 == 2
            delay = rng.uniform(0.85 * duration, duration) if late else rng.uniform(0.2, duration)
            out = os.path.join(root, "trial-%02d" % trial)
            code, output = train(lbd, config, out, kill_after=delay)
            killed = code == -signal.SIGKILL
            has_checkpoint = os.path.exists(os.path.join(out, "checkpoint.pt"))
            status = ""
            if os.path.exists(os.path.join(out, "status.json")):
                with open(os.path.join(out, "status.json")) as f:
                    status = json.load(f).get("state", "")
            verdict = ""
            if not killed:
                verdict = "finished before the kill (exit %d)" % code
                resumed = (0, "")
            elif not os.path.isdir(out):
                verdict = "killed before the run folder existed: nothing to resume"
                rows.append((trial, delay, status, verdict))
                print("trial %2d: kill at %5.2f s, status %-10s %s" % (trial, delay, status, verdict))
                continue
            else:
                resumed = resume(lbd, out)
                if not has_checkpoint:
                    verdict = "killed before the first checkpoint"
            missing = [name for name in FINAL_FILES if not os.path.exists(os.path.join(out, name))]
            with open(os.path.join(out, "status.json")) as f:
                final_status = json.load(f).get("state")
            accuracy = test_accuracy(out) if "report.json" not in missing else None
            problems = []
            if resumed[0] != 0:
                problems.append("resume exit %d: %s" % (resumed[0], resumed[1].strip()[-400:]))
            if missing:
                problems.append("missing %s" % missing)
            if final_status != "finished":
                problems.append("status %s" % final_status)
            if accuracy != expected:
                problems.append("test accuracy %s, uninterrupted %s" % (accuracy, expected))
            if problems:
                lost += 1
            verdict = (verdict + "; " if verdict else "") + ("resumed, complete, same accuracy" if not problems
                                                             else "LOST/CORRUPTED: " + "; ".join(problems))
            rows.append((trial, delay, status, verdict))
            print("trial %2d: kill at %5.2f s, status %-10s %s" % (trial, delay, status, verdict))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if options.markdown:
        with open(options.markdown, "w") as f:
            f.write("Uninterrupted run: %.1f s. %d trials, %d lost or corrupted.\n\n" % (duration, len(rows), lost))
            f.write("| trial | kill after (s) | status.json after the kill | outcome |\n|---|---|---|---|\n")
            for trial, delay, status, verdict in rows:
                f.write("| %d | %.2f | %s | %s |\n" % (trial, delay, status or "(none)", verdict))
    print("%d trials, %d lost or corrupted" % (len(rows), lost))
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
