#!/usr/bin/env bash
# Self-play soak (docs/hardening.md): `chuhe match` engine against itself at a tiny node
# limit for thousands of games, sampling the engines' memory; then a summary of how the
# games ended. Each pair of games (colours swapped) starts from its own random 8-ply
# opening, since a fixed-node engine would replay the same games from a fixed set. Any ending other than a rules verdict or an adjudication (illegal move,
# crash, stall, time forfeit) is a failure, and so is memory that grows.
#
#   scripts/soak.sh [GAMES=2000] [NODES=300] [CONCURRENCY=2] [PROTO=ucci] [SEED=1]
# Output goes to $SOAK_DIR (default /tmp/chuhe-soak): match.log, games.pgn, rss.log, summary.txt.
set -euo pipefail
games=${1:-2000}
nodes=${2:-300}
conc=${3:-2}
proto=${4:-ucci}
seed=${5:-1}
rounds=$(((games + 1) / 2))
dir=${SOAK_DIR:-/tmp/chuhe-soak}
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin chuhe --example random_openings
bin=$PWD/target/release/chuhe
rm -rf "$dir" && mkdir -p "$dir"
target/release/examples/random_openings "$rounds" 8 "$seed" >"$dir/openings.txt"

start=$(date +%s)
/usr/bin/time -v -o "$dir/time.txt" "$bin" match \
    -engine cmd="$bin" name=A -engine cmd="$bin" name=B \
    -each proto="$proto" nodes="$nodes" timeout=10000 \
    -games 2 -rounds "$rounds" -concurrency "$conc" -ratinginterval 0 \
    -openings file="$dir/openings.txt" order=sequential \
    -pgnout "$dir/games.pgn" >"$dir/match.log" 2>&1 &
tpid=$!

# Every 5 s: the resident and peak memory of each engine process (children of the runner).
: >"$dir/rss.log"
while kill -0 "$tpid" 2>/dev/null; do
    mpid=$(pgrep -P "$tpid" -x chuhe | head -1 || true)
    if [ -n "$mpid" ]; then
        for c in $(pgrep -P "$mpid" || true); do
            rss=$(awk '/^VmRSS/ {print $2}' "/proc/$c/status" 2>/dev/null || true)
            hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$c/status" 2>/dev/null || true)
            [ -n "$rss" ] && echo "$(($(date +%s) - start)) $c $rss $hwm" >>"$dir/rss.log"
        done
    fi
    sleep 5
done
rc=0
wait "$tpid" || rc=$?

{
    echo "runner exit status: $rc"
    echo "wall time: $(($(date +%s) - start)) s"
    echo "games finished: $(grep -c '^Finished game' "$dir/match.log" || true) of $games"
    echo "terminations (PGN):"
    grep -o '^\[Termination "[^"]*"\]' "$dir/games.pgn" | sort | uniq -c || true
    echo "results:"
    grep -o '^\[Result "[^"]*"\]' "$dir/games.pgn" | sort | uniq -c || true
    echo "failures (illegal move, crash, stall, time forfeit):"
    grep -E '^\[Termination "(illegal move|abandoned|stalled connection|time forfeit)"\]' "$dir/games.pgn" | wc -l || true
    echo "engine processes: VmRSS at 20 s (after start-up) and at the end, peak VmHWM, in kB:"
    awk '$1 >= 20 && !($2 in early) { early[$2] = $3 }
         { last[$2] = $3; if ($4 > peak[$2]) peak[$2] = $4 }
         END { for (p in last) print "  pid " p ": " (p in early ? early[p] : "-") " -> " last[p] ", peak " peak[p] }' \
        "$dir/rss.log"
    echo "peak RSS of any process (GNU time, kB): $(awk -F': ' '/Maximum resident/ {print $2}' "$dir/time.txt")"
    tail -3 "$dir/match.log"
} | tee "$dir/summary.txt"
