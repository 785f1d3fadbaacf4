# Exploration only (not product code): where does a fused 3-particle ResNet-32 training step
# spend its GPU time, and which precision / layout / BatchNorm path is fastest? A PyTorch mirror of
# core/model/particleresnet32.cpp with plain CE and no augmentation, so it is an upper bound for the
# engine's step. Run on the GPU machine: python3 docs/experiments/resnet-step-profile.py
# Results (H100, PyTorch 2.11, 2026-11-26) are in docs/results/speed.md.
import torch, torch.nn as nn, torch.nn.functional as F, time, sys, os
torch.backends.cudnn.benchmark = True
dev = 'cuda'
DT = torch.bfloat16
M, B = 3, 128
BN_CLASS = nn.BatchNorm2d

class ConvBn(nn.Module):
    def __init__(s, cin, cout, stride, shared, form):
        super().__init__()
        s.form, s.shared, s.stride = form, shared, stride
        s.conv = nn.Conv2d(cin if shared else M*cin, M*cout, 3, stride, 1, bias=False, groups=1 if shared else M)
        s.bn = BN_CLASS(M*cout)
    def forward(s, x):
        return s.bn(s.conv(x))

class Block(nn.Module):
    def __init__(s, cin, cout, stride, shared, form):
        super().__init__()
        s.c1 = ConvBn(cin, cout, stride, shared, form); s.c2 = ConvBn(cout, cout, 1, False, form)
        s.stride, s.pad, s.shared = stride, (cout-cin)//2, shared
    def shortcut(s, x):
        y = x[:, :, ::s.stride, ::s.stride] if s.stride != 1 else x
        if s.shared: y = y.repeat(1, M, 1, 1)
        if s.pad:
            b, c, h, w = y.shape
            y = F.pad(y.view(b, M, c//M, h, w), (0,0,0,0,s.pad,s.pad)).reshape(b, M*(c//M+2*s.pad), h, w)
        return y
    def forward(s, x):
        o = F.relu(s.c1(x)); o = s.c2(o)
        return F.relu(o + s.shortcut(x))

class Net(nn.Module):
    def __init__(s, form='grouped'):
        super().__init__()
        s.conv1 = nn.Conv2d(1, 16, 3, 1, 1, bias=False); s.bn1 = nn.BatchNorm2d(16)
        blocks, cin = [], 16
        for st, (w, stride) in enumerate([(16,1),(32,2),(64,2)]):
            for b in range(5):
                blocks.append(Block(cin, w, stride if b == 0 else 1, st == 0 and b == 0, form)); cin = w
        s.blocks = nn.Sequential(*blocks)
        s.head = nn.Parameter(torch.randn(M, 10, 64))
    def forward(s, x):
        h = s.blocks(F.relu(s.bn1(s.conv1(x))))
        f = h.mean((2, 3)).view(x.shape[0], M, 64).transpose(0, 1)
        return 30 * torch.einsum('mbd,mcd->mbc', F.normalize(f, dim=-1), F.normalize(s.head, dim=-1))

def make(cl, bf16, form='grouped'):
    net = Net(form).to(dev)
    if cl: net = net.to(memory_format=torch.channels_last)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, nesterov=True, weight_decay=5e-4, foreach=True)
    x = torch.randn(B, 1, 32, 32, device=dev); y = torch.randint(0, 10, (B,), device=dev)
    if cl: x = x.contiguous(memory_format=torch.channels_last)
    def step():
        opt.zero_grad(set_to_none=False)
        with torch.autocast('cuda', dtype=DT, enabled=bf16):
            logits = net(x)
        loss = F.cross_entropy(logits.float().reshape(-1, 10), y.repeat(M))
        loss.backward(); opt.step()
    return net, step

def timed(name, cl, bf16, graph=True):
    net, step = make(cl, bf16)
    s = torch.cuda.Stream(); s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(5): step()
    torch.cuda.current_stream().wait_stream(s); torch.cuda.synchronize()
    run = step
    if graph:
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g): step()
        run = g.replay
    for _ in range(20): run()
    torch.cuda.synchronize(); t = time.perf_counter(); n = 300
    for _ in range(n): run()
    torch.cuda.synchronize(); dt = (time.perf_counter() - t) / n
    print(f"{name:40s} {dt*1e3:7.3f} ms/step  {B/dt:9.0f} img/s", flush=True)


class CudnnBatchNorm(nn.BatchNorm2d):
    """cuDNN's NHWC batch norm, which ATen only accepts for fp16 input with fp32 parameters."""
    def forward(s, x):
        x = x.contiguous(memory_format=torch.channels_last)
        return torch.cudnn_batch_norm(x, s.weight, s.bias, s.running_mean, s.running_var, s.training, s.momentum, s.eps)[0]

def profile_table(rows=25):
    from torch.profiler import profile, ProfilerActivity
    net, step = make(True, True)
    for _ in range(5): step()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(10): step()
        torch.cuda.synchronize()
    print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=rows, max_name_column_width=90))

timed("grouped NHWC bf16 graph", True, True)
timed("grouped NCHW bf16 graph", False, True)
timed("grouped NHWC fp32(tf32) graph", True, False)
timed("grouped NCHW fp32(tf32) graph", False, False)
profile_table()
DT = torch.float16
timed("grouped NHWC fp16 graph (native BN)", True, True)
BN_CLASS = CudnnBatchNorm
timed("grouped NHWC fp16 graph (cudnn BN)", True, True)
profile_table(14)
