"""Fixtures of the PyTorch round trip, made with the real `lbd` binary and the standard library
only (no torch): for each architecture a tiny run trained on synthetic data, a few PNG images of
the run's image size, `lbd predict RUN IMAGES --json` on them and `lbd export RUN` (and, for two architectures, `lbd eval`
and `lbd predict` under every decision rule). Each lands in
<out>/<arch>/: run/ (the run folder, less its checkpoint), images/*.png, exported.pt and
expected.json (the images' pixels and lbd's predictions), which check_fixtures.py compares
Python's results with. The folder is self-contained: copied to another machine,
check_fixtures.py needs no `lbd` there.

    python3 make_fixtures.py --lbd build/app/lbd --out FIXTURES [--archs smallcnn,resnet32]
"""

import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import time
import zlib

# Tiny runs that train in seconds on two CPU cores. The image sizes differ from the input size on
# purpose, so that lbd's centre padding is part of what the round trip checks: 13 -> 16 is an odd
# difference (a half-pixel offset), 14 -> 16 an even one. Each run holds out a validation split,
# so that it writes val_probabilities.pt.
CONFIGS = {
    "smallcnn": {
        "data": {"synthetic": {"classes": 4, "train_per_class": 40, "test_per_class": 10, "channels": 1, "size": 13}},
        "augment": {"output_size": 16, "padding": 2},
        "model": {"arch": "smallcnn", "particles": 2},
        "train": {"epochs": 2, "batch_size": 32},
    },
    "resnet32": {
        "data": {"synthetic": {"classes": 5, "train_per_class": 30, "test_per_class": 6, "channels": 3, "size": 14}},
        "augment": {"output_size": 16, "padding": 2},
        "model": {"arch": "resnet32", "particles": 3},
        "train": {"epochs": 2, "batch_size": 32},
    },
    "resnet50": {
        "data": {"synthetic": {"classes": 4, "train_per_class": 12, "test_per_class": 3, "channels": 3, "size": 32}},
        "augment": {"output_size": 32, "padding": 2},
        "model": {"arch": "resnet50", "particles": 2},
        "train": {"epochs": 1, "batch_size": 16},
    },
}


def config_for(arch):
    """The full config of the tiny `arch` run (kTinyConfig of tests/app/clitest.h, varied)."""
    spec = CONFIGS[arch]
    return {
        "name": f"roundtrip-{arch}",
        "data": {"dataset": "synthetic", "imbalance_ratio": 4, "val_fraction": 0.2, **spec["data"]},
        "augment": spec["augment"],
        "model": spec["model"],
        "objective": {"alpha": 0.7, "utility": "tail:0.5"},
        "decision": {"utility": "tail:0.5"},
        "train": {"device": "cpu", "threads": 2, **spec["train"]},
    }


def write_png(path, pixels, channels, height, width):
    """Writes CHW uint8 `pixels` (bytes) as an 8-bit grey or RGB PNG."""
    plane = height * width
    rows = []
    for y in range(height):
        row = bytearray([0])  # filter type 0 (none)
        for x in range(width):
            for c in range(channels):
                row.append(pixels[c * plane + y * width + x])
        rows.append(bytes(row))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 0 if channels == 1 else 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows)))
                + chunk(b"IEND", b""))


