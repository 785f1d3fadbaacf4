"""Use an LBD Studio run from Python: the particle models as ``torch.nn.Module``s, a run's
weights and predictions that reproduce ``lbd predict``.

    import lbd_studio
    run = lbd_studio.load_run("runs/my-run")     # a run folder, or a file of `lbd export`
    p = run.predict(images)                      # [M, N, C]: every particle's probabilities
    pbar = p.mean(0)                             # the ensemble's mean, as `lbd predict` ranks
    test = lbd_studio.load_probabilities("runs/my-run/test_probabilities.pt")
    d = lbd_studio.decide(test["probabilities"], "tail:2", "expected", defer=0.5)  # as `lbd eval`

Pure PyTorch (1.13 or 2.x); PIL is needed only to predict image files. The models mirror
core/model/ of LBD Studio: the M particles run fused, as grouped convolutions over M channel
blocks (particle j owns channels [j*c, (j+1)*c)), behind a stem shared by all particles; the
parameter names are the keys of weights.pt's "state_dict". Every file of a run is read with
``torch.load(..., weights_only=True)``: they hold only dicts, lists, strings, ints and tensors.
"""

import json
import os

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["load_run", "load_probabilities", "build_model", "preprocess", "Run",
           "ParticleResNet", "ParticleSmallCnn", "CosineClassifier",
           "decide", "decision_scores", "utility_matrix", "RULES", "DEFERRED"]


def _torch_load(path):
    """The object in a torch.save-format file, read on the CPU with weights_only=True."""
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except TypeError:  # a PyTorch without weights_only (before 1.13)
        return torch.load(path, map_location="cpu")
    except RuntimeError as error:
        if "restore_type_tag" in str(error):
            raise RuntimeError(
                f"{path}: written by an LBD Studio before plain pickles; write it anew with "
                f"`lbd export RUN --out FILE` and load that file") from error
        raise RuntimeError(f"{path}: {error}") from error


# ---- building blocks (core/model/particleblocks.*) ---------------------------------------------

