#!/usr/bin/env bash
# The GPU experiments behind docs/results: Fashion-MNIST-LT (rho = 100), ResNet-32, the paper's
# CIFAR-10-LT recipe (preset fashion-mnist-lt: 200 epochs, M = 3, alpha 0.002, tau 40).
# All runs share the data seed 0 (one split); LBD uses two training seeds. The runs share one GPU
# as separate processes. Usage: docs/experiments/fashion-mnist-lt-gpu.sh LBD_BINARY OUT_DIR
set -euo pipefail
lbd="$1"
out="$2"
mkdir -p "$out"
common=(--preset fashion-mnist-lt --device cuda --quiet --seed 0)
"$lbd" train "${common[@]}" --train-seed 0 --name lbd-seed0 --out "$out/lbd-seed0" > "$out/lbd-seed0.log" 2>&1 &
"$lbd" train "${common[@]}" --train-seed 1 --name lbd-seed1 --out "$out/lbd-seed1" > "$out/lbd-seed1.log" 2>&1 &
"$lbd" train "${common[@]}" --train-seed 0 --baseline ce --name ce --out "$out/ce" > "$out/ce.log" 2>&1 &
"$lbd" train "${common[@]}" --train-seed 0 --utility tail:0.5 --name lbd-tail0.5 --out "$out/lbd-tail0.5" > "$out/lbd-tail0.5.log" 2>&1 &
wait