def test_images(channels, height, width, seed):
    """A few images (CHW bytes) with different statistics: noise, a gradient, black, white."""
    rng = random.Random(seed)
    n = channels * height * width
    noise = bytes(rng.randrange(256) for _ in range(n))
    gradient = bytes((((i % width) * 255) // max(width - 1, 1) + 40 * (i // (height * width))) % 256 for i in range(n))
    return {"noise": noise, "gradient": gradient, "black": bytes(n), "white": bytes([255]) * n}


def run_lbd(lbd, args, env):
    """Runs `lbd ARGS`; raises with its output when it fails. Returns its stdout."""
    started = time.monotonic()
    result = subprocess.run([lbd] + args, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise RuntimeError(f"lbd {' '.join(args)} exited {result.returncode}\nstdout: {result.stdout[-2000:]}\n"
                           f"stderr: {result.stderr[-2000:]}")
    print(f"  lbd {args[0]} took {time.monotonic() - started:.1f} s", flush=True)
    return result.stdout


# lbd_studio.decide() is checked against lbd's own decisions under every rule, with and without a
# defer utility (expected and argmax take one): `lbd eval` on the run's cached test probabilities
# (the confusion matrix of the undeferred decisions, the deferred count) and `lbd predict` image by
# image. Two architectures are enough: the decisions depend on the probabilities, not the model.
DECISION_ARCHS = ("smallcnn", "resnet32")
DECISION_UTILITY = "tail:0.5"
DECISION_CASES = [("expected", None), ("expected", 0.9), ("argmax", None), ("argmax", 0.99), ("mean-logit", None),
                  ("eq7", None)]


def lbd_decisions(lbd, run, image_paths, env):
    """`lbd eval --json` and `lbd predict --json` of the run for every case of DECISION_CASES."""
    cases = []
    for rule, defer in DECISION_CASES:
        extra = ["--rule", rule, "--utility", DECISION_UTILITY] + ([] if defer is None else ["--defer", str(defer)])
        report = json.loads(run_lbd(lbd, ["eval", run, "--json"] + extra, env))
        per_image = json.loads(run_lbd(lbd, ["predict", run, "--json"] + extra + image_paths, env))
        cases.append({"rule": rule, "defer": defer, "utility": DECISION_UTILITY, "confusion": report["confusion"],
                      "defer_report": report.get("defer"), "predict_decisions": [p["decision"] for p in per_image],
                      "predict_particle_probabilities": [p["particle_probabilities"] for p in per_image]})
    return cases


def make_fixture(lbd, out, arch, env):
    """Trains, predicts and exports the tiny `arch` run into out/<arch>/."""
    folder = os.path.join(out, arch)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "images"))
    config_path = os.path.join(folder, "config.json")
    with open(config_path, "w", encoding="utf-8") as f:
        json.dump(config_for(arch), f, indent=2)
    run = os.path.join(folder, "run")
    print(f"{arch}: training a tiny run", flush=True)
    run_lbd(lbd, ["train", "--config", config_path, "--out", run, "--quiet"], env)

    with open(os.path.join(run, "run.json"), encoding="utf-8") as f:
        image = json.load(f)["image"]
    channels, height, width = image["channels"], image["height"], image["width"]
    images = []
    for name, pixels in test_images(channels, height, width, seed=len(arch)).items():
        path = os.path.join(folder, "images", f"{name}.png")
        write_png(path, pixels, channels, height, width)
        images.append({"file": os.path.relpath(path, folder), "channels": channels, "height": height,
                       "width": width, "pixels": list(pixels)})
    image_paths = [os.path.join(folder, i["file"]) for i in images]
    predicted = json.loads(run_lbd(lbd, ["predict", run, "--json"] + image_paths, env))
    decisions = lbd_decisions(lbd, run, image_paths, env) if arch in DECISION_ARCHS else []
    run_lbd(lbd, ["export", run, "--out", os.path.join(folder, "exported.pt")], env)
    # The checks need no checkpoint (350 MB for the ResNet-50 run); without it a fixture of the
    # small architectures is a few MB, small enough to copy to a machine with another PyTorch.
    os.remove(os.path.join(run, "checkpoint.pt"))
    expected = {"arch": arch, "run": "run", "exported": "exported.pt", "images": images,
                "particle_probabilities": [p["particle_probabilities"] for p in predicted],
                "probabilities": [p["probabilities"] for p in predicted], "decisions": decisions}
    with open(os.path.join(folder, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f)
    return folder


def make_fixtures(lbd, out, archs):
    """Makes the fixtures of every arch in `archs` under `out`. Returns their folders."""
    env = dict(os.environ)
    env["LBD_RUNS_DIR"] = os.path.join(out, "default-runs")  # nothing may land in the user's home
    os.makedirs(out, exist_ok=True)
    return [make_fixture(lbd, out, arch, env) for arch in archs]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lbd", required=True, help="the lbd binary")
    parser.add_argument("--out", required=True, help="folder for the fixtures")
    parser.add_argument("--archs", default=",".join(CONFIGS), help="comma-separated architectures")
    args = parser.parse_args()
    make_fixtures(args.lbd, args.out, args.archs.split(","))
    return 0


if __name__ == "__main__":
    sys.exit(main())
