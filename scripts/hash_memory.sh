#!/usr/bin/env bash
# Peak memory of the engine per hash size (docs/hardening.md): for each size, the engine is
# given `setoption name Hash value N`, searches for SECONDS, then clears the table (which
# writes every entry, so the whole table becomes resident), and quits. Prints the address
# space (VmSize) and resident memory (VmRSS, VmHWM) after the search and after the clear.
#
#   scripts/hash_memory.sh [SECONDS=2] [SIZES="16 1024"]
set -euo pipefail
secs=${1:-2}
sizes=${2:-16 1024}
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=$PWD/target/release/chuhe
field() { awk -v f="$1:" '$1 == f {print $2}' "/proc/$2/status"; }
mib() { echo "$(($1 / 1024)) MiB"; }
for mb in $sizes; do
    fifo=$(mktemp -u) && mkfifo "$fifo"
    "$bin" <"$fifo" >/dev/null &
    pid=$!
    exec 3>"$fifo"
    echo uci >&3
    echo "setoption name Hash value $mb" >&3
    echo "position startpos" >&3
    echo "go movetime $((secs * 1000))" >&3
    sleep $((secs + 1))
    echo isready >&3
    sleep 0.5
    size=$(field VmSize $pid) rss=$(field VmRSS $pid) hwm=$(field VmHWM $pid)
    echo "setoption name Clear Hash" >&3
    echo isready >&3
    sleep $((1 + mb / 512))
    chwm=$(field VmHWM $pid)
    echo quit >&3
    exec 3>&-
    wait $pid
    rm -f "$fifo"
    echo "Hash $mb: after a ${secs}s search VmSize $(mib "$size"), VmRSS $(mib "$rss"), peak $(mib "$hwm"); peak after Clear Hash $(mib "$chwm")"
done
