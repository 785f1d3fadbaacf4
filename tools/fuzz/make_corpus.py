#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target into tools/fuzz/corpus/<target>/: small valid
files and edge cases of each format, so the fuzzer starts inside the formats rather than at
random bytes. The files are committed; rerun this after changing it (python3 make_corpus.py)."""
import gzip
import json
import os
import shutil
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "corpus")


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as out:
        out.write(data if isinstance(data, bytes) else data.encode())


def idx(shape, fill=lambda i: i % 251):
    count = 1
    for size in shape:
        count *= size
    header = bytes([0, 0, 8, len(shape)]) + b"".join(struct.pack(">I", s) for s in shape)
    return header + bytes(fill(i) for i in range(count))


def idx_seeds():
    two_images = idx([2, 28, 28])
    labels = idx([2], lambda i: i + 3)
    seeds = {
        "images2.idx3": two_images,
        "labels2.idx1": labels,
        "empty.idx1": idx([0]),
        "claims10M.idx3": idx([10000000, 28, 28])[:16] + bytes(64),
        "zero-images-huge.idx3": idx([0, 100000, 100000]),
        "four-dims.idx4": idx([1, 2, 3, 4]),
        "truncated.idx3": two_images[:100],
        "wrong-magic": b"\x00\x00\x0d\x03" + two_images[4:40],
    }
    for name, data in seeds.items():
        write("idx_raw", name, data)
        write("idx_gzip", name, b"\x00" + data)  # first byte: cut 0 bytes off the gzip stream
    write("idx_raw", "images2.idx3.gz", gzip.compress(two_images, mtime=0))
    write("idx_raw", "truncated.gz", gzip.compress(two_images, mtime=0)[:60])
    write("idx_gzip", "cut-trailer", b"\x06" + labels)


def cifar_seeds():
    ten = b"".join(bytes([label]) + bytes((label * 7 + i) % 256 for i in range(3072)) for label in (3, 9))
    hundred = b"".join(bytes([1, fine]) + bytes(3072) for fine in (0, 99))
    write("cifar", "cifar10-2records", b"\x00" + ten)
    write("cifar", "cifar100-2records", b"\x01" + hundred)
    write("cifar", "cifar10-label-10", b"\x00" + bytes([10]) + bytes(3072))
    write("cifar", "cifar10-truncated", b"\x00" + ten[:4000])
    write("cifar", "cifar10-gzip", b"\x00" + gzip.compress(ten, mtime=0))
    names = "\n".join(["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"])
    write("cifar", "names-only", b"\x02" + names.encode())


def list_seeds():
    write("list", "two-classes", "a.png 0\nb.png 1\nc.png 1\n")
    write("list", "spaces-comments-crlf", "# comment\n\nsub dir/c d.png 1\r\nx.png\t0\r\n")
    write("list", "big-label", "a.png 0\nb.png 99999\n")
    write("list", "negative-label", "a.png -1\n")
    write("list", "names", "cat\ndog \n\nbird\n")


def png(width, height):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    rows = b"".join(b"\x00" + bytes(3 * width) for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def image_seeds():
    jpeg_sof = b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", 20, 24) + b"\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    bmp_info = struct.pack("<IiiHHIIiiII", 40, 3, -2, 1, 24, 0, 0, 2835, 2835, 0, 0)
    bmp = b"BM" + struct.pack("<IHHI", 14 + 40 + 24, 0, 0, 54) + bmp_info + bytes(24)
    tiff_le = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 2) \
        + struct.pack("<HHII", 256, 3, 1, 300) + struct.pack("<HHII", 257, 4, 1, 200) + b"\x00\x00\x00\x00"
    tiff_be = b"MM\x00*" + struct.pack(">I", 8) + struct.pack(">H", 2) \
        + struct.pack(">HHIHH", 256, 3, 1, 300, 0) + struct.pack(">HHII", 257, 4, 1, 200) + b"\x00\x00\x00\x00"
    vp8 = b"RIFF" + struct.pack("<I", 30) + b"WEBPVP8 " + struct.pack("<I", 18) \
        + b"\x50\x02\x00\x9d\x01\x2a" + struct.pack("<HH", 24, 20) + bytes(8)
    vp8l = b"RIFF" + struct.pack("<I", 20) + b"WEBPVP8L" + struct.pack("<I", 5) + b"\x2f" \
        + struct.pack("<I", (24 - 1) | ((20 - 1) << 14))
    vp8x = b"RIFF" + struct.pack("<I", 22) + b"WEBPVP8X" + struct.pack("<I", 10) + bytes(4) \
        + (24 - 1).to_bytes(3, "little") + (20 - 1).to_bytes(3, "little")
    seeds = {
        "tiny.png": png(3, 2),
        "huge-claim.png": png(1, 1)[:16] + struct.pack(">II", 100000, 100000) + png(1, 1)[24:],
        "app-dht-sof2.jpg": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
                            + b"\xff\xc4\x00\x05\x00\x00\x00" + jpeg_sof.replace(b"\xff\xc0", b"\xff\xc2") + b"\xff\xd9",
        "baseline.jpg": b"\xff\xd8" + jpeg_sof + b"\xff\xda\x00\x02\xff\xd9",
        "topdown.bmp": bmp,
        "core.bmp": b"BM" + bytes(12) + struct.pack("<IHHHH", 12, 5, 4, 1, 24),
        "le.tiff": tiff_le,
        "be.tiff": tiff_be,
        "lossy.webp": vp8,
        "lossless.webp": vp8l,
        "extended.webp": vp8x,
        "p1.pbm": b"P1\n# comment\n3 2\n1 0 1\n0 1 0\n",
        "p5.pgm": b"P5 4 4 255\n" + bytes(16),
        "p6.ppm": b"P6\n2 2\n255\n" + bytes(12),
        "p7.pam": b"P7\nWIDTH 2\nHEIGHT 3\nDEPTH 1\nMAXVAL 255\nTUPLTYPE GRAYSCALE\nENDHDR\n" + bytes(6),
        "tiny.gif": b"GIF89a\x02\x00\x02\x00\x00\x00\x00;",
    }
    for name, data in seeds.items():
        write("imageheader", name, data)


def utility_seeds():
    write("utilitymatrix", "named.csv", "cat,dog,bird\n1,0,0\n0,1,-0.5\n0,0,1\n")
    write("utilitymatrix", "plain.csv", "# a comment\n1,0\n0,1\n")
    write("utilitymatrix", "named.json", json.dumps({"classes": ["bird", "cat", "dog"],
                                                     "matrix": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}))
    write("utilitymatrix", "plain.json", json.dumps({"matrix": [[1, -2], [0, 1e6]]}))
    write("utilitymatrix", "spec-tail", "tail:2")
    write("utilitymatrix", "spec-onehot", "onehot")


def config_seeds():
    presets = os.path.join(ROOT, "resources", "presets")
    for name in sorted(os.listdir(presets)):
        if name.endswith(".json"):
            shutil.copyfile(os.path.join(presets, name), os.path.join(CORPUS, "configjson", name))
    # The keys no preset sets (each written only when set): a seed per baseline with all of them,
    # so that the fuzzer starts at their typed reads rather than having to invent their names.
    with open(os.path.join(presets, "quick-cpu.json")) as preset:
        base = json.load(preset)
    for baseline in ["ce", "logit-adjusted", "balanced-softmax"]:
        config = json.loads(json.dumps(base))
        config.setdefault("data", {}).update({"cache": "auto", "cache_dir": "/tmp/lbd-cache", "decode_threads": 2})
        config.setdefault("model", {})["init_from"] = "/tmp/runs/earlier/weights.pt"
        config.setdefault("objective", {}).update({"baseline": baseline, "logit_adjust_tau": 0.5,
                                                   "logit_adjustment": True})
        write("configjson", "new-keys-" + baseline + ".json", json.dumps(config, indent=1))


TINY_STUDY = {"name": "tiny", "title": "Tiny", "claim": "none",
              "config": {"name": "tiny", "data": {"dataset": "synthetic", "imbalance_ratio": 4,
                                                  "synthetic": {"classes": 4, "train_per_class": 40, "test_per_class": 10,
                                                                "channels": 1, "size": 16}},
                         "augment": {"output_size": 16, "padding": 2},
                         "model": {"arch": "smallcnn", "particles": 2},
                         "objective": {"alpha": 0.7, "utility": "tail:0.5"},
                         "decision": {"utility": "tail:0.5"},
                         "train": {"epochs": 2, "batch_size": 32, "device": "cpu", "threads": 2}},
              "seeds": [0, 1],
              "factors": [{"name": "method", "levels": [
                  {"label": "CE", "baseline": "ce"}, {"label": "LBD"},
                  {"label": "broken", "set": {"data.dataset": "folder", "data.data_dir": "/nonexistent"}}]}]}


def study_seeds():
    """The shipped studies (resources/studies) and a tiny one whose levels use the newer baselines
    and config keys (data.cache, model.init_from, objective.logit_adjust_tau)."""
    studies = os.path.join(ROOT, "resources", "studies")
    for name in sorted(os.listdir(studies)):
        if name.endswith(".json"):
            shutil.copyfile(os.path.join(studies, name), os.path.join(CORPUS, "studyspec", name))
    write("studyspec", "tiny-study.json", json.dumps(TINY_STUDY))
    newer = json.loads(json.dumps(TINY_STUDY))
    newer["factors"] = [{"name": "method", "levels": [
        {"label": "LA", "baseline": "logit-adjusted", "set": {"objective.logit_adjust_tau": 1.5}},
        {"label": "BS", "baseline": "balanced-softmax"},
        {"label": "cached", "set": {"data.cache": "auto", "data.cache_dir": "/tmp/c", "data.decode_threads": 1}},
        {"label": "warm", "set": {"model.init_from": "/tmp/runs/a/weights.pt"}}]}]
    write("studyspec", "newer-keys-study.json", json.dumps(newer))


def full_report():
    """A report.json with every section the reader takes (small: 2 classes, 3 bins, 2 curve
    points), so that the fuzzer starts past the first missing field and reaches each typed read."""
    def group(correct, total):
        return {"correct": correct, "total": total, "accuracy": correct / total}

    def regions(names):
        return [dict(group(r + 1, 4), region=name) for r, name in enumerate(names)]

    bins = [{"lower": i / 3, "upper": (i + 1) / 3, "count": i, "accuracy": 0.5, "mean_confidence": 0.4} for i in range(3)]
    calibration = {"count": 3, "ece": 0.1, "mce": 0.2, "bins": bins}
    metrics = {"brier": 0.3, "classwise_ece": 0.1, "adaptive_ece": 0.12,
               "ece_interval": {"low": 0.05, "high": 0.2, "level": 0.95, "resamples": 200, "seed": 7}}
    split = {"head_classes": 1, "false_heads": 2, "tail_images": 4, "rate": 0.5}
    return {"evaluation": {
        "rule": "expected", "classes": 2, "images": 8, "particles": 2, "accuracy": group(5, 8),
        "regions": {"thirds": regions(["head", "med", "tail"]), "counts": regions(["many", "medium", "few"])},
        "per_class": [group(3, 4), {"correct": 0, "total": 0, "accuracy": None}], "confusion": [[3, 1], [2, 2]],
        "fhr": {"curve": [split], "points": [dict(split, ratio=0.5)], "convention": "k head classes",
                "curve_mean": 0.5, "points_mean": 0.5},
        "calibration": calibration, "calibration_by_region": [dict(calibration, region="head")],
        "auroc": {"confidence": 0.7, "negative_entropy": None}, "nll": 0.9, "calibration_metrics": metrics,
        "temperature": {"value": 1.5}, "uncalibrated": {"accuracy": 0.6, "nll": 1.1, "ece": 0.2, "mce": 0.3,
                                                        "calibration_metrics": metrics},
        "published": {"accuracy": 0.625, "ece": 0.11, "auroc": 0.66, "unbinned": 1, "bins": bins},
        "mean_utility": 0.625,
        "risk_coverage": {"all": {"count": 8, "aurc": 0.3, "coverage": [0.5, 1.0], "risk": [0.25, 0.375]},
                          "tail": {"count": 4, "aurc": 0.5, "coverage": [1.0], "risk": [0.5]}},
        "defer": {"utility": 0.2, "deferred": 2, "decided": 6, "coverage": 0.75, "selective_accuracy": group(5, 6),
                  "selective_regions": regions(["head", "med", "tail"])},
        "warnings": ["near chance"]}, "train_seconds": 12.5, "decision_rule": "expected"}


def runfolder_seeds():
    # First byte: 0 config.json, 1 run.json, 2 status.json, 3 report.json, 4 metrics.jsonl.
    with open(os.path.join(ROOT, "resources", "presets", "quick-cpu.json"), "rb") as preset:
        write("runfolder", "config", b"\x00" + preset.read())
    manifest = {"dataset": "fashion-mnist", "class_names": ["a", "b"], "train_counts": [5, 1], "test_counts": [2, 2],
                "image": {"channels": 1, "height": 28, "width": 28}, "input_size": 32,
                "normalization": {"mean": [0.5], "std": [0.25]}, "device": "cpu", "created": "2026-01-01T00:00:00Z"}
    write("runfolder", "manifest", b"\x01" + json.dumps(manifest).encode())
    status = {"state": "stopped", "epochs_done": 3, "epochs": 10, "checkpoint_epoch": 3, "message": "stopped",
              "updated": "2026-01-01T00:10:00Z"}
    write("runfolder", "status", b"\x02" + json.dumps(status).encode())
    report = {"evaluation": {"rule": "argmax", "classes": 2, "images": 4,
                             "overall": {"accuracy": 0.5, "correct": 2, "total": 4},
                             "warnings": ["near chance"]}, "train_seconds": 12.5}
    write("runfolder", "report", b"\x03" + json.dumps(report).encode())
    write("runfolder", "report-full", b"\x03" + json.dumps(full_report(), separators=(",", ":")).encode())
    write("runfolder", "metrics", b"\x04" + b'{"epoch": 1, "train_loss": 0.7, "test_accuracy": 0.5}\n')
    # The second session's finding (an epoch of 2.2e82 reached a float-to-int conversion), kept as a seed.
    write("runfolder", "float-epoch-2e82", b"\x04" + b'{"epoch": ' + b"2" * 82 + b"5}\n")


if __name__ == "__main__":
    # Only the targets written here: pickle and datasetcache seeds come from make_binary_seeds.sh
    # (they need PyTorch and the lbd binary) and are kept.
    for target in ["idx_raw", "idx_gzip", "cifar", "list", "imageheader", "utilitymatrix", "configjson",
                   "runfolder", "studyspec"]:
        shutil.rmtree(os.path.join(CORPUS, target), ignore_errors=True)
    os.makedirs(os.path.join(CORPUS, "configjson"))
    os.makedirs(os.path.join(CORPUS, "studyspec"))
    idx_seeds()
    cifar_seeds()
    list_seeds()
    image_seeds()
    utility_seeds()
    config_seeds()
    runfolder_seeds()
    study_seeds()
    for target in sorted(os.listdir(CORPUS)):
        print(target, len(os.listdir(os.path.join(CORPUS, target))), "files")
