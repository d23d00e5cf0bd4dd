#!/usr/bin/env bash
# The standard opponent match of docs/strength.md ("Against other engines"): Chuhe against
# ElephantEye 3.31 (+ book) and Fairy-Stockfish from ../shared/opponents, UCCI, 5+0.05,
# the balanced openings in random order, each played twice with colours swapped. It measures
# the machine first (CPU model, load, each engine's speed), plays the matches one after the
# other, and prints the docs' table rows with the machine line.
#
#   scripts/opponent-match.sh SEED [GAMES=100] [TC=5+0.05] [OPPONENTS="eleeye fairy-stockfish"]
#
# Environment: CHUHE (default target/release/chuhe, built if missing), OPPONENTS_DIR
# (default ../shared/opponents), OPENINGS (default ../shared/openings/balanced.txt),
# OUT (default ~/chuhe-runs/opp-SEED-TC-HASH: match logs, PGNs, rows.md), CONCURRENCY (2), RESUME=1
# (a killed run goes on: the same arguments and OUT; a BUILD named by the checkout changes
# with a commit, so set OUT or CHUHE for a run that may be resumed).
# Nothing else heavy should run meanwhile: the script warns when the machine is busy.
set -euo pipefail
seed=${1:?usage: scripts/opponent-match.sh SEED [GAMES] [TC] [OPPONENTS]}
games=${2:-100}
tc=${3:-5+0.05}
opponents=${4:-eleeye fairy-stockfish}
cd "$(dirname "$0")/.."
. scripts/opponents-setup.sh
out=${OUT:-$HOME/chuhe-runs/opp-$seed-$tc-$build}
mkdir -p "$out"
rounds=$(((games + 1) / 2))

cores=$(nproc)
# Speeds, measured just before the matches: Chuhe's and Fairy-Stockfish's own bench (in
# opponents-setup.sh), and ElephantEye (which has none) over fixed-depth searches of three
# middlegames, book off.
eleeye_nps() {
    local fens=(
        "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKABR1 w - - 0 1"
        "r1bakab2/9/2n1c1n2/p1p1p3p/6r2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 0 1"
        "2bakab2/9/2n1c4/p3p1p1p/2p6/6P2/P1P1P3P/2N1C4/9/2BAKAB2 w - - 0 1"
    )
    local nodes=0 ms=0 line
    coproc EE { cd "$oppdir" && exec ./eleeye; }
    printf 'ucci\nsetoption usebook false\n' >&"${EE[1]}"
    for fen in "${fens[@]}"; do
        printf 'position fen %s\ngo depth 10\n' "$fen" >&"${EE[1]}"
        while read -r line <&"${EE[0]}"; do
            case $line in
                "info time "*) set -- $line; ms=$((ms + $3)); nodes=$((nodes + $5)) ;;
                bestmove* | nobestmove*) break ;;
            esac
        done
    done
    printf 'quit\n' >&"${EE[1]}"
    wait "$EE_PID" 2>/dev/null || true
    echo $((nodes * 1000 / (ms > 0 ? ms : 1)))
}

machine="$cpu, $cores cores, load $load before; Chuhe $build (bench signature $signature) bench $chuhe_nps nps"
echo "machine: $machine" | keep "$out/machine.txt"

rows=()
for opp in $opponents; do
    case $opp in
        eleeye) opp_nps=$(eleeye_nps); opp_label="ElephantEye 3.31 + book"; speed="$opp_nps nps (depth 10, 3 positions)" ;;
        fairy-stockfish) opp_nps=$fsf_nps; opp_label="Fairy-Stockfish (c19b5f6c)"; speed="$opp_nps nps (bench)" ;;
        *) echo "unknown opponent '$opp' (eleeye, fairy-stockfish)" >&2; exit 2 ;;
    esac
    echo "$opp: $speed" | tee -a "$out/machine.txt"
    pgn=$out/$opp.pgn
    fresh_pgn "$pgn"
    cmd=("$chuhe" match -engine cmd="$chuhe" name=chuhe proto=ucci option.hashsize=16
        -engine cmd="$oppdir/$opp" name="$opp" proto=ucci
        -each tc="$tc" timemargin=300 -games 2 -rounds "$rounds" -concurrency "$conc" -repeat
        -openings file="$openings" order=random -srand "$seed" -pgnout "$pgn")
    play_and_score "$opp" >/dev/null
    forfeits=$(grep -c 'loses on time' "$pgn" || true)
    nomove=$(grep -c 'makes no move' "$pgn" || true)
    share=$(grep '^CPU while thinking' "$out/$opp.log" | sed 's/^CPU while thinking: //')
    grep '^Warning: .* of a core' "$out/$opp.log" >&2 || true
    rows+=("| $build | $opp_label | $tc | $w-$l-$d | $pct | $e | $seed | $cpu | $chuhe_nps / $opp_nps | ${share:-not measured} |")
    echo "$opp: $w-$l-$d ($pct, $e); time forfeits $forfeits, games lost by 'makes no move' (nobestmove) $nomove" | tee -a "$out/machine.txt"
done

{
    echo "| Chuhe build | opponent | tc | W-L-D (Chuhe first) | score | Elo | seed | CPU | nps Chuhe / opponent | CPU while thinking |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
} | keep "$out/rows.md"
echo "games and logs: $out (chuhe stats $out/OPPONENT.pgn recounts them)"
