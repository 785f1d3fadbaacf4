#!/usr/bin/python3
"""Two image folders from Fashion-MNIST for a transfer test of `lbd train --init-from`
(docs/results/pretrained-start.md): a pretraining folder of classes 0-4 (T-shirt/top, Trouser,
Pullover, Dress, Coat) and a SMALL user folder of the other five classes (Sandal, Shirt, Sneaker,
Bag, Ankle boot), which the pretrained run has never seen. Images are 28x28 grey PNGs.

    /usr/bin/python3 tools/make_fmnist_transfer.py OUT [--pretrain-per-class 1000]
        [--small-per-class 20] [--test-per-class 100] [--idx-dir /usr/share/datasets/fashion-mnist]

writes
    OUT/pretrain/train/<class>/*.png   classes 0-4, PRETRAIN images each, from the training file
    OUT/pretrain/test/<class>/*.png    classes 0-4, 200 each, from the test file
    OUT/small/train/<class>/*.png      classes 5-9, SMALL images each, from the training file
    OUT/small/test/<class>/*.png       classes 5-9, TEST images each, from the test file

The two folders share no class and no image (the training and test files are Fashion-MNIST's
own, disjoint); the draw is seeded (0): the same folders every time. Needs numpy and PIL
(Debian: python3-numpy, python3-pil).
"""
import argparse
import gzip
import pathlib
import sys

import numpy as np
from PIL import Image

NAMES = ["T-shirt_top", "Trouser", "Pullover", "Dress", "Coat",
         "Sandal", "Shirt", "Sneaker", "Bag", "Ankle_boot"]
PRETRAIN_CLASSES = range(0, 5)
SMALL_CLASSES = range(5, 10)
PRETRAIN_TEST = 200


def read_idx(path):
    """The array of an IDX file (gzip or raw): uint8 images [N, 28, 28] or labels [N]."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as f:
        data = f.read()
    magic = int.from_bytes(data[0:4], "big")
    dims = magic & 0xFF
    if magic >> 8 != 0x08 or dims not in (1, 3):
        sys.exit(f"{path}: not an unsigned-byte IDX file (magic {magic:#x})")
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    array = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims)
    if array.size != int(np.prod(shape)):
        sys.exit(f"{path}: {array.size} bytes of data for shape {shape}")
    return array.reshape(shape)


def load(idx_dir, prefix):
    for suffix in (".gz", ""):
        images = idx_dir / f"{prefix}-images-idx3-ubyte{suffix}"
        labels = idx_dir / f"{prefix}-labels-idx1-ubyte{suffix}"
        if images.exists() and labels.exists():
            return read_idx(images), read_idx(labels)
    sys.exit(f"{idx_dir}: no {prefix}-images-idx3-ubyte(.gz) / {prefix}-labels-idx1-ubyte(.gz)")


def write(root, images, labels, classes, per_class, rng):
    """per_class images of each class, drawn without replacement; returns how many were written."""
    total = 0
    for c in classes:
        where = np.flatnonzero(labels == c)
        if len(where) < per_class:
            sys.exit(f"class {c} has {len(where)} images, fewer than {per_class}")
        chosen = np.sort(rng.choice(where, size=per_class, replace=False))
        folder = root / NAMES[c]
        folder.mkdir(parents=True)
        for index in chosen:
            Image.fromarray(images[index], mode="L").save(folder / f"{index:05d}.png")
        total += per_class
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--pretrain-per-class", type=int, default=1000)
    parser.add_argument("--small-per-class", type=int, default=20)
    parser.add_argument("--test-per-class", type=int, default=100)
    parser.add_argument("--idx-dir", default="/usr/share/datasets/fashion-mnist")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    if out.exists() and any(out.iterdir()):
        sys.exit(f"{out}: exists and is not empty")
    idx_dir = pathlib.Path(args.idx_dir)
    train_images, train_labels = load(idx_dir, "train")
    test_images, test_labels = load(idx_dir, "t10k")
    rng = np.random.default_rng(0)
    counts = {
        "pretrain/train": write(out / "pretrain/train", train_images, train_labels, PRETRAIN_CLASSES,
                                args.pretrain_per_class, rng),
        "pretrain/test": write(out / "pretrain/test", test_images, test_labels, PRETRAIN_CLASSES, PRETRAIN_TEST, rng),
        "small/train": write(out / "small/train", train_images, train_labels, SMALL_CLASSES, args.small_per_class, rng),
        "small/test": write(out / "small/test", test_images, test_labels, SMALL_CLASSES, args.test_per_class, rng),
    }
    for name, count in counts.items():
        print(f"{out / name}: {count} images")


if __name__ == "__main__":
    main()
