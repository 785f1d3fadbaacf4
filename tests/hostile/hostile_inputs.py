#!/usr/bin/env python3
"""Hostile but fair inputs to `lbd`, each run as a user would run it, measured.

Every case names what it feeds `lbd`, the exit statuses it accepts (2 bad input, 1 an I/O fault
or a failed run), words the message must contain (the file or option at fault, the limit), and
what must hold afterwards (no temp file left, status.json consistent, the last checkpoint
intact). Each command is measured: exit status, peak resident memory of the process (wait4's
ru_maxrss) and wall time. The bars: no crash (a signal), no case above --max-rss-mb, none over
--time-limit seconds.

    hostile_inputs.py --lbd build/app/lbd                 # CTest: fails on any broken case
    hostile_inputs.py --lbd build/app/lbd --markdown F    # also writes the measured table to F

Only the Python standard library: the fixtures (a 30000 x 30000 PNG, a gzip IDX file claiming
ten million images, ...) are written byte by byte here.
"""
import argparse
import json
import os
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

import round_three

TINY_CONFIG = {
    "name": "tiny",
    "data": {"dataset": "synthetic", "imbalance_ratio": 4,
             "synthetic": {"classes": 4, "train_per_class": 40, "test_per_class": 10, "channels": 1, "size": 16}},
    "augment": {"output_size": 16, "padding": 2},
    "model": {"arch": "smallcnn", "particles": 2},
    "train": {"epochs": 2, "batch_size": 32, "device": "cpu", "threads": 2},
}


class Outcome:
    def __init__(self, code, rss_mb, seconds, output):
        self.code, self.rss_mb, self.seconds, self.output = code, rss_mb, seconds, output


def run(command, time_limit, file_size_limit=None):
    """Runs `command`; returns its exit code (negative: killed by that signal), peak RSS, time."""
    def limit_file_size():
        if file_size_limit is not None:
            # A write past the limit fails with EFBIG instead of killing the process (SIGXFSZ
            # ignored): the same path through our code as a full disk.
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, preexec_fn=limit_file_size, start_new_session=True)
    chunks = []
    reader = threading.Thread(target=lambda: chunks.append(process.stdout.read()))
    reader.start()
    killed = False
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - start > time_limit and not killed:
            os.killpg(process.pid, signal.SIGKILL)
            killed = True
        time.sleep(0.02)
    seconds = time.monotonic() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    reader.join()
    output = b"".join(chunks).decode("utf-8", "replace")
    if killed:
        output += "\n[killed after %.0f s]" % time_limit
    return Outcome(process.returncode, usage.ru_maxrss / 1024.0, seconds, output)


