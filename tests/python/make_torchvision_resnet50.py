"""The fixture of the torchvision parity test (tests/core/test_pretrainedload.cpp): a torchvision
ResNet-50 with a fixed random initialisation, its state dict as torch.save writes it, a fixed input
batch and the network's features for it (the output of avgpool, flattened, in eval mode).

torchvision's own initialisation leaves every batch norm at weight 1, bias 0, mean 0, var 1 (and
zeroes nothing else we could tell apart), which would let a loader that swaps two batch norms
pass. So every batch norm gets random weights, biases and running statistics here, and every
convolution keeps torchvision's Kaiming draw: each key then carries its own numbers.

No download (there is no internet on the CI machines): weights=None.

    /usr/bin/python3 make_torchvision_resnet50.py --out DIR [--size 64] [--batch 2]

writes DIR/resnet50_state_dict.pt, DIR/input.pt ([B, 3, S, S] float32), DIR/features.pt
([B, 2048] float32), DIR/grey_input.pt ([B, 1, S, S], the first channel) and DIR/grey_features.pt
(the features of that grey batch repeated over 3 channels), each saved with torch.save (zip), and
DIR/layout_2x.pt, DIR/big_endian.pt: the state dict in PyTorch 2.x's archive layout (write_2x_layout).
"""

import argparse
import os
import sys
import zipfile

import torch
import torchvision


def write_2x_layout(source, target, byteorder):
    """The same state dict with the records PyTorch 2.x's torch.save adds (there is no 2.x here):
    <archive>/byteorder (2.1+) and <archive>/.data/serialization_id (2.0+), under another archive
    name (2.x names the folder after the file). Stored uncompressed, as torch.save does."""
    with zipfile.ZipFile(source) as z_in, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as z_out:
        for name in z_in.namelist():
            z_out.writestr("layout_2x/" + name.split("/", 1)[1], z_in.read(name))
        z_out.writestr("layout_2x/byteorder", byteorder)
        z_out.writestr("layout_2x/.data/serialization_id", "1234567890")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    torch.manual_seed(args.seed)
    model = torchvision.models.resnet50(weights=None)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.weight.uniform_(0.5, 1.5)
                module.bias.uniform_(-0.2, 0.2)
                module.running_mean.uniform_(-0.2, 0.2)
                module.running_var.uniform_(0.5, 2.0)
                module.num_batches_tracked.fill_(7)
    model.eval()

    x = torch.randn(args.batch, 3, args.size, args.size)
    with torch.no_grad():
        trunk = torch.nn.Sequential(*list(model.children())[:-1])  # everything up to avgpool
        features = torch.flatten(trunk(x), 1)
        # The same numbers as the model's own forward up to fc, checked so that the fixture
        # cannot drift from what torchvision means by "features".
        logits = model(x)
        assert torch.allclose(model.fc(features), logits, atol=1e-5), "features do not feed fc"

        # A grey image is R = G = B: what a 1-channel model with conv1 summed over the channels
        # must reproduce.
        grey = x[:, :1].contiguous()
        grey_features = torch.flatten(trunk(grey.repeat(1, 3, 1, 1)), 1)

    torch.save(model.state_dict(), os.path.join(args.out, "resnet50_state_dict.pt"))
    torch.save(grey, os.path.join(args.out, "grey_input.pt"))
    torch.save(grey_features, os.path.join(args.out, "grey_features.pt"))
    torch.save(x, os.path.join(args.out, "input.pt"))
    torch.save(features, os.path.join(args.out, "features.pt"))
    write_2x_layout(os.path.join(args.out, "resnet50_state_dict.pt"), os.path.join(args.out, "layout_2x.pt"), "little")
    write_2x_layout(os.path.join(args.out, "resnet50_state_dict.pt"), os.path.join(args.out, "big_endian.pt"), "big")
    print(f"torch {torch.__version__}, torchvision {torchvision.__version__}: "
          f"{len(model.state_dict())} keys, features {tuple(features.shape)}, "
          f"|features| mean {features.abs().mean().item():.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
