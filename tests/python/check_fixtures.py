"""Checks the fixtures of make_fixtures.py with this Python's PyTorch and python/lbd_studio.py:

  (a) weights.pt, test_probabilities.pt, val_probabilities.pt and the file of `lbd export` load
      with the default torch.load(path) and with torch.load(path, weights_only=True), and hold
      what they should;
  (b) lbd_studio builds the model from weights.pt (every state_dict key matched);
  (c) load_run(RUN).predict(images) reproduces `lbd predict`'s particle_probabilities to 1e-5;
  (d) lbd_studio.decide() gives `lbd eval`'s and `lbd predict`'s decisions under every rule.

Exits 1 when a check fails. Needs no `lbd`: the fixtures can be copied to another machine.

    python3 check_fixtures.py FIXTURES [--module-dir python/]
"""

import argparse
import json
import os
import sys

import torch

TOLERANCE = 1e-5


class CheckFailed(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)


def load_both_ways(path):
    """torch.load(path) and torch.load(path, weights_only=True); returns the second."""
    default = torch.load(path)
    safe = torch.load(path, weights_only=True)
    expect(isinstance(default, dict) and isinstance(safe, dict), f"{path}: not a dict")
    expect(sorted(default) == sorted(safe), f"{path}: the two loads differ in keys")
    print(f"  torch.load and torch.load(weights_only=True) read {os.path.basename(path)}: keys {sorted(safe)}")
    return safe


def check_files(run, manifest):
    """(a): the run's files with both loads; returns weights.pt's dict."""
    names = manifest["class_names"]
    weights = load_both_ways(os.path.join(run, "weights.pt"))
    expect(weights["class_names"] == names, "weights.pt: class names differ from run.json")
    expect(all(isinstance(t, torch.Tensor) for t in weights["state_dict"].values()), "weights.pt: a state_dict entry is no tensor")
    expect(isinstance(weights["arch"], str) and isinstance(weights["particles"], int), "weights.pt: arch or particles of the wrong type")
    expect(torch.equal(weights["normalization_mean"], torch.tensor(manifest["normalization"]["mean"], dtype=torch.float32)),
           "weights.pt: normalisation differs from run.json")
    for split in ("test", "val"):
        path = os.path.join(run, f"{split}_probabilities.pt")
        data = load_both_ways(path)
        p, labels = data["probabilities"], data["labels"]
        expect(p.dtype == torch.float32 and p.dim() == 3 and p.size(0) == weights["particles"] and p.size(2) == len(names),
               f"{path}: probabilities of shape {tuple(p.shape)}")
        expect(labels.dtype == torch.int64 and labels.shape == (p.size(1),), f"{path}: labels of shape {tuple(labels.shape)}")
        expect(data["class_names"] == names, f"{path}: class names differ from run.json")
        expect(torch.allclose(p.sum(-1), torch.ones(()), atol=1e-5), f"{path}: rows do not sum to 1")
    return weights


def max_difference(actual, expected):
    return (actual.double() - torch.tensor(expected, dtype=torch.float64)).abs().max().item()


