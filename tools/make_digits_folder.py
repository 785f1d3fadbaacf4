#!/usr/bin/python3
"""A user's own long-tailed image folder made from scikit-learn's digits (issue 26's first hour):
FOLDER/train/digitC/*.png with 150 down to 8 images per class (150 (8/150)^(c/9), rounded: 517
in all) and a balanced FOLDER/test/digitC/*.png of 25 other images per class, 8x8 grey PNGs.

    /usr/bin/python3 tools/make_digits_folder.py FOLDER
    build/app/lbd train --dataset folder --data-dir FOLDER     # the defaults: used as given

The draw is seeded (0): the same folder every time.
"""
import pathlib
import sys

import numpy as np
from PIL import Image
from sklearn.datasets import load_digits

HEAD, TAIL, CLASSES, TEST = 150, 8, 10, 25


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_digits_folder.py FOLDER")
    root = pathlib.Path(sys.argv[1])
    if root.exists() and any(root.iterdir()):
        sys.exit(f"{root}: exists and is not empty")
    digits = load_digits()
    rng = np.random.default_rng(0)
    total = 0
    for c in range(CLASSES):
        count = int(round(HEAD * (TAIL / HEAD) ** (c / (CLASSES - 1))))
        indices = rng.permutation(np.flatnonzero(digits.target == c))
        for split, chosen in (("train", indices[:count]), ("test", indices[count:count + TEST])):
            folder = root / split / f"digit{c}"
            folder.mkdir(parents=True, exist_ok=True)
            for n in chosen:
                pixels = np.round(digits.images[n] * (255.0 / 16.0)).astype(np.uint8)
                Image.fromarray(pixels, mode="L").save(folder / f"{n:04d}.png")
        total += count
        print(f"digit{c}: {count} training, {TEST} test images")
    print(f"{total} training images in {root}/train, {TEST * CLASSES} in {root}/test")


if __name__ == "__main__":
    main()