def option_a_shortcut(x, particles, stride, pad_per_side):
    """He et al.'s option-A shortcut: subsampled by `stride`, and `pad_per_side` zero channels on
    both sides of every particle's channel block. Returns [B, M*(c+2p), H/stride, W/stride]."""
    y = x[:, :, ::stride, ::stride] if stride != 1 else x
    if pad_per_side == 0:
        return y
    b, channels, h, w = y.shape
    blocks = y.reshape(b, particles, channels // particles, h, w)
    blocks = F.pad(blocks, (0, 0, 0, 0, pad_per_side, pad_per_side))
    return blocks.reshape(b, particles * (channels // particles + 2 * pad_per_side), h, w)


def tile_particles(x, particles):
    """[B, c, H, W] -> [B, M*c, H, W]: a shared input as every particle sees it."""
    return x if particles == 1 else x.repeat(1, particles, 1, 1)


def pool_particle_features(x, particles):
    """[B, M*D, H, W] -> [M, B, D] by global average pooling."""
    pooled = x.mean((2, 3))
    return pooled.view(pooled.size(0), particles, pooled.size(1) // particles).transpose(0, 1)


class ParticleConvBn(nn.Module):
    """Convolution (no bias, padding kernel//2) + BatchNorm over M particles. A shared input
    (the first per-particle layer behind a shared trunk) has c channels for all particles and a
    dense convolution c -> M*out; otherwise the convolution is grouped, groups = M."""

    def __init__(self, particles, in_channels, out_channels, kernel=3, stride=1, shared_input=False):
        super().__init__()
        fused_in = in_channels if shared_input else particles * in_channels
        self.conv = nn.Conv2d(fused_in, particles * out_channels, kernel, stride=stride,
                              padding=kernel // 2, groups=1 if shared_input else particles, bias=False)
        self.bn = nn.BatchNorm2d(particles * out_channels)  # eps 1e-5, momentum 0.1, as LibTorch's

    def forward(self, x):
        """bn(conv(x)), without ReLU."""
        return self.bn(self.conv(x))


class ParticleBasicBlock(nn.Module):
    """CIFAR ResNet basic block (two 3x3 convolutions) with the option-A shortcut."""
    expansion = 1

    def __init__(self, particles, in_planes, planes, stride, shared_input):
        super().__init__()
        if planes < in_planes or (planes - in_planes) % 2:
            raise ValueError("option-A shortcut needs planes >= in_planes with an even difference")
        self.particles, self.stride, self.shared_input = particles, stride, shared_input
        self.pad_per_side = (planes - in_planes) // 2
        self.conv1 = ParticleConvBn(particles, in_planes, planes, 3, stride, shared_input)
        self.conv2 = ParticleConvBn(particles, planes, planes, 3, 1, False)

    def forward(self, x):
        out = F.relu(self.conv1(x))
        if self.shared_input:
            shortcut = tile_particles(option_a_shortcut(x, 1, self.stride, self.pad_per_side), self.particles)
        else:
            shortcut = option_a_shortcut(x, self.particles, self.stride, self.pad_per_side)
        return F.relu(self.conv2(out) + shortcut)


class ParticleBottleneck(nn.Module):
    """ImageNet ResNet bottleneck (1x1, 3x3 with the stride, 1x1 to 4*planes; torchvision's v1.5)
    with a 1x1 convolution + BN projection shortcut where the shape changes."""
    expansion = 4

    def __init__(self, particles, in_planes, planes, stride, shared_input):
        super().__init__()
        self.particles, self.shared_input = particles, shared_input
        out = planes * self.expansion
        self.conv1 = ParticleConvBn(particles, in_planes, planes, 1, 1, shared_input)
        self.conv2 = ParticleConvBn(particles, planes, planes, 3, stride, False)
        self.conv3 = ParticleConvBn(particles, planes, out, 1, 1, False)
        self.downsample = None
        if stride != 1 or in_planes != out:
            self.downsample = ParticleConvBn(particles, in_planes, out, 1, stride, shared_input)

    def forward(self, x):
        out = F.relu(self.conv1(x))
        out = F.relu(self.conv2(out))
        if self.downsample is not None:
            shortcut = self.downsample(x)
        else:
            shortcut = tile_particles(x, self.particles) if self.shared_input else x
        return F.relu(self.conv3(out) + shortcut)


class CosineClassifier(nn.Module):
    """The M particle-specific cosine classifiers, weight [M, C, D]:
    logits_j = s * normalize(f_j) . normalize(W_j)^T."""

    def __init__(self, particles, num_classes, feature_dim, scale):
        super().__init__()
        self.scale = float(scale)
        self.weight = nn.Parameter(torch.empty(particles, num_classes, feature_dim).uniform_(-1.0, 1.0))

    def forward(self, features):
        """features [M, B, D] -> logits [M, B, C]."""
        f = F.normalize(features, dim=-1)
        w = F.normalize(self.weight, dim=-1)
        return torch.bmm(f, w.transpose(1, 2)) * self.scale


# ---- architectures (core/model/particleresnet*.{h,cpp}, particlesmallcnn.*) --------------------

_RESNET_LAYOUTS = {
    # The published LBD code shares only the stem of ResNet-32 ...
    "resnet32": dict(block=ParticleBasicBlock, stem_width=16, stem_kernel=3, stem_stride=1,
                     stem_max_pool=False, blocks=(5, 5, 5), planes=(16, 32, 64), strides=(1, 2, 2),
                     first_particle_stage=0),
    # ... and splits ResNet-50 into particles from layer3 on.
    "resnet50": dict(block=ParticleBottleneck, stem_width=64, stem_kernel=7, stem_stride=2,
                     stem_max_pool=True, blocks=(3, 4, 6, 3), planes=(64, 128, 256, 512),
                     strides=(1, 2, 2, 2), first_particle_stage=2),
}


class ParticleResNet(nn.Module):
    """ResNet-32 or ResNet-50 with M particles: a stem (conv1, bn1), stages layer1.. of blocks
    (those before the layout's first particle stage shared), global average pooling and the
    cosine classifier (head). forward(x [B, C, H, W]) returns logits [M, B, classes]."""

    def __init__(self, arch, particles, input_channels, num_classes, cosine_scale=30.0):
        super().__init__()
        layout = _RESNET_LAYOUTS[arch]
        self.particles = particles
        self.stem_max_pool = layout["stem_max_pool"]
        k = layout["stem_kernel"]
        self.conv1 = nn.Conv2d(input_channels, layout["stem_width"], k, stride=layout["stem_stride"],
                               padding=k // 2, bias=False)
        self.bn1 = nn.BatchNorm2d(layout["stem_width"])
        in_planes = layout["stem_width"]
        block_type = layout["block"]
        for stage, (count, planes, stride) in enumerate(zip(layout["blocks"], layout["planes"], layout["strides"])):
            per_particle = stage >= layout["first_particle_stage"]
            blocks = nn.ModuleList()
            for b in range(count):
                # The first per-particle block reads the shared trunk's output.
                shared_input = per_particle and stage == layout["first_particle_stage"] and b == 0
                blocks.append(block_type(particles if per_particle else 1, in_planes, planes,
                                         stride if b == 0 else 1, shared_input))
                in_planes = planes * block_type.expansion
            self.add_module(f"layer{stage + 1}", blocks)
        self.stages = len(layout["blocks"])
        self.head = CosineClassifier(particles, num_classes, in_planes, cosine_scale)

    def features(self, x):
        """x [B, C, H, W] (preprocessed) -> pooled features [M, B, D]."""
        h = F.relu(self.bn1(self.conv1(x)))
        if self.stem_max_pool:
            h = F.max_pool2d(h, 3, stride=2, padding=1)
        for stage in range(self.stages):
            for block in getattr(self, f"layer{stage + 1}"):
                h = block(h)
        return pool_particle_features(h, self.particles)

    def forward(self, x):
        """x [B, C, H, W] (preprocessed) -> logits [M, B, classes]."""
        return self.head(self.features(x))


class ParticleSmallCnn(nn.Module):
    """The small CNN: a shared stem (3x3 stride-2 conv1, bn1, ReLU, 2x2 max-pool), three
    per-particle conv-BN-ReLU layers conv2..conv4 (32, 64, 128 channels; 2x2 max-pool between
    them), global average pooling and the cosine classifier (head).
    forward(x [B, C, H, W]) returns logits [M, B, classes]."""

    STEM_WIDTH = 16
    WIDTHS = (32, 64, 128)

    def __init__(self, particles, input_channels, num_classes, cosine_scale=30.0):
        super().__init__()
        self.particles = particles
        self.conv1 = nn.Conv2d(input_channels, self.STEM_WIDTH, 3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(self.STEM_WIDTH)
        in_channels = self.STEM_WIDTH
        for i, width in enumerate(self.WIDTHS):
            self.add_module(f"conv{i + 2}", ParticleConvBn(particles, in_channels, width, 3, 1, i == 0))
            in_channels = width
        self.head = CosineClassifier(particles, num_classes, in_channels, cosine_scale)

    def features(self, x):
        """x [B, C, H, W] (preprocessed) -> pooled features [M, B, D]."""
        h = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        for i in range(len(self.WIDTHS)):
            h = F.relu(getattr(self, f"conv{i + 2}")(h))
            if i + 1 < len(self.WIDTHS):
                h = F.max_pool2d(h, 2)
        return pool_particle_features(h, self.particles)

    def forward(self, x):
        """x [B, C, H, W] (preprocessed) -> logits [M, B, classes]."""
        return self.head(self.features(x))


def build_model(arch, particles, input_channels, num_classes, cosine_scale=30.0):
    """A new particle model of `arch` ("resnet32", "resnet50" or "smallcnn") with random
    weights, in training mode. Returns an nn.Module whose forward maps x [B, C, H, W] to logits
    [M, B, num_classes]; its state_dict keys are those of weights.pt."""
    if arch == "smallcnn":
        return ParticleSmallCnn(particles, input_channels, num_classes, cosine_scale)
    if arch in _RESNET_LAYOUTS:
        return ParticleResNet(arch, particles, input_channels, num_classes, cosine_scale)
    raise ValueError(f"unknown architecture {arch!r} (resnet32, resnet50 or smallcnn)")


# ---- preprocessing (core/data/augmentation.cpp, preprocessBatch) -------------------------------

def preprocess(images, input_size, mean, std):
    """What `lbd` does to images before its model sees them, with the same float32 operations:
    each image is centred on an input_size x input_size canvas (zero padding around a smaller
    image, a centre crop of a larger one; a half-pixel offset rounds half to even, as torch.round
    does), then channel c becomes (pixel - 255*mean[c]) / (255*std[c]).

    images: uint8 [N, C, H, W] (pixels 0..255), or floating [N, C, H, W] in [0, 1] (scaled by
    255). mean, std: per channel, in [0, 1] pixel units. Returns float32 [N, C, S, S]."""
    if images.dim() != 4:
        raise ValueError(f"images must be [N, C, H, W], got shape {tuple(images.shape)}")
    if images.dtype == torch.uint8:
        pixels = images.to(torch.float32)
    elif images.is_floating_point():
        pixels = images.to(torch.float32) * 255.0
    else:
        raise ValueError(f"images must be uint8 or floating point, got {images.dtype}")
    batch, channels, height, width = pixels.shape
    mean = torch.as_tensor(mean, dtype=torch.float32).cpu()
    std = torch.as_tensor(std, dtype=torch.float32).cpu()
    if mean.numel() != channels or std.numel() != channels:
        raise ValueError(f"normalisation has {mean.numel()} channels, images have {channels}")
    out = int(input_size)
    device = pixels.device
    # Output pixel (u, v), relative to the output centre, reads source pixel (u + cx, v + cy).
    axis = torch.arange(out, dtype=torch.float32, device=device).sub_((out - 1.0) / 2.0)
    centre_x = torch.tensor((width - 1.0) / 2.0, dtype=torch.float32, device=device)
    centre_y = torch.tensor((height - 1.0) / 2.0, dtype=torch.float32, device=device)
    source_x = (centre_x + axis.view(1, out)).expand(out, out).reshape(1, out * out).round()
    source_y = (centre_y + axis.view(out, 1)).expand(out, out).reshape(1, out * out).round()
    xc = source_x.clamp(0, width - 1)
    yc = source_y.clamp(0, height - 1)
    inside = xc.eq(source_x).logical_and_(yc.eq(source_y)).unsqueeze(1)
    index = torch.add(xc, yc, alpha=float(width)).to(torch.int64).unsqueeze(1).expand(batch, channels, -1)
    flat = pixels.reshape(batch, channels, height * width)
    gathered = torch.where(inside, flat.gather(2, index), torch.zeros((), dtype=torch.float32, device=device))
    # lbd computes the scale in double and the shift in float (its mean and std are floats).
    scale = torch.tensor([1.0 / (255.0 * float(s)) for s in std], dtype=torch.float32)
    shift = torch.neg(mean) / std
    return torch.addcmul(shift.view(1, channels, 1).to(device), gathered,
                         scale.view(1, channels, 1).to(device)).view(batch, channels, out, out)


# ---- runs ---------------------------------------------------------------------------------------

def _read_image_file(path, channels, size):
    """An image file as uint8 [C, H, W]: grey or RGB, resized to size = (H, W) when given
    (PIL's box filter to shrink, bilinear to enlarge: close to, not bit-equal with, lbd's
    OpenCV INTER_AREA / INTER_LINEAR)."""
    try:
        from PIL import Image
    except ImportError as error:
        raise RuntimeError("predicting image files needs PIL (pip install pillow); "
                           "or pass uint8 tensors [N, C, H, W]") from error
    with Image.open(path) as image:
        image = image.convert("L" if channels == 1 else "RGB")
        if size is not None and (image.height, image.width) != tuple(size):
            shrinking = image.width > size[1] or image.height > size[0]
            image = image.resize((size[1], size[0]), Image.BOX if shrinking else Image.BILINEAR)
        data = torch.frombuffer(bytearray(image.tobytes()), dtype=torch.uint8)
        return data.view(image.height, image.width, channels).permute(2, 0, 1).contiguous()


class Run:
    """A trained run, ready to predict. Attributes: model (in eval mode), arch, particles,
    class_names, input_channels, input_size, image_size ((H, W) that `lbd predict` resizes image
    files to; None for a file of `lbd export` without its run folder), mean, std, device."""

    def __init__(self, weights, manifest=None, device="cpu"):
        self.arch = str(weights["arch"])
        self.particles = int(weights["particles"])
        self.class_names = list(weights["class_names"])
        self.input_channels = int(weights["input_channels"])
        self.input_size = int(weights["input_size"])
        self.mean = weights["normalization_mean"].to(torch.float32)
        self.std = weights["normalization_std"].to(torch.float32)
        self.image_size = None
        if manifest is not None:
            self.image_size = (int(manifest["image"]["height"]), int(manifest["image"]["width"]))
        self.device = torch.device(device)
        self.model = build_model(self.arch, self.particles, self.input_channels, len(self.class_names),
                                 float(weights["cosine_scale"]))
        self.model.load_state_dict(weights["state_dict"], strict=True)
        self.model.to(self.device).eval()

    def logits(self, images, batch_size=256):
        """Every particle's logits [M, N, C] (float32, CPU) for images as predict() takes them."""
        images = self._as_tensor(images)
        outputs = []
        with torch.no_grad():
            for start in range(0, images.size(0), batch_size):
                chunk = images[start:start + batch_size].to(self.device)
                x = preprocess(chunk, self.input_size, self.mean, self.std)
                outputs.append(self.model(x).to(torch.float32).cpu())
        if not outputs:
            return torch.empty(self.particles, 0, len(self.class_names))
        return torch.cat(outputs, dim=1)

    def predict(self, images, batch_size=256):
        """Every particle's class probabilities, float32 [M, N, C] on the CPU, as `lbd predict`
        computes them (its JSON's particle_probabilities; their mean over M is its
        "probabilities"). images: uint8 [N, C, H, W] (or [C, H, W]) as decoded pixels, floating
        point in [0, 1], or a list of image file paths (needs PIL). `lbd predict` first resizes a
        file to the run's image_size: pass tensors of that size to reproduce it exactly.
        On CUDA, PyTorch's default TF32 convolutions moved probabilities by up to 2e-4 from the
        CPU's (H100, PyTorch 2.11); torch.backends.cudnn.allow_tf32 = False keeps them within 1e-6."""
        return torch.softmax(self.logits(images, batch_size), dim=-1)

    def _as_tensor(self, images):
        if isinstance(images, (list, tuple)) and images and isinstance(images[0], (str, os.PathLike)):
            return torch.stack([_read_image_file(p, self.input_channels, self.image_size) for p in images])
        images = torch.as_tensor(images)
        if images.dim() == 3:
            images = images.unsqueeze(0)
        if images.dim() != 4 or images.size(1) != self.input_channels:
            raise ValueError(f"expected images [N, {self.input_channels}, H, W], got shape {tuple(images.shape)}")
        return images


def load_run(path, device="cpu"):
    """Opens a run for prediction. path: a run folder (its weights.pt, written when the run
    finished, and run.json) or a file written by `lbd export`. Returns a Run whose .predict(images)
    gives every particle's probabilities [M, N, C]."""
    path = os.fspath(path)
    manifest = None
    if os.path.isdir(path):
        weights_path = os.path.join(path, "weights.pt")
        if not os.path.isfile(weights_path):
            raise FileNotFoundError(
                f"{weights_path}: not found (the run has not finished; `lbd export {path} --out FILE` "
                f"writes the weights of its last checkpoint, and load_run(FILE) opens them)")
        manifest_path = os.path.join(path, "run.json")
        if os.path.isfile(manifest_path):
            with open(manifest_path, encoding="utf-8") as f:
                manifest = json.load(f)
        path = weights_path
    weights = _torch_load(path)
    if not isinstance(weights, dict) or "state_dict" not in weights:
        raise ValueError(f"{path}: not an LBD Studio weights file (no 'state_dict')")
    return Run(weights, manifest, device)


def load_probabilities(path):
    """Reads test_probabilities.pt or val_probabilities.pt of a run. Returns a dict:
    "probabilities" float32 [M, N, C] (every particle's, for each image of the split),
    "labels" int64 [N] and "class_names" (list of str, in the model's class order)."""
    data = _torch_load(os.fspath(path))
    if not isinstance(data, dict) or "probabilities" not in data:
        raise ValueError(f"{path}: not a probabilities file of LBD Studio (no 'probabilities')")
    return data


# ---- decisions (core/eval/decisions.*, lbd-math.md section 5) -----------------------------------

RULES = ("expected", "argmax", "mean-logit", "eq7")
DEFERRED = -1  # the decision that stands for "defer" (refer the image to a person)


def utility_matrix(spec, classes):
    """The utility matrix U [C, C] (rows: true class, columns: decision; classes in the run's
    head-to-tail order) of the spec texts lbd reads: "onehot" (the identity) or "tail:<c>" (1 on the
    diagonal, -c where the decision is more head-ward than the truth, d < t). float64."""
    spec = str(spec)
    u = torch.eye(int(classes), dtype=torch.float64)
    if spec == "onehot":
        return u
    if spec.startswith("tail:"):
        penalty = float(spec[len("tail:"):])
        if not 0 <= penalty <= 1e6:
            raise ValueError(f"utility '{spec}': the tail penalty must be in 0..1e6")
        return u - penalty * torch.ones_like(u).tril(-1)
    raise ValueError(f"utility '{spec}': give 'onehot', 'tail:<c>' or a matrix (prior:<tau> needs the training "
                     f"counts: build it as diag(1 / pi^tau) yourself)")


def _particle_probabilities(p):
    """p as float32/float64 [M, N, C] (a [N, C] tensor is one particle), as lbd checks it."""
    p = torch.as_tensor(p)
    if p.dim() == 2:
        p = p.unsqueeze(0)
    if p.dim() != 3 or p.size(0) == 0:
        raise ValueError(f"particle probabilities must be [particles, images, classes], got shape {tuple(p.shape)}")
    if not p.is_floating_point():
        raise ValueError("particle probabilities must be floating point")
    if p.dtype not in (torch.float32, torch.float64):
        p = p.to(torch.float32)  # as lbd: the log of half-precision probabilities loses the tail
    return p


def _rule_name(rule):
    rule = "eq7" if rule == "lbd" else str(rule)  # run folders from before lbd's rule registry
    if rule not in RULES:
        raise ValueError(f"decision rule '{rule}' is not known (use expected, argmax, mean-logit or eq7)")
    return rule


def decision_scores(p, U=None, rule="expected"):
    """Scores [N, C] whose argmax is the decision, exactly as lbd computes them (same dtype, same
    operations): expected EU(d) = sum_t pbar(t) U[t, d]; argmax pbar; mean-logit
    L = (1/M) sum_j log p_j; eq7 sum_k U[d, k] L_k. U: None (one-hot), a spec text (utility_matrix)
    or a [C, C] matrix; ignored by argmax and mean-logit."""
    p = _particle_probabilities(p)
    rule = _rule_name(rule)
    if rule == "argmax":
        return p.mean(0)
    smallest = torch.finfo(p.dtype).tiny  # only an exact zero is lifted: 0 * log 0 stays finite
    if rule == "mean-logit":
        return p.clamp_min(smallest).log().mean(0)
    classes = p.size(2)
    if U is None:
        U = "onehot"
    u = utility_matrix(U, classes) if isinstance(U, str) else torch.as_tensor(U, dtype=torch.float64)
    if tuple(u.shape) != (classes, classes):
        raise ValueError(f"utility matrix is {tuple(u.shape)} but the probabilities have {classes} classes")
    u = u.to(p.dtype)
    if rule == "eq7":
        return torch.matmul(p.clamp_min(smallest).log().mean(0), u.t())
    return torch.matmul(p.mean(0), u)


def decide(p, U=None, rule="expected", defer=None):
    """lbd's decisions (`lbd eval`, `lbd predict`, the GUI): int64 [N] class indices, DEFERRED (-1)
    where the image is deferred. p: every particle's probabilities [M, N, C] (Run.predict, or
    load_probabilities(...)["probabilities"]). U, rule: see decision_scores. defer: the defer
    utility r (expected and argmax only): an image is deferred when its best score is below r.
    Ties go to the first class, as in lbd."""
    rule = _rule_name(rule)
    scores = decision_scores(p, U, rule)
    index = scores.argmax(1)
    if defer is None:
        return index
    r = float(defer)
    if not abs(r) <= 1e6:  # also refuses NaN
        raise ValueError(f"defer utility must be a number between -1e6 and 1e6, got {defer}")
    if rule not in ("expected", "argmax"):
        raise ValueError(f"the {rule} rule does not score decisions by expected utility, so it has no defer option "
                         f"(use expected or argmax)")
    best = scores.gather(1, index.unsqueeze(1)).squeeze(1)
    return torch.where(best < r, torch.full_like(index, DEFERRED), index)
