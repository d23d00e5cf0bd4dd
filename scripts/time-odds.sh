#!/usr/bin/env bash
# The time-odds ladder of docs/strength.md ("Time odds against Fairy-Stockfish", issue 59):
# Chuhe at a short time control against Fairy-Stockfish (../shared/opponents) given ODDS times
# as much, for each rung; UCCI, both engines with 64 MB hash, the balanced openings in random
# order, each played twice with colours swapped, 2 games at a time. It measures the machine
# first (CPU model, load, both engines' bench speed), plays the rungs one after the other, and
# prints the table rows: W-L-D, score, Elo with its error bar, and time forfeits for each side.
#
#   scripts/time-odds.sh SEED [GAMES=100] [BASE=2+0.02] [ODDS="10 20 30"]
#
# Environment: CHUHE (default target/release/chuhe, built if missing), OPPONENTS_DIR
# (default ../shared/opponents), OPENINGS (default ../shared/openings/balanced.txt),
# OUT (default ~/chuhe-runs/odds-SEED-BUILD: logs, PGNs, rows.md), CONCURRENCY (2), RESUME=1
# (a killed run goes on: the same arguments and OUT; a BUILD named by the checkout changes
# with a commit, so set OUT or CHUHE for a run that may be resumed).
# A rung of 100 games at 30x (Fairy-Stockfish 60+0.6) takes about 80 minutes on 2 cores.
# Nothing else heavy should run meanwhile: the script warns when the machine is busy.
set -euo pipefail
seed=${1:?usage: scripts/time-odds.sh SEED [GAMES] [BASE] [ODDS]}
games=${2:-100}
base=${3:-2+0.02}
odds=${4:-10 20 30}
cd "$(dirname "$0")/.."
. scripts/opponents-setup.sh
out=${OUT:-$HOME/chuhe-runs/odds-$seed-$build}
mkdir -p "$out"
rounds=$(((games + 1) / 2))

# A time control BASE (seconds+increment) times N, as the match runner reads it.
scaled() {
    awk -v tc="$1" -v n="$2" 'BEGIN { split(tc, p, "+"); printf "%g+%g", p[1] * n, p[2] * n }'
}

echo "machine: $cpu, $(nproc) cores, load $load before; Chuhe $build (bench signature $signature) bench $chuhe_nps nps; Fairy-Stockfish bench $fsf_nps nps" |
    keep "$out/machine.txt"

rows=()
for x in $odds; do
    tc=$(scaled "$base" "$x")
    pgn=$out/odds-$x.pgn
    fresh_pgn "$pgn"
    cmd=("$chuhe" match -engine cmd="$chuhe" name=chuhe proto=ucci tc="$base" option.hashsize=64
        -engine cmd="$oppdir/fairy-stockfish" name=fairy-stockfish proto=ucci tc="$tc" option.hashsize=64
        -each timemargin=300 -games 2 -rounds "$rounds" -concurrency "$conc" -repeat
        -openings file="$openings" order=random -srand "$seed" -pgnout "$pgn")
    play_and_score "odds-$x" >/dev/null
    # A forfeit's comment names the loser's colour; the PGN's Red/Black tags say who that was.
    forfeits=$(awk '
        /^\[Red "/ { red = $2 } /^\[Black "/ { black = $2 }
        /loses on time/ { who = ($0 ~ /Red loses on time/) ? red : black; gsub(/"|\]/, "", who); n[who]++ }
        END { printf "%d / %d", n["chuhe"], n["fairy-stockfish"] }' "$pgn")
    rows+=("| ${x}x | $base | $tc | $w-$l-$d | $pct | $e | $forfeits | $seed | $cpu | $chuhe_nps / $fsf_nps | $build |")
    echo "${x}x: $w-$l-$d ($pct, $e); time forfeits Chuhe / Fairy-Stockfish $forfeits" | tee -a "$out/machine.txt"
done

{
    echo "| odds | Chuhe tc | Fairy-Stockfish tc | W-L-D (Chuhe first) | score | Elo | time forfeits Chuhe / FSF | seed | CPU | bench nps Chuhe / FSF | build |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
} | keep "$out/rows.md"
echo "games and logs: $out (chuhe stats $out/odds-N.pgn -first chuhe -clock recounts them)"
