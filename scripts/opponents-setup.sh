# Sourced by the scripts that match Chuhe against ../shared/opponents (opponent-match.sh,
# time-odds.sh), from the repository root. Sets repo, conc, oppdir, openings, chuhe (the
# binary, built if missing), build (the commit, -dirty when src differs; CHUHE's file name when
# given), cpu, load, signature (Chuhe's bench node count), chuhe_nps and fsf_nps (both engines'
# bench speed, measured now); warns when the machine is busy. Environment: CHUHE,
# OPPONENTS_DIR, OPENINGS, CONCURRENCY, RESUME.
repo=$PWD
conc=${CONCURRENCY:-2}
oppdir=$(realpath "${OPPONENTS_DIR:-$repo/../shared/opponents}")
openings=$(realpath "${OPENINGS:-$repo/../shared/openings/balanced.txt}")
if [ -z "${CHUHE:-}" ]; then
    [ -x target/release/chuhe ] || cargo build --release --quiet --bin chuhe
    chuhe=$repo/target/release/chuhe
    build=$(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD -- src Cargo.toml || echo -dirty)
else
    # A given binary may be another commit than the checkout: name it by its file.
    chuhe=$(realpath "$CHUHE")
    build=$(basename "$chuhe")
fi
cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
load=$(cut -d' ' -f1 /proc/loadavg)
if [ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" = 1 ]; then
    echo "note: the kernel groups processes by session: a niced job started elsewhere still takes CPU from the match (see 'CPU while thinking' at its end)" >&2
fi
if awk -v l="$load" 'BEGIN { exit !(l > 0.5) }'; then
    echo "warning: load average $load before the match; results measured on a busy machine do not reproduce" >&2
fi
read -r signature chuhe_nps <<<"$("$chuhe" bench | awk '$1 == "nodes" { n = $2; nps = $6 } END { print n, nps }')"
fsf_nps=$(printf 'ucci\nbench\nquit\n' | "$oppdir/fairy-stockfish" 2>&1 | awk -F': *' '/Nodes\/second/ { print $2 }')

# RESUME=1 continues a killed run: each match goes on from the games its PGN holds (`chuhe
# match -resume`, the same seed), the logs and machine.txt are appended to. Otherwise each
# match starts from an empty PGN.
resuming() { [ "${RESUME:-0}" = 1 ]; }
# Prepares the PGN $1 for a match: kept when resuming, removed otherwise.
fresh_pgn() { resuming || rm -f "$1"; }
# Writes stdin to $1 (and stdout): appends when resuming, replaces otherwise.
keep() { if resuming; then tee -a "$1"; else tee "$1"; fi; }

# Runs the match in the array `cmd` (plus `-resume` when resuming) as "$out/$1" (.cmd, .log)
# and reads its last summary: sets w l d n (Chuhe's wins, losses, draws, games), pct (its
# score) and e (Elo ± error).
play_and_score() {
    if resuming; then cmd+=(-resume); fi
    echo "${cmd[*]}" >"$out/$1.cmd"
    "${cmd[@]}" 2>&1 | keep "$out/$1.log" >/dev/null
    local score elo
    score=$(grep '^Score of chuhe vs' "$out/$1.log" | tail -1)
    elo=$(grep '^Elo difference' "$out/$1.log" | tail -1)
    read -r w l d n <<<"$(echo "$score" | awk '{ print $6, $8, $10, $12 }')"
    pct=$(awk -v w="$w" -v d="$d" -v n="$n" 'BEGIN { printf "%.1f%%", 100 * (w + d / 2) / n }')
    e=$(echo "$elo" | awk '{ printf "%+.1f ± %s", $3, $5 }' | tr -d ',')
    echo "$1: $score; $elo"
}
