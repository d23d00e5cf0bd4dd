#!/usr/bin/env bash
# Self-play soak (docs/hardening.md): `chuhe match` engine against itself for thousands of
# games, sampling the engines' memory; then a summary of how the games ended. Each pair of
# games (colours swapped) starts from its own random 8-ply opening, since a fixed-node engine
# would replay the same games from a fixed set. Any ending other than a rules verdict or an
# adjudication (illegal move, crash, stall, time forfeit) is a failure, and so is memory that
# grows.
#
#   scripts/soak.sh [GAMES=2000] [NODES=300] [CONCURRENCY=2] [PROTO=ucci] [SEED=1]
#   scripts/soak.sh [--games N] [--nodes N | --tc TC] [--concurrency N] [--proto P] [--seed S]
#                   [--threads N] [--soak] [--margin MS] [--marks "M1 M2 ..."]
#
#   --tc TC        a clock (tc=TC, e.g. 1+0.01) instead of the node limit
#   --threads N    both engines search with N threads (UCCI `threads`, UCI `Threads`)
#   --soak         the runner's -soak: before each game each engine gets a hash size of 1, 16,
#                  64 or 128 MB, 1 or 2 threads, an extra new game, or nothing (seeded)
#   --margin MS    timemargin= (default 0: a late move loses on time)
#   --marks "..."  game counts at which the engines' memory is reported (default: 100 and GAMES)
#
# Issue 57's soak (an hour of both cores): scripts/soak.sh --games 1000 --tc 1+0.01 --threads 2 --soak --concurrency 1
# Output goes to $SOAK_DIR (default /tmp/chuhe-soak): match.log, games.pgn, rss.log, summary.txt.
set -euo pipefail
games=2000 nodes=300 conc=2 proto=ucci seed=1 tc="" threads="" soak="" margin=0 marks=""
positional=()
while [ $# -gt 0 ]; do
    case "$1" in
        --games) games=$2; shift 2 ;;
        --nodes) nodes=$2; shift 2 ;;
        --concurrency) conc=$2; shift 2 ;;
        --proto) proto=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --tc) tc=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --soak) soak=-soak; shift ;;
        --margin) margin=$2; shift 2 ;;
        --marks) marks=$2; shift 2 ;;
        -h | --help) sed -n '2,21p' "$0"; exit 0 ;;
        -*) echo "soak.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) positional+=("$1"); shift ;;
    esac
done
set -- "${positional[@]+"${positional[@]}"}"
games=${1:-$games}
nodes=${2:-$nodes}
conc=${3:-$conc}
proto=${4:-$proto}
seed=${5:-$seed}
marks=${marks:-"100 $games"}
rounds=$(((games + 1) / 2))
dir=${SOAK_DIR:-/tmp/chuhe-soak}
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-$PWD/target}
cargo build --release --quiet --bin chuhe --example random_openings
bin=$target/release/chuhe
rm -rf "$dir" && mkdir -p "$dir"
"$target/release/examples/random_openings" "$rounds" 8 "$seed" >"$dir/openings.txt"

limit="nodes=$nodes timeout=10000"
[ -n "$tc" ] && limit="tc=$tc timemargin=$margin"
each="proto=$proto $limit"
if [ -n "$threads" ]; then
    case "$proto" in
        uci) each="$each option.Threads=$threads" ;;
        ucci) each="$each option.threads=$threads" ;;
        *) echo "soak.sh: --threads needs --proto ucci or uci" >&2; exit 2 ;;
    esac
fi

start=$(date +%s)
# shellcheck disable=SC2086 # $each and $soak are word lists
/usr/bin/time -v -o "$dir/time.txt" "$bin" match \
    -engine cmd="$bin" name=A -engine cmd="$bin" name=B -each $each \
    -games 2 -rounds "$rounds" -concurrency "$conc" -ratinginterval 0 -srand "$seed" $soak \
    -openings file="$dir/openings.txt" order=sequential \
    -pgnout "$dir/games.pgn" >"$dir/match.log" 2>&1 &
tpid=$!

# Every 2 s: games finished, then the resident and peak memory of each engine process
# (children of the runner): "seconds games pid VmRSS VmHWM" in kB.
: >"$dir/rss.log"
while kill -0 "$tpid" 2>/dev/null; do
    mpid=$(pgrep -P "$tpid" -x chuhe | head -1 || true)
    if [ -n "$mpid" ]; then
        done_games=$(grep -c '^Finished game' "$dir/match.log" || true)
        for c in $(pgrep -P "$mpid" || true); do
            rss=$(awk '/^VmRSS/ {print $2}' "/proc/$c/status" 2>/dev/null || true)
            hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$c/status" 2>/dev/null || true)
            [ -n "$rss" ] && echo "$(($(date +%s) - start)) $done_games $c $rss $hwm" >>"$dir/rss.log"
        done
    fi
    sleep 2
done
rc=0
wait "$tpid" || rc=$?

termination() { grep -c "^\[Termination \"$1\"\]" "$dir/games.pgn" || true; }
{
    echo "runner exit status: $rc"
    echo "wall time: $(($(date +%s) - start)) s"
    echo "settings: -each $each -concurrency $conc ${soak:-(no -soak)} (seed $seed)"
    finished=$(grep -c '^Finished game' "$dir/match.log" || true)
    echo "games finished: $finished of $games"
    echo "terminations (PGN):"
    grep -o '^\[Termination "[^"]*"\]' "$dir/games.pgn" | sort | uniq -c || true
    echo "results:"
    grep -o '^\[Result "[^"]*"\]' "$dir/games.pgn" | sort | uniq -c || true
    crashes=$(termination abandoned)
    illegal=$(termination "illegal move")
    stalls=$(termination "stalled connection")
    time_losses=$(termination "time forfeit")
    echo "failures: crashes $crashes, illegal moves $illegal, stalls $stalls, time losses $time_losses" \
        "($(awk -v t="$time_losses" -v n="$finished" 'BEGIN { printf "%.1f", n ? 100 * t / n : 0 }')% of the games lost on time)"
    grep '^Faults: ' "$dir/match.log" | tail -1 || true
    echo "engine memory (VmRSS, kB), at the first sample at or after each mark (else the last sample):"
    # With --soak the hash size changes between games (1-128 MB), so VmRSS follows it; compare
    # the same marks of two runs, or the peaks.
    for m in $marks; do
        awk -v m="$m" '
            $2 >= m && !at { at = $2 }
            { last = $2 }
            END { print (at ? at : last) }' "$dir/rss.log" | {
            read -r at
            awk -v at="$at" -v m="$m" '
                $2 == at && !($3 in rss) { rss[$3] = $4; order[n++] = $3; total += $4 }
                END {
                    line = "  game " m " (sampled at " at " games):"
                    for (i = 0; i < n; i++) line = line " pid " order[i] " " rss[order[i]]
                    print line ", total " total
                }' "$dir/rss.log"
        }
    done
    echo "engine processes: first and last VmRSS sample, peak VmHWM, in kB:"
    awk '!($3 in first) { first[$3] = $4 }
         { last[$3] = $4; if ($5 > peak[$3]) peak[$3] = $5 }
         END { for (p in last) print "  pid " p ": " first[p] " -> " last[p] ", peak " peak[p] }' \
        "$dir/rss.log"
    echo "peak RSS of any process (GNU time, kB): $(awk -F': ' '/Maximum resident/ {print $2}' "$dir/time.txt")"
    grep -v "^Faults: " "$dir/match.log" | tail -3
} | tee "$dir/summary.txt"
