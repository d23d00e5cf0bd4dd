#!/usr/bin/env bash
# Retrains the default net from the committed data and checks it is nets/default.nnue byte for
# byte (docs/training.md, "The default net from data/"). About two minutes on two cores.
#
# usage: scripts/retrain-default.sh [OUT]        OUT defaults to retrained.nnue
# env: CHUHE  the binary (default target/release/chuhe: `cargo build --release` first)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CHUHE="${CHUHE:-$ROOT/target/release/chuhe}"
OUT="$(realpath -m "${1:-retrained.nnue}")"
cd "$ROOT"
# Net 9: net 8 with three king buckets, 8 epochs on parts r7-a to r8-c (net 8's play). The
# seed and thread count fix the shuffles and the order gradients are summed in.
"$CHUHE" train --data data/r7-a.bin data/r8-a.bin data/r8-b.bin data/r8-c.bin \
    --from nets/net8.nnue --king-buckets 3 --epochs 8 --lr 0.0003 --lambda 0.1 --k 421.2 \
    --threads 2 --seed 1 --description "n8 k3 r7a-r8c l0.1" --out "$OUT"
cmp "$OUT" nets/default.nnue
echo "retrain-default: $OUT is nets/default.nnue, byte for byte"
