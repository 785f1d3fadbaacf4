"""Issue 35 item 5 and issue 37's run-file cases for hostile_inputs.py, each with its own bars
(peak RSS in MB, seconds): a poisoned checkpoint for every loader, a flipped byte, a 2 GiB
probability file behind an intact start, a study report field of the wrong type, lbd diff on a
48 MB config and on one over the value limit. Only the standard library: the poison is a pickle
written by hand (GLOBAL posix system, as a class whose __reduce__ returns os.system pickles)."""
import json
import os
import subprocess
import zipfile


def poison_pickle(marker):
    # {"x": os.system("touch MARKER")} in protocol 2, the opcodes pickle.dumps writes for it.
    command = ("touch " + marker).encode()
    return (b"\x80\x02}q\x00X\x01\x00\x00\x00xq\x01cposix\nsystem\nq\x02X" + len(command).to_bytes(4, "little")
            + command + b"q\x03\x85q\x04Rq\x05s.")


def poison(path, marker):
    """Replaces the data.pkl of the torch archive at `path`; the other entries stay."""
    with zipfile.ZipFile(path) as source:
        entries = [(info.filename, source.read(info)) for info in source.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as out:
        for name, data in entries:
            out.writestr(name, poison_pickle(marker) if name.endswith("/data.pkl") else data)


def big_config(source, target, side):
    """config.json with a side x side decision matrix of 11-character numbers."""
    with open(source) as f:
        config = json.load(f)
    config["decision"]["utility"] = "MATRIX"
    row = "[" + ",".join("0.123456789" for _ in range(side)) + "]"
    text = json.dumps(config).replace('"MATRIX"', '{"matrix": [' + ",".join(row for _ in range(side)) + "]}")
    with open(target, "w") as f:
        f.write(text)


def cases(fx, case):
    p = fx.path
    lbd = fx.lbd
    loaders = (
        ("r6a", "checkpoint.pt", "predict", lambda run: [lbd, "predict", run, p("good.png")], None),
        ("r6b", "checkpoint.pt", "export --onnx", lambda run: [lbd, "export", run, "--onnx", p("r6b.onnx")], p("r6b.onnx")),
        ("r6c", "checkpoint.pt", "ood --fit", lambda run: [lbd, "ood", run, "--fit"], None),
        ("r6d", "checkpoint.pt", "train --resume", lambda run: [lbd, "train", "--resume", run, "--epochs", "3", "--quiet"], None),
        ("r6e", "checkpoint.pt", "--init-from FILE",
         lambda run: [lbd, "train", "--config", p("run.json"), "--init-from", os.path.join(run, "checkpoint.pt"),
                      "--out", p("r6e-out"), "--quiet"], None),
        ("r6f", "weights.pt", "--init-from RUN",
         lambda run: [lbd, "train", "--config", p("run.json"), "--init-from", run, "--out", p("r6f-out"), "--quiet"], None),
        ("r6g", "test_probabilities.pt", "eval", lambda run: [lbd, "eval", run], None),
    )
    for number, name, command, args, output in loaders:
        folder = fx.copy_run(fx.run, "poisoned-" + number)
        marker = p("marker-" + number)

        def no_payload(marker=marker, output=output):
            if os.path.exists(marker):
                return "the payload ran"
            return output + " written" if output and os.path.exists(output) else None
        case(number, "%s with a pickle calling os.system (%s)" % (name, command), args(folder), {2},
             [name, "posix.system", "refused"], [no_payload],
             prepare=lambda folder=folder, name=name, marker=marker: poison(os.path.join(folder, name), marker),
             max_rss_mb=200, max_seconds=1)
    flipped = fx.copy_run(fx.run, "flipped-r6h")

    def flip_tensor_byte():
        path = os.path.join(flipped, "checkpoint.pt")
        with zipfile.ZipFile(path) as z:
            info = [i for i in z.infolist() if i.filename.endswith("/data/3")][0]
        data = bytearray(open(path, "rb").read())
        data[info.header_offset + 30 + len(info.filename) + len(info.extra) + 10] ^= 1
        open(path, "wb").write(bytes(data))
    case("r6h", "one flipped byte in a tensor of checkpoint.pt (predict)", [lbd, "predict", flipped, p("good.png")], {2},
         ["checkpoint.pt: damaged", "CRC-32"], prepare=flip_tensor_byte, max_rss_mb=200, max_seconds=1)
    grown = fx.copy_run(fx.run, "grown-r6i")

    def grow():
        with open(os.path.join(grown, "test_probabilities.pt"), "r+b") as f:
            f.truncate(2 << 30)  # the start intact, 2 GiB of zeros that take no disk
    case("r6i", "test_probabilities.pt grown to 2 GiB, its start intact", [lbd, "eval", grown], {2},
         ["test_probabilities.pt", "its run allows"], prepare=grow, max_rss_mb=200, max_seconds=1)
    study = p("r6j-study")

    def damage_study_report():
        with open(p("run.json")) as f:
            config = json.load(f)
        with open(p("r6j.json"), "w") as f:
            json.dump({"name": "r6j", "title": "r6j", "claim": "none", "config": config, "seeds": [0],
                       "factors": [{"name": "method", "levels": [{"label": "LBD"}]}]}, f)
        trained = subprocess.run([lbd, "study", p("r6j.json"), "--out", study, "--quiet"], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT)
        if trained.returncode != 0:
            raise RuntimeError("cannot train the r6j study: " + trained.stdout.decode(errors="replace")[-500:])
        path = os.path.join(study, "runs", "lbd", "seed-0", "report.json")
        report = json.load(open(path))
        report["evaluation"]["fhr"]["curve"][0]["head_classes"] = "many"
        json.dump(report, open(path, "w"))
    case("r6j", "study --summarize, a run's report.json field of the wrong type", [lbd, "study", study, "--summarize"],
         {2}, ["report.json", "field evaluation.fhr.curve[0].head_classes must be an integer (found a string)"],
         prepare=damage_study_report, max_rss_mb=200, max_seconds=1)
    big_a, big_b = fx.copy_run(fx.run, "big-config-a"), fx.copy_run(fx.run, "big-config-b")

    def make_big():
        big_config(os.path.join(fx.run, "config.json"), os.path.join(big_a, "config.json"), 1990)
        big_config(os.path.join(fx.run, "config.json"), os.path.join(big_b, "config.json"), 1990)
    case("r6k", "lbd diff of two 48 MB configs (a 1990 x 1990 matrix, within every limit)", [lbd, "diff", big_a, big_b],
         {0}, ["config: no differences"], prepare=make_big, max_rss_mb=400)
    over = fx.copy_run(fx.run, "over-limit-config")
    case("r6l", "lbd diff of a config over the 4,000,000-value limit", [lbd, "diff", fx.run, over], {2},
         ["config.json", "4000000 values"],
         prepare=lambda: big_config(os.path.join(fx.run, "config.json"), os.path.join(over, "config.json"), 2001),
         max_rss_mb=400, max_seconds=1)

    # Issue 37 item 1's rest: values of the right type that no run writes, each refused naming the
    # file and the field (entry) with its range, and the run folder left as it was.
    def edited(folder, name, edit):
        def apply():
            path = os.path.join(folder, name)
            with open(path) as f:
                value = json.load(f)
            edit(value)
            with open(path, "w") as f:
                json.dump(value, f)
        return apply

    def untouched(folder):
        before = {name: open(os.path.join(folder, name), "rb").read() for name in sorted(os.listdir(folder))
                  if os.path.isfile(os.path.join(folder, name)) and name != "train.log"}

        def check():
            for name, data in before.items():
                if open(os.path.join(folder, name), "rb").read() != data:
                    return name + " changed"
            return None
        return check

    ranges = (
        ("r7a", "status.json epochs_done 900 of 2 (train --resume)", "status.json",
         lambda d: d.update(epochs_done=900), lambda run: [lbd, "train", "--resume", run, "--quiet"],
         "status.json: field epochs_done = 900 is outside 0..2"),
        ("r7b", "run.json normalization std 0 (predict)", "run.json",
         lambda d: d["normalization"]["std"].__setitem__(0, 0), lambda run: [lbd, "predict", run, p("good.png")],
         "run.json: field normalization.std[0] = 0 is outside 0.001..0.5"),
        ("r7c", "run.json train count -5 (eval)", "run.json",
         lambda d: d["train_counts"].__setitem__(1, -5), lambda run: [lbd, "eval", run],
         "run.json: field train_counts[1] = -5 is negative"),
        ("r7d", "config.json train.epochs 1 under checkpoint.pt's epoch 2 (export --onnx)", "config.json",
         lambda d: d["train"].update(epochs=1), lambda run: [lbd, "export", run, "--onnx", p("r7d.onnx")],
         "checkpoint.pt: entry epoch = 2 is outside 1..1"),
    )
    for number, what, name, edit, args, message in ranges:
        folder = fx.copy_run(fx.run, "ranges-" + number)
        edited(folder, name, edit)()  # before the snapshot: the check is that the command writes nothing
        case(number, what, args(folder), {2}, [message], [untouched(folder), lambda: p("r7d.onnx") + " written" if os.path.exists(p("r7d.onnx")) else None],
             max_rss_mb=200, max_seconds=1)
