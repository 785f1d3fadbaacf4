#!/usr/bin/env bash
# The GPU experiments of the issue "Decisions you can trust" (docs/results/decisions-fashion-mnist-lt.md):
# Fashion-MNIST-LT (rho = 100), the fashion-mnist-lt preset (ResNet-32, M = 3, 200 epochs), data
# seed 0 with 10 % of every class's long-tailed training images held out as a validation split.
#   start LBD OUT DATA   one-hot training (train seeds 0, 1); tail:1 training, bounded form, at four
#                        alphas (train seed 0); tail:1 under the paper's form at alpha 0.002 (seed 0,
#                        expected to end `failed`). Separate processes on the one GPU.
#   second LBD OUT DATA ALPHA   tail:1 bounded at the alpha chosen on validation, train seed 1.
#   eval LBD OUT         lbd eval of every finished run (test split: argmax = expected with one-hot;
#                        tail:2 with the expected rule; validation split for the alpha choice).
set -euo pipefail
what="$1"
lbd="$2"
out="$3"
mkdir -p "$out"
start() { # name, flags...
    local name="$1"
    shift
    setsid nohup "$lbd" train --preset fashion-mnist-lt --device cuda --quiet --seed 0 --val-fraction 0.1 \
        --data-dir "$data" --name "$name" --out "$out/$name" "$@" > "$out/$name.log" 2>&1 < /dev/null &
}
case "$what" in
start)
    data="$4"
    start onehot-s0 --train-seed 0 --train-utility onehot
    start onehot-s1 --train-seed 1 --train-utility onehot
    for alpha in 0.0005 0.002 0.008 0.03; do
        start "tail1-bounded-a$alpha-s0" --train-seed 0 --train-utility tail:1 --utility-form bounded --alpha "$alpha"
    done
    start tail1-paper-a0.002-s0 --train-seed 0 --train-utility tail:1 --utility-form paper --alpha 0.002
    ;;
second)
    data="$4"
    start "tail1-bounded-a$5-s1" --train-seed 1 --train-utility tail:1 --utility-form bounded --alpha "$5"
    ;;
eval)
    for run in "$out"/*/; do
        run="${run%/}"
        [ -f "$run/report.json" ] || continue
        "$lbd" eval "$run" --utility onehot --rule expected --json > "$run/eval-onehot-expected.json"
        "$lbd" eval "$run" --utility tail:2 --rule expected --json > "$run/eval-tail2-expected.json"
        "$lbd" eval "$run" --utility onehot --rule expected --split validation --json > "$run/eval-validation-onehot.json"
    done
    ;;
esac