# ---------------------------------------------------------------------------------------------
# Fixtures

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_png(path, width, height, idat=None):
    """A grey 8-bit PNG. Without `idat` the real all-black pixel data is compressed row by row
    (a 30000 x 30000 image is under 1 MB on disk); with it the header may claim anything."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    if idat is None:
        compressor = zlib.compressobj(9)
        parts = []
        rows = b"\x00" * (width + 1) * 64
        for first in range(0, height, 64):
            count = min(64, height - first)
            parts.append(compressor.compress(rows[: (width + 1) * count]))
        parts.append(compressor.flush())
        idat = b"".join(parts)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b""))


def write_gif(path):
    # A valid 1 x 1 GIF89a.
    data = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00"
            b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
    with open(path, "wb") as f:
        f.write(data)


def write_text(path, text):
    with open(path, "w") as f:
        f.write(text)


def write_json(path, value):
    write_text(path, json.dumps(value))


class Fixtures:
    def __init__(self, lbd, root, time_limit):
        self.lbd, self.root, self.time_limit = lbd, root, time_limit
        self.mounts = []
        self.last_code, self.last_output = 0, ""

    def path(self, *parts):
        return os.path.join(self.root, *parts)

    def train_tiny(self, name, **data_overrides):
        config = json.loads(json.dumps(TINY_CONFIG))
        config["data"]["synthetic"].update(data_overrides)
        write_json(self.path(name + ".json"), config)
        out = self.path(name)
        outcome = run([self.lbd, "train", "--config", self.path(name + ".json"), "--out", out, "--quiet"], 600)
        if outcome.code != 0:
            sys.exit("cannot train the fixture run %s:\n%s" % (name, outcome.output))
        return out

    def copy_run(self, source, name):
        target = self.path(name)
        shutil.copytree(source, target)
        return target

    def make(self):
        self.run = self.train_tiny("run")
        self.other_run = self.train_tiny("other", test_per_class=5)
        good = self.path("good.png")
        write_png(good, 20, 20)
        # An image folder with one huge but tiny-on-disk PNG.
        for split in ("train", "test"):
            for label in ("a", "b"):
                os.makedirs(self.path("huge", split, label))
                write_png(self.path("huge", split, label, "ok.png"), 20, 20)
        write_png(self.path("huge", "train", "a", "huge.png"), 30000, 30000)
        write_png(self.path("claims.png"), 100000, 100000, idat=zlib.compress(b"\x00" * 101))
        # A class folder with a symbolic link loop, one with a GIF.
        shutil.copytree(self.path("huge"), self.path("loop"))
        os.remove(self.path("loop", "train", "a", "huge.png"))
        os.symlink("loop2.png", self.path("loop", "train", "a", "loop1.png"))
        os.symlink("loop1.png", self.path("loop", "train", "a", "loop2.png"))
        shutil.copytree(self.path("loop"), self.path("gif"), symlinks=True)
        for name in ("loop1.png", "loop2.png"):
            os.remove(self.path("gif", "train", "a", name))
        write_gif(self.path("gif", "train", "a", "small.gif"))
        # A list file with an absurd label.
        write_text(self.path("labels.txt"), "good.png 0\ngood.png 2000000000\n")
        # Fashion-MNIST's file names; the training images claim ten million 28 x 28 images.
        os.makedirs(self.path("idx"))
        with open(self.path("idx", "train-images-idx3-ubyte.gz"), "wb") as f:
            compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip framing
            f.write(compressor.compress(struct.pack(">IIII", 0x803, 10_000_000, 28, 28)))
            for _ in range(8):
                f.write(compressor.compress(b"\x00" * (1 << 20)))
            f.write(compressor.flush())
        for stem, header in (("train-labels-idx1-ubyte", struct.pack(">II", 0x801, 10_000_000)),
                             ("t10k-images-idx3-ubyte", struct.pack(">IIII", 0x803, 10, 28, 28) + b"\x00" * 7840),
                             ("t10k-labels-idx1-ubyte", struct.pack(">II", 0x801, 10) + b"\x00" * 10)):
            with open(self.path("idx", stem), "wb") as f:
                f.write(header)
        write_json(self.path("array.json"), [1, 2, 3])
        write_text(self.path("nested.json"), "[" * 100000 + "]" * 100000)
        write_text(self.path("nested-object.json"), '{"train": ' + "[" * 100000 + "]" * 100000 + "}")
        write_json(self.path("bad-epochs.json"), {"train": {"epochs": "many"}})
        write_json(self.path("zero-epochs.json"), {"train": {"epochs": 0}})
        write_text(self.path("huge-utility.csv"), "1e308,-1e308,0,0\n0,1,0,0\n0,0,1,0\n0,0,0,1\n")
        os.symlink("/dev/zero", self.path("zero-link.json"))
        write_text(self.path("not-a-folder"), "a regular file\n")
        os.makedirs(self.path("out-dir"))
        make_round_two_fixtures(self)


# ---------------------------------------------------------------------------------------------
# Checks after a command

def no_temp_files(folder):
    left = [name for name in os.listdir(folder) if ".tmp" in name]
    return "temp files left: %s" % left if left else None


def status_is(folder, expected):
    with open(os.path.join(folder, "status.json")) as f:
        status = json.load(f).get("state")
    return None if status == expected else "status.json says %r, expected %r" % (status, expected)


def file_unchanged(path, before):
    with open(path, "rb") as f:
        return None if f.read() == before else path + " changed"


def files_exist(folder, names):
    missing = [n for n in names if not os.path.exists(os.path.join(folder, n))]
    return "missing after the command: %s" % missing if missing else None


def no_path(path):
    return None if not os.path.exists(path) else path + " exists (a refused command left it behind)"


# ---------------------------------------------------------------------------------------------
# The cases: (id, what, command, accepted exit codes, words the message must contain, checks)

def mounted_tmpfs(path, size):
    """A tmpfs of `size` at `path`, or None where mounting is not allowed (not root, a container)."""
    os.makedirs(path, exist_ok=True)
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", path],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return path if result.returncode == 0 else None


def disk_full_cases(fx, case):
    """Training into a really full disk (tmpfs of 200 KB .. 5 MB), where the system allows a mount:
    exit 0 or 1; on 1 the message says "disk full" and names a file in the run; no temp file left;
    status.json (when there is one) agrees with the exit status; and a checkpoint that was written
    resumes to a complete run once the folder is copied to a disk with room."""
    if os.geteuid() != 0:
        return
    for size in ("200k", "500k", "1m", "3m", "5m"):
        mount = mounted_tmpfs(fx.path("tmpfs-" + size), size)
        if not mount:
            return
        fx.mounts.append(mount)
        out = os.path.join(mount, "run")

        def consistent(out=out, mount=mount, size=size):
            code = fx.last_code
            if code == 1 and "disk full" not in fx.last_output:
                return "exit 1 without 'disk full'"
            if not os.path.isdir(out):
                return None
            problem = no_temp_files(out)
            if problem:
                return problem
            if os.path.exists(os.path.join(out, "status.json")):
                try:
                    status = json.load(open(os.path.join(out, "status.json"))).get("state")
                except ValueError:
                    return "status.json is not JSON"
                expected = "finished" if code == 0 else "failed"
                # status.json itself may be the write that failed: then it still says running,
                # and the lock (released at exit) tells a reader that no process runs it.
                if status != expected and not (code == 1 and status == "running"):
                    return "exit %d but status.json says %s" % (code, status)
            if os.path.exists(os.path.join(out, "checkpoint.pt")) and code == 1:
                copy = fx.path("copied-" + size)
                shutil.copytree(out, copy)
                resumed = run([fx.lbd, "train", "--resume", copy, "--quiet"], 600)
                if resumed.code != 0:
                    return "resuming the copied run failed: " + resumed.output.strip()[-300:]
                return files_exist(copy, ["report.json", "test_probabilities.pt", "weights.pt"])
            return None
        case("df-" + size, "training into a full %s tmpfs" % size,
             [fx.lbd, "train", "--config", fx.path("run.json"), "--out", out, "--quiet"], {0, 1}, [], [consistent])


def cases(fx):
    p = fx.path
    lbd = fx.lbd
    out = []

    def case(number, what, args, codes, words=(), checks=(), file_size_limit=None, prepare=None, max_rss_mb=None,
             max_seconds=None):
        out.append(dict(number=number, what=what, args=args, codes=codes, words=words, checks=checks,
                        file_size_limit=file_size_limit, prepare=prepare, max_rss_mb=max_rss_mb, max_seconds=max_seconds))

    # 1-2: a write that fails part way (RLIMIT_FSIZE: EFBIG, the same path as ENOSPC) while the
    # next checkpoint is written. Continue a finished 2-epoch run to 4 epochs under a limit below
    # the checkpoint's size: the old checkpoint stays intact, status.json says failed.
    full = fx.copy_run(fx.run, "disk-full")
    checkpoint = os.path.join(full, "checkpoint.pt")
    with open(checkpoint, "rb") as f:
        checkpoint_bytes = f.read()
    case("1", "write fails while the checkpoint is written (file size limit)",
         [lbd, "train", "--resume", full, "--epochs", "4", "--quiet"], {1}, ["checkpoint.pt", "too large"],
         [lambda: no_temp_files(full), lambda: status_is(full, "failed"),
          lambda: file_unchanged(checkpoint, checkpoint_bytes)],
         file_size_limit=len(checkpoint_bytes) // 2)
    case("1b", "the same run resumed without the limit", [lbd, "train", "--resume", full, "--epochs", "4", "--quiet"],
         {0}, [], [lambda: status_is(full, "finished"), lambda: no_temp_files(full)])

    # 3: killed after the final checkpoint, before the final files.
    cut = fx.copy_run(fx.run, "cut-short")

    def cut_short():
        for name in ("report.json", "test_probabilities.pt", "weights.pt"):
            os.remove(os.path.join(cut, name))
        status = json.load(open(os.path.join(cut, "status.json")))
        status["state"] = "running"
        write_json(os.path.join(cut, "status.json"), status)
    case("3", "--resume after a kill between the final checkpoint and the final files",
         [lbd, "train", "--resume", cut, "--quiet"], {0}, [],
         [lambda: files_exist(cut, ["report.json", "test_probabilities.pt", "weights.pt"]),
          lambda: status_is(cut, "finished")], prepare=cut_short)

    case("4", "a 30000 x 30000 PNG (under 1 MB) in an image folder",
         [lbd, "data", "--dataset", "folder", "--data-dir", p("huge")], {2}, ["huge.png", "pixels"])
    case("5", "a PNG header claiming 100000 x 100000 (predict)", [lbd, "predict", fx.run, p("claims.png")], {2},
         ["claims.png", "pixels"])
    case("6", "--particles 100000", [lbd, "train", "--config", p("run.json"), "--particles", "100000",
                                     "--out", p("refused-particles"), "--quiet"], {2}, ["particles", "64"],
         [lambda: no_path(p("refused-particles"))])
    case("7", "list file with label 2000000000",
         [lbd, "data", "--dataset", "list", "--data-dir", fx.root, "--train-list", p("labels.txt"),
          "--test-list", p("labels.txt")], {2}, ["labels.txt", "2000000000"])
    for number, option, extra in (("8a", "--config", ["train"]), ("8b", "--utility", ["eval", fx.run]),
                                  ("8c", "--train-list", ["data", "--dataset", "list", "--data-dir", fx.root,
                                                          "--test-list", p("labels.txt")])):
        case(number, "/dev/zero as " + option, [lbd] + extra + [option, "/dev/zero"], {2}, ["/dev/zero"])
    case("8d", "a symbolic link to /dev/zero as --config", [lbd, "train", "--config", p("zero-link.json")], {2},
         ["zero-link.json"])
    case("9", "a gzip IDX file claiming 10,000,000 images",
         [lbd, "data", "--dataset", "fashion-mnist", "--data-dir", p("idx")], {2},
         ["train-images-idx3-ubyte.gz", "budget"])
    case("10", "--epochs 99999999999", [lbd, "train", "--config", p("run.json"), "--epochs", "99999999999",
                                        "--out", p("refused-epochs")], {2}, ["epochs"],
         [lambda: no_path(p("refused-epochs"))])
    case("11a", "config file that is a JSON array", [lbd, "train", "--config", p("array.json")], {2},
         ["array.json", "object"])
    case("11b", "config file nested 100000 deep", [lbd, "train", "--config", p("nested.json")], {2}, ["nested.json"])
    case("11c", "config key nested 100000 deep", [lbd, "train", "--config", p("nested-object.json")], {2},
         ["nested-object.json"])
    case("12a", "utility values of +-1e308", [lbd, "eval", fx.run, "--utility", p("huge-utility.csv")], {2},
         ["huge-utility.csv", "1e+06"])
    case("12b", "--utility tail:1e308", [lbd, "eval", fx.run, "--utility", "tail:1e308"], {2}, ["tail"])
    case("13", "symbolic link loop in a class folder", [lbd, "data", "--dataset", "folder", "--data-dir", p("loop")],
         {2}, ["train/a/loop", "symbolic links"])
    case("14a", "--out is a folder (export)", [lbd, "export", fx.run, "--out", p("out-dir")], {2},
         ["out-dir", "folder"])
    case("14b", "--out is a folder (bench)", [lbd, "bench", "--what", "augment", "--out", p("out-dir")], {2},
         ["out-dir", "folder"])

    # 15: a damaged run.json, results from another run.
    for number, what, edit in (
            ("15a", "run.json with input_size 100000", lambda m: m.__setitem__("input_size", 100000)),
            ("15b", "run.json with 3 class names on a 4-class run", lambda m: m.__setitem__("class_names", ["a", "b", "c"]))):
        folder = fx.copy_run(fx.run, "damaged-" + number)

        def damage(folder=folder, edit=edit):
            manifest = json.load(open(os.path.join(folder, "run.json")))
            edit(manifest)
            write_json(os.path.join(folder, "run.json"), manifest)
        case(number, what, [lbd, "eval", folder], {2}, ["run.json"], prepare=damage)
    swapped = fx.copy_run(fx.run, "swapped")
    case("15c", "test_probabilities.pt from another run", [lbd, "eval", swapped], {2}, ["test_probabilities.pt"],
         prepare=lambda: shutil.copy(os.path.join(fx.other_run, "test_probabilities.pt"), swapped))

    flipped = fx.copy_run(fx.run, "flipped")

    def flip_byte():
        path = os.path.join(flipped, "checkpoint.pt")
        data = bytearray(open(path, "rb").read())
        data[len(data) // 2] ^= 0x01
        open(path, "wb").write(bytes(data))
    case("16", "one flipped byte in checkpoint.pt", [lbd, "train", "--resume", flipped, "--epochs", "3"], {2},
         ["checkpoint.pt"], prepare=flip_byte)
    case("17a", "--top 0", [lbd, "predict", fx.run, p("good.png"), "--top", "0"], {2}, ["--top"])
    case("17b", "--top -3", [lbd, "predict", fx.run, p("good.png"), "--top", "-3"], {2}, ["--top"])
    case("17c", "data --json yes", [lbd, "data", "--json", "yes"], {2}, ["yes"])

    # The smaller ones.
    case("s1", "a regular file as --data-dir", [lbd, "data", "--dataset", "folder", "--data-dir", p("not-a-folder")],
         {2}, ["not-a-folder", "not a folder"])
    case("s2", "a valid GIF to classify", [lbd, "predict", fx.run, p("gif", "train", "a", "small.gif")], {2},
         ["small.gif", "GIF"])
    case("s3", "a config error names the file", [lbd, "train", "--config", p("bad-epochs.json")], {2},
         ["bad-epochs.json", "train.epochs"])
    case("s4", "--epochs 1 does not hide an invalid value in the config",
         [lbd, "train", "--config", p("zero-epochs.json"), "--epochs", "1"], {2}, ["zero-epochs.json", "train.epochs"])
    stale = fx.copy_run(fx.run, "stale")

    def mark_running():
        status = json.load(open(os.path.join(stale, "status.json")))
        status["state"] = "running"
        write_json(os.path.join(stale, "status.json"), status)
    case("s5", "status.json says running but no process holds the run",
         [lbd, "train", "--resume", stale, "--epochs", "3", "--quiet"], {0}, [],
         [lambda: status_is(stale, "finished")], prepare=mark_running)
    disk_full_cases(fx, case)
    round_two_cases(fx, case)
    round_three.cases(fx, case)
    return out


def round_two_cases(fx, case):
    """Issue 30's classes: memory bounded while an input within its limit is read, linear parsing,
    typed errors that name the file and field, the command line held to the file formats' limits,
    nothing silently replaced."""
    p = fx.path
    lbd = fx.lbd
    # Class 1: memory while reading.
    sparse = fx.copy_run(fx.run, "sparse-probabilities")

    def make_sparse():
        with open(os.path.join(sparse, "test_probabilities.pt"), "wb") as f:
            f.truncate(2 << 30)  # 2 GiB of zeros that take no disk
    case("r1a", "test_probabilities.pt a 2 GiB sparse file", [lbd, "eval", sparse], {2},
         ["test_probabilities.pt", "its run allows"], prepare=make_sparse)
    case("r1b", "a study factor with 2,000,000 values", [lbd, "study", p("huge-factor-study.json"), "--out",
                                                         p("refused-study")], {2},
         ["huge-factor-study.json", "1000"], [lambda: no_path(p("refused-study"))])
    case("r1c", "a 62 MB list file (under the 64 MiB text limit)",
         [lbd, "data", "--dataset", "list", "--data-dir", fx.root, "--train-list", p("long-list.txt"),
          "--test-list", p("labels-ok.txt")], {2}, ["long-list.txt", "2,000,000 entries"])
    # Class 2: parse time.
    case("r2", "a config of 300,000 empty objects", [lbd, "train", "--config", p("many-objects.json")], {2},
         ["many-objects.json"])
    # Class 3: typed errors name the file and the field.
    for number, what, edit in (
            ("r3a", "status.json with epochs_done a string", lambda s: s.__setitem__("epochs_done", "many")),
            ("r3b", "status.json with state a number", lambda s: s.__setitem__("state", 3))):
        folder = fx.copy_run(fx.run, "typed-" + number)

        def damage(folder=folder, edit=edit):
            status = json.load(open(os.path.join(folder, "status.json")))
            edit(status)
            write_json(os.path.join(folder, "status.json"), status)
        case(number, what, [lbd, "train", "--resume", folder, "--epochs", "3", "--quiet"], {2},
             ["status.json"], prepare=damage)
    for number, what, edit, field in (
            ("r3c", "run.json with class_names a number", lambda m: m.__setitem__("class_names", 3), "class_names"),
            ("r3d", "run.json with image.channels a string", lambda m: m["image"].__setitem__("channels", "one"),
             "image.channels")):
        folder = fx.copy_run(fx.run, "typed-" + number)

        def damage(folder=folder, edit=edit):
            manifest = json.load(open(os.path.join(folder, "run.json")))
            edit(manifest)
            write_json(os.path.join(folder, "run.json"), manifest)
        case(number, what, [lbd, "eval", folder], {2}, ["run.json", "field " + field], prepare=damage)
    typed_report = fx.copy_run(fx.run, "typed-r3e")

    def damage_report():
        report = json.load(open(os.path.join(typed_report, "report.json")))
        report["evaluation"]["accuracy"]["accuracy"] = "high"
        write_json(os.path.join(typed_report, "report.json"), report)
    case("r3e", "report.json with evaluation.accuracy.accuracy a string (diff)", [lbd, "diff", typed_report, fx.other_run],
         {2}, ["report.json", "field evaluation.accuracy.accuracy must be a number (found a string)"],
         prepare=damage_report)
    # Class 4: the command line holds to the file formats' limits.
    case("r4a", "study --seeds 0,0", [lbd, "study", "methods", "--quick", "--seeds", "0,0", "--out", p("r4a")], {2},
         ["seed 0 twice"], [lambda: no_path(p("r4a"))])
    case("r4b", "study --seeds 3000000000", [lbd, "study", "methods", "--quick", "--seeds", "3000000000", "--out",
                                             p("r4b")], {2}, ["3000000000"], [lambda: no_path(p("r4b"))])
    case("r4c", "eval --defer 1e308", [lbd, "eval", fx.run, "--defer", "1e308"], {2}, ["--defer", "1e6"])
    case("r4d", "predict --defer 1e308", [lbd, "predict", fx.run, p("good.png"), "--defer", "1e308"], {2},
         ["1e6"])
    case("r4e", "--set K=1 --set K=2", [lbd, "train", "--config", p("run.json"), "--set", "objective.alpha=1",
                                        "--set", "objective.alpha=2", "--out", p("r4e")], {2},
         ["objective.alpha", "already given"], [lambda: no_path(p("r4e"))])
    # Class 5: nothing silently replaced.
    wrong_matrix = fx.copy_run(fx.run, "wrong-matrix")

    def three_by_three():
        config = json.load(open(os.path.join(wrong_matrix, "config.json")))
        config["decision"]["utility"] = {"matrix": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}
        write_json(os.path.join(wrong_matrix, "config.json"), config)
    case("r5a", "config.json storing a 3 x 3 decision matrix for 4 classes", [lbd, "eval", wrong_matrix], {2},
         ["config.json", "decision.utility"], prepare=three_by_three)


def make_round_two_fixtures(fx):
    p = fx.path
    levels = ",".join(str(i) for i in range(2_000_000))
    write_text(p("huge-factor-study.json"), '{"name": "huge", "preset": "quick-cpu", "seeds": [0], "factors": '
               '[{"name": "lr", "key": "optimizer.lr", "values": [' + levels + ']}]}')
    write_text(p("many-objects.json"), '{"train": [' + ",".join(["{}"] * 300_000) + ']}')
    write_text(p("labels-ok.txt"), "good.png 0\n")
    line = "good.png 0\n"
    with open(p("long-list.txt"), "w") as f:
        f.write(line * (62_000_000 // len(line)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lbd", required=True)
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per command (the bar)")
    parser.add_argument("--max-rss-mb", type=float, default=1024.0, help="peak memory per command (the bar)")
    parser.add_argument("--markdown", help="write the measured table here")
    parser.add_argument("--only", help="comma-separated case ids")
    options = parser.parse_args()
    lbd = os.path.abspath(options.lbd)
    root = tempfile.mkdtemp(prefix="lbd-hostile-")
    env_home = os.path.join(root, "config")
    os.environ["LBD_CONFIG_DIR"] = env_home  # never touch the user's settings or runs folder
    failures = []
    rows = []
    try:
        fixtures = Fixtures(lbd, root, options.time_limit)
        fixtures.make()
        selected = set(options.only.split(",")) if options.only else None
        for c in cases(fixtures):
            if selected and c["number"] not in selected:
                continue
            if c["prepare"]:
                c["prepare"]()
            outcome = run(c["args"], options.time_limit, c["file_size_limit"])
            fixtures.last_code, fixtures.last_output = outcome.code, outcome.output
            problems = []
            if outcome.code < 0:
                problems.append("crashed with signal %d" % -outcome.code)
            elif outcome.code not in c["codes"]:
                problems.append("exit %d, expected %s" % (outcome.code, sorted(c["codes"])))
            for word in c["words"]:
                if word.lower() not in outcome.output.lower():
                    problems.append("the message does not mention %r" % word)
            if outcome.rss_mb > min(options.max_rss_mb, c["max_rss_mb"] or options.max_rss_mb):
                problems.append("peak memory %.0f MB" % outcome.rss_mb)
            if outcome.seconds > min(options.time_limit, c["max_seconds"] or options.time_limit):
                problems.append("took %.1f s" % outcome.seconds)
            for check in c["checks"]:
                problem = check()
                if problem:
                    problems.append(problem)
            message = next((line for line in outcome.output.splitlines() if line.strip()), "")
            rows.append((c["number"], c["what"], outcome.code, outcome.rss_mb, outcome.seconds, message, problems))
            verdict = "ok" if not problems else "FAIL: " + "; ".join(problems)
            print("%-4s exit %3d  %7.0f MB  %6.2f s  %s -- %s" % (c["number"], outcome.code, outcome.rss_mb,
                                                                 outcome.seconds, c["what"], verdict))
            if problems:
                print("     command: %s\n     output: %s" % (" ".join(c["args"]), outcome.output.strip()[-1500:]))
                failures.append(c["number"])
    finally:
        for mount in getattr(locals().get("fixtures"), "mounts", []):
            subprocess.run(["umount", mount])
        shutil.rmtree(root, ignore_errors=True)
    if options.markdown:
        with open(options.markdown, "w") as f:
            f.write("| # | input | exit | peak RSS (MB) | time (s) | first line of the message | verdict |\n")
            f.write("|---|---|---|---|---|---|---|\n")
            for number, what, code, rss, seconds, message, problems in rows:
                verdict = "ok" if not problems else "; ".join(problems)
                f.write("| %s | %s | %d | %.0f | %.2f | %s | %s |\n" % (
                    number, what, code, rss, seconds, message.replace("|", "\\|").replace(root, "TMP"), verdict))
    print("%d cases, %d failed%s" % (len(rows), len(failures), (": " + ", ".join(failures)) if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
