#!/usr/bin/python3
"""Writes the seeds of the `pickle` fuzz target (tools/fuzz/corpus/pickle/): real pickles as
torch.save writes them (its archive's data.pkl), made with Debian's python3-torch (1.13) and
python3-torchvision, plus plain protocol-2 pickles with the memo. Each seed is the pickle's bytes
alone (PROTO .. STOP), what core/util/picklereader.h's readPickle takes; every one is < 64 KiB.
An LBD weights.pt given as an argument adds its data.pkl as a seed.
    /usr/bin/python3 tools/fuzz/make_pickle_seeds.py [path/to/weights.pt ...]"""
import collections
import io
import os
import pickle
import sys
import zipfile

import torch
import torchvision

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "pickle")


def data_pkl(archive_bytes):
    with zipfile.ZipFile(io.BytesIO(archive_bytes)) as archive:
        name = next(n for n in archive.namelist() if n.endswith("/data.pkl"))
        return archive.read(name)


def saved(obj):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return data_pkl(buffer.getvalue())


def write(name, data):
    assert len(data) < 65536, (name, len(data))
    with open(os.path.join(OUT, name), "wb") as out:
        out.write(data)


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(0)
    # A torchvision state dict: OrderedDict with _metadata, _rebuild_tensor_v2 of storages, the
    # BatchNorm's num_batches_tracked (a LongStorage), the memo shared between them.
    write("resnet18-state-dict.pkl", saved(torchvision.models.resnet18(num_classes=4).state_dict()))
    tiny = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2), torch.nn.Linear(2, 3))
    write("tiny-state-dict.pkl", saved(tiny.state_dict()))
    # A view (offset, strides) into a shared storage, a parameter, and an empty tensor.
    base = torch.arange(12, dtype=torch.float32)
    write("views.pkl", saved({"a": base[2:8].view(2, 3), "b": base.view(3, 4).t(), "empty": torch.zeros(0),
                              "p": torch.nn.Parameter(torch.ones(2)), "half": torch.ones(3, dtype=torch.float16)}))
    # Plain protocol-2 pickles with the memo: a shared list, nested OrderedDicts with _metadata,
    # every scalar kind, long strings (BINUNICODE), big and negative ints (LONG1).
    shared = [1, 2.5, "x"]
    plain = collections.OrderedDict(a=shared, b=shared, c=(None, True, False, -1, 2 ** 40, -2 ** 70, 1.0e300),
                                    d={"nested": collections.OrderedDict(k="v" * 300)}, e=(), f=[])
    plain._metadata = collections.OrderedDict({"": {"version": 1}, "layer": {"version": 2}})
    write("plain-memo-p2.pkl", pickle.dumps(plain, protocol=2))
    write("plain-memo-p4.pkl", pickle.dumps(plain, protocol=4))
    write("scalar-int.pkl", pickle.dumps(7, protocol=2))
    for path in sys.argv[1:]:
        with open(path, "rb") as weights:
            write("lbd-weights.pkl" if len(sys.argv) == 2 else "lbd-weights-" + str(sys.argv.index(path)) + ".pkl", data_pkl(weights.read()))
    for name in sorted(os.listdir(OUT)):
        print(name, os.path.getsize(os.path.join(OUT, name)))


if __name__ == "__main__":
    main()
