"""CTest `python_roundtrip`: tiny runs trained by the real `lbd` (make_fixtures.py), then checked
with this interpreter's PyTorch and python/lbd_studio.py (check_fixtures.py). Run by Debian's
/usr/bin/python3 with python3-torch: a Python without torch fails here, loudly, never skips.

    /usr/bin/python3 test_roundtrip.py --lbd build/app/lbd --work DIR [--archs smallcnn,resnet32,resnet50]
"""

import argparse
import os
import sys

try:
    import torch
except ImportError as error:
    sys.exit(f"FAILED: {sys.executable} has no PyTorch ({error}); on Debian: apt-get install python3-torch "
             f"(installer/setup.sh installs it)")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_fixtures import CheckFailed, check_fixtures  # noqa: E402
from make_fixtures import CONFIGS, make_fixtures  # noqa: E402


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lbd", required=True)
    parser.add_argument("--work", required=True, help="folder for the fixtures (emptied per architecture)")
    parser.add_argument("--module-dir", default=os.path.join(here, "..", "..", "python"))
    parser.add_argument("--archs", default=",".join(CONFIGS))
    args = parser.parse_args()
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    make_fixtures(args.lbd, args.work, args.archs.split(","))
    try:
        differences = check_fixtures(args.work, args.module_dir)
    except CheckFailed as failure:
        print(f"FAILED: {failure}")
        return 1
    print("max |lbd_studio - lbd predict|: " + ", ".join(f"{k} {v:.3g}" for k, v in differences.items()))
    print(f"fixtures in {args.work}; on another PyTorch: python3 tests/python/check_fixtures.py {args.work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