def check_fixture(folder, lbd_studio):
    """(a), (b) and (c) for one fixture folder; returns the largest difference from lbd predict."""
    with open(os.path.join(folder, "expected.json"), encoding="utf-8") as f:
        expected = json.load(f)
    run = os.path.join(folder, expected["run"])
    with open(os.path.join(run, "run.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    print(f"{expected['arch']}: {folder}")
    weights = check_files(run, manifest)
    exported = load_both_ways(os.path.join(folder, expected["exported"]))
    expect(sorted(exported["state_dict"]) == sorted(weights["state_dict"]), "exported.pt: other state_dict keys than weights.pt")

    # (b): strict load_state_dict inside load_run: a missing or unexpected key fails here.
    model = lbd_studio.build_model(weights["arch"], weights["particles"], weights["input_channels"],
                                   len(weights["class_names"]), float(weights["cosine_scale"]))
    missing, unexpected = model.load_state_dict(weights["state_dict"], strict=False)
    expect(not missing and not unexpected, f"state_dict mismatch: missing {missing}, unexpected {unexpected}")
    loaded = lbd_studio.load_run(run)
    expect(loaded.image_size == (manifest["image"]["height"], manifest["image"]["width"]), "image size not taken from run.json")

    # (c): the decoded pixels of the PNGs that `lbd predict` read.
    images = torch.stack([torch.tensor(i["pixels"], dtype=torch.uint8).view(i["channels"], i["height"], i["width"])
                          for i in expected["images"]])
    predicted = loaded.predict(images)
    expect(predicted.shape == (weights["particles"], len(expected["images"]), len(weights["class_names"])),
           f"predict returned shape {tuple(predicted.shape)}")
    lbd_particles = [[image[j] for image in expected["particle_probabilities"]] for j in range(weights["particles"])]
    difference = max_difference(predicted, lbd_particles)
    mean_difference = max_difference(predicted.mean(0), expected["probabilities"])
    # One image at a time and as float in [0, 1] give the same numbers.
    single = torch.cat([loaded.predict(images[i]) for i in range(images.size(0))], dim=1)
    as_float = loaded.predict(images.float() / 255.0)
    exported_run = lbd_studio.load_run(os.path.join(folder, expected["exported"]))
    exported_difference = (exported_run.predict(images) - predicted).abs().max().item()
    print(f"  predict vs lbd predict: max |difference| = {difference:.3g} (particles), {mean_difference:.3g} (mean); "
          f"one at a time {(single - predicted).abs().max().item():.3g}, float input "
          f"{(as_float - predicted).abs().max().item():.3g}, exported.pt {exported_difference:.3g}")
    expect(difference <= TOLERANCE, f"particle probabilities differ from lbd predict by {difference:.3g} > {TOLERANCE}")
    expect(mean_difference <= TOLERANCE, f"mean probabilities differ from lbd predict by {mean_difference:.3g}")
    expect((single - predicted).abs().max().item() <= TOLERANCE, "predicting one image at a time differs")
    expect((as_float - predicted).abs().max().item() <= TOLERANCE, "float images in [0, 1] differ from uint8")
    expect(exported_difference <= TOLERANCE, "exported.pt predicts otherwise than weights.pt")
    probabilities = lbd_studio.load_probabilities(os.path.join(run, "test_probabilities.pt"))
    expect(probabilities["probabilities"].dim() == 3, "load_probabilities: not [M, N, C]")
    check_decisions(run, expected, lbd_studio)
    return difference


def check_decisions(run, expected, lbd_studio):
    """(d): lbd_studio.decide() against `lbd eval` (confusion matrix of the undeferred decisions on
    the cached test probabilities, deferred count and correct decisions among the decided) and
    `lbd predict` (the decision of every image), for each rule and defer utility of the fixture.
    Returns the number of cases checked."""
    cases = expected.get("decisions", [])
    if not cases:
        return 0
    test = lbd_studio.load_probabilities(os.path.join(run, "test_probabilities.pt"))
    p, labels, names = test["probabilities"], test["labels"].tolist(), list(test["class_names"])
    classes = p.size(2)
    for case in cases:
        what = f"decide(rule={case['rule']}, U={case['utility']}, defer={case['defer']})"
        decided = lbd_studio.decide(p, case["utility"], case["rule"], case["defer"]).tolist()
        undeferred = lbd_studio.decide(p, case["utility"], case["rule"]).tolist()
        confusion = [[0] * classes for _ in range(classes)]
        for t, k in zip(labels, undeferred):
            confusion[t][k] += 1
        expect(confusion == case["confusion"], f"{what}: confusion {confusion} != lbd eval's {case['confusion']}")
        if case["defer"] is not None:
            report = case["defer_report"]
            deferred = sum(1 for k in decided if k == lbd_studio.DEFERRED)
            correct = sum(1 for t, k in zip(labels, decided) if k == t)
            expect(deferred == report["deferred"], f"{what}: {deferred} deferred, lbd eval {report['deferred']}")
            expect(correct == report["selective_accuracy"]["correct"],
                   f"{what}: {correct} correct among the decided, lbd eval {report['selective_accuracy']['correct']}")
        else:
            expect(decided == undeferred, f"{what}: deferred without a defer utility")
        # lbd predict's own probabilities ([N, M, C] in its JSON) and its decision of each image.
        per_image = torch.tensor(case["predict_particle_probabilities"], dtype=torch.float32).transpose(0, 1)
        ours = ["deferred" if k == lbd_studio.DEFERRED else names[k]
                for k in lbd_studio.decide(per_image, case["utility"], case["rule"], case["defer"]).tolist()]
        expect(ours == case["predict_decisions"], f"{what}: {ours} != lbd predict's {case['predict_decisions']}")
    deferred_cases = [c for c in cases if c["defer"] is not None]
    print(f"  decide() equals lbd eval and lbd predict in {len(cases)} cases (rules "
          f"{', '.join(sorted({c['rule'] for c in cases}))}; deferred "
          f"{', '.join(str(c['defer_report']['deferred']) for c in deferred_cases)} of {len(labels)} test images)")
    return len(cases)


def fixture_folders(root):
    """The fixture folders under `root` (or `root` itself), in name order."""
    if os.path.isfile(os.path.join(root, "expected.json")):
        return [root]
    return [os.path.join(root, d) for d in sorted(os.listdir(root)) if os.path.isfile(os.path.join(root, d, "expected.json"))]


def check_fixtures(root, module_dir):
    """Checks every fixture under `root`; returns {arch folder: max difference}, raises CheckFailed."""
    sys.path.insert(0, module_dir)
    import lbd_studio  # noqa: E402 (the module under test, from the source tree)

    print(f"PyTorch {torch.__version__} ({torch.__file__}), lbd_studio from {lbd_studio.__file__}")
    folders = fixture_folders(root)
    expect(folders, f"{root}: no fixtures (expected.json) found")
    return {os.path.basename(f): check_fixture(f, lbd_studio) for f in folders}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fixtures", help="a folder of make_fixtures.py")
    parser.add_argument("--module-dir", default=os.path.join(here, "..", "..", "python"), help="folder of lbd_studio.py")
    args = parser.parse_args()
    try:
        differences = check_fixtures(args.fixtures, args.module_dir)
    except CheckFailed as failure:
        print(f"FAILED: {failure}")
        return 1
    print("max |lbd_studio - lbd predict|: " + ", ".join(f"{k} {v:.3g}" for k, v in differences.items()))
    print(f"{len(differences)} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
