#!/usr/bin/env bash
# Runs the PyPI programs written around Pikafish and UCCI engines with Chuhe as their engine,
# for real:
#   cchess 1.25.5 (a rules library with engine wrappers): its UcciEngine and UciEngine, each
#     loaded as `UcciEngine().load(path)`, a depth-limited search from the start position and
#     a mate search, with its own parse of every `info` and the `bestmove`; and its
#     EngineManager (load_ucci, load_uci, run_engine);
#   xiangqibench 0.1.1 (a benchmark whose defender is "Pikafish", found by PIKAFISH_PATH):
#     `xiangqibench doctor`, then its PikafishEngine at its fixed `go depth 18` on each of its
#     119 composed positions (each search's time against its own limit, max(60, 8 x depth) =
#     144 s, the mate found against the case's length) and its PikafishDefender's reply after
#     each case's first winning move (the engine's move, or its fallback);
#   pikafish-terminal 0.0.8 (a terminal game), driven in tmux: a typed move, the engine's
#     reply at --depth 4 (with the score display on, then off), hints, an illegal move;
#   Xiangqi Lab 1.2.0 (a Tk desktop app), on a virtual display (Xvfb): its engine check
#     (python -m xiangqilab.engine_test), an analysis ("AI Continuation", three lines with
#     win/draw/loss) and a whole AI-vs-AI game, judged afterwards by `chuhe judge`;
#     screenshots of both.
# By hand, not in CI. Needs Python 3.13+ with Tk (PYTHON=..., e.g. pyenv's 3.13), tmux, Xvfb,
# xdotool, xwd and ImageMagick (apt-get install -y tmux xvfb xdotool x11-apps imagemagick).
# The build and the install run under `nice -n 19`, the clients and the engine under
# `nice -n $NICE`; the engine's traffic is logged with times.
#
# usage: scripts/real-clients.sh [all|cchess|xiangqibench|pikafish-terminal|xiangqilab]
# env:   CHUHE  the engine (default: target/release/chuhe, built if missing)
#        PYTHON the interpreter for the clients (default: python3.13, else pyenv's 3.13)
#        WORK   scratch directory (default: /tmp/chuhe-real-clients; emptied first)
#        SHOTS  where the screenshots go (default: docs/images)
#        XQB_DEPTH  xiangqibench's search depth (default 18, its own)
#        XQL_DEPTH, XQL_SECONDS  Xiangqi Lab's search depth and time (default 5 and 5: the
#               smallest its settings dialog offers)
#        XQL_MAX_PLIES  give up the AI-vs-AI game after this many plies (default 600)
#        XQL_FEN  start the AI-vs-AI game from this position (default: the start position)
#        NICE   the clients' and the engine's niceness (default 5). At 19 on a busy machine each
#               engine search waits hundreds of ms to be scheduled, which the timings then show.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WHAT="${1:-all}"
CHUHE="${CHUHE:-$ROOT/target/release/chuhe}"
WORK="${WORK:-/tmp/chuhe-real-clients}"
SHOTS="${SHOTS:-$ROOT/docs/images}"
XQL_DEPTH="${XQL_DEPTH:-5}"
XQB_DEPTH="${XQB_DEPTH:-18}"
XQL_SECONDS="${XQL_SECONDS:-5}"
XQL_MAX_PLIES="${XQL_MAX_PLIES:-600}"
NICE="${NICE:-5}"

say() { printf '== %s\n' "$*"; }
die() { printf 'real-clients: %s\n' "$*" >&2; exit 1; }

case "$WHAT" in all | cchess | xiangqibench | pikafish-terminal | xiangqilab) ;;
    *) die "usage: $0 [all|cchess|xiangqibench|pikafish-terminal|xiangqilab]" ;; esac

if [ ! -x "$CHUHE" ]; then
    say "building $CHUHE"
    (cd "$ROOT" && nice -n 19 cargo build --release)
fi
CHUHE="$(cd "$(dirname "$CHUHE")" && pwd)/$(basename "$CHUHE")"

usable() { "$1" -c 'import sys, tkinter; assert sys.version_info >= (3, 13)' >/dev/null 2>&1; }
if [ -n "${PYTHON:-}" ]; then
    usable "$PYTHON" || die "$PYTHON is not Python 3.13+ with tkinter"
else
    for candidate in python3.14 python3.13 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[3-9]*/bin/python3 python3; do
        if usable "$candidate"; then
            PYTHON="$candidate"
            break
        fi
    done
    [ -n "${PYTHON:-}" ] || die "no Python 3.13+ with tkinter found; set PYTHON (pyenv install 3.13, with tk-dev installed first)"
fi

# A virtual environment already holding the clients at these versions is kept; the rest of
# $WORK is emptied.
CLIENTS="xiangqilab==1.2.0 pikafish-terminal==0.0.8 cchess==1.25.5 xiangqibench==0.1.1"
installed() {
    "$WORK/venv/bin/python" - $CLIENTS <<'EOF' >/dev/null 2>&1
import sys
from importlib.metadata import version
assert all(version(n) == v for n, v in (a.split("==") for a in sys.argv[1:]))
EOF
}
mkdir -p "$WORK" "$SHOTS"
find "$WORK" -mindepth 1 -maxdepth 1 ! -name venv -exec rm -rf {} +
if installed; then
    say "virtual environment in $WORK/venv (kept: it has the clients)"
else
    say "virtual environment in $WORK/venv (pip install from PyPI)"
    rm -rf "$WORK/venv"
    nice -n 19 "$PYTHON" -m venv "$WORK/venv"
    nice -n 19 "$WORK/venv/bin/pip" install -q $CLIENTS
fi

# The engine as the clients start it, with what they send ("> ") and what it answers ("< ")
# logged in $CHUHE_LOG, each line after the time it passed (seconds). Chuhe is the process
# itself (exec), so it ends when the engine does, as the clients expect.
cat >"$WORK/chuhe-logged" <<EOF
#!/usr/bin/env bash
log() {
    while IFS= read -r line; do
        printf '%s %s %s\n' "\$EPOCHREALTIME" "\$1" "\$line" >>"\${CHUHE_LOG:-$WORK/engine.log}"
        printf '%s\n' "\$line"
    done
}
exec "$CHUHE" < <(log '>') > >(log '<')
EOF
chmod +x "$WORK/chuhe-logged"
# The engine's time from each `go $2` in log $1 to its bestmove, in ms.
go_times() {
    awk -v go="go $2" '$2 == ">" && substr($0, length($1) + 4) == go { t = $1 }
        t && $2 == "<" && $3 == "bestmove" { printf "%d ", ($1 - t) * 1000; t = 0 }' "$1"
}

# ------------------------------------------------------------------------------------------
# pikafish-terminal in tmux

SESSION="chuhe-real-clients-$$"
pane() { tmux capture-pane -p -t "$SESSION" 2>/dev/null || true; }
# Waits until the pane shows $1 (a fixed string) and, with $2, a line matching it that differs
# from $2; at most $3 seconds (default 60).
wait_pane() {
    local want="$1" other="${2:-}" limit="${3:-60}" i=0
    while [ "$i" -lt $((limit * 10)) ]; do
        local text
        text="$(pane)"
        if grep -qF -- "$want" <<<"$text"; then
            if [ -z "$other" ] || [ "$(grep -F -- "$want" <<<"$text" | tail -1)" != "$other" ]; then
                return 0
            fi
        fi
        sleep 0.1
        i=$((i + 1))
    done
    pane >"$WORK/pikafish-terminal-stuck.txt"
    die "pikafish-terminal: no '$want' within ${limit}s (screen in $WORK/pikafish-terminal-stuck.txt)"
}
now_ms() { date +%s%3N; }
# Types a move and reports how long until the engine's reply is on the screen: the player
# is to move again and the last move shown is neither the typed one nor the one before.
timed_move() {
    local typed="$1" label="$2" before start i=0 text last
    wait_pane "(pikafish) >"
    before="$(pane | grep -F 'Last move:' | tail -1 || true)"
    start="$(now_ms)"
    tmux send-keys -t "$SESSION" "$typed" Enter
    while :; do
        text="$(pane)"
        last="$(grep -F 'Last move:' <<<"$text" | tail -1 || true)"
        if grep -qF "to move (You)" <<<"$text" && [ -n "$last" ] && [ "$last" != "$before" ] &&
            [ "$last" != "Last move: $typed" ]; then
            break
        fi
        i=$((i + 1))
        [ "$i" -lt 600 ] || { pane >"$WORK/pikafish-terminal-stuck.txt"; die "no reply to $typed within 60 s"; }
        sleep 0.1
    done
    # With the score display on the client runs two `go depth 15 movetime 500` of its own
    # (one after each move) before it shows the reply, so only the second setting can be
    # within a second.
    echo "typed $typed ($label): the engine's reply (${last#Last move: }) was on the screen after" \
        "$(($(now_ms) - start)) ms" | tee -a "$WORK/pikafish-terminal.txt"
    pane >"$WORK/pikafish-terminal-$typed.txt"
}

run_pikafish_terminal() {
    say "pikafish-terminal: pikafish --engine chuhe --depth 4, in tmux"
    : >"$WORK/pikafish-terminal.txt"
    tmux new-session -d -s "$SESSION" -x 100 -y 60 \
        "cd '$WORK' && CHUHE_LOG='$WORK/pikafish-terminal-engine.log' nice -n $NICE '$WORK/venv/bin/pikafish' --engine '$WORK/chuhe-logged' --depth 4; sleep 600"
    wait_pane "Choose your side"
    tmux send-keys -t "$SESSION" r Enter
    # h2e2 and b0c2 in the client's notation (files 1-9 from the left, ranks 0-9).
    timed_move 8252 "score display on, as by default"
    wait_pane "(pikafish) >"
    tmux send-keys -t "$SESSION" s Enter
    wait_pane "Score display disabled"
    timed_move 2032 "score display off"
    wait_pane "(pikafish) >"
    tmux send-keys -t "$SESSION" hint Enter
    wait_pane "Press Enter to continue" "" 120
    pane >"$WORK/pikafish-terminal-hint.txt"
    grep -A4 "move suggestions" "$WORK/pikafish-terminal-hint.txt" | tee -a "$WORK/pikafish-terminal.txt"
    tmux send-keys -t "$SESSION" Enter
    wait_pane "(pikafish) >"
    tmux send-keys -t "$SESSION" 1019 Enter
    wait_pane "Illegal move: 1019"
    echo "typed 1019 (a0a9, not a legal move): 'Illegal move: 1019' on the screen" | tee -a "$WORK/pikafish-terminal.txt"
    timed_move 8072 "score display off"
    wait_pane "(pikafish) >"
    tmux send-keys -t "$SESSION" q Enter
    sleep 2
    tmux kill-session -t "$SESSION" 2>/dev/null || true
    echo "the engine's time from each 'go depth 4' to its bestmove (ms):" \
        "$(go_times "$WORK/pikafish-terminal-engine.log" 'depth 4')" | tee -a "$WORK/pikafish-terminal.txt"
    say "pikafish-terminal: screens in $WORK/pikafish-terminal-*.txt"
}

# ------------------------------------------------------------------------------------------
# Xiangqi Lab on Xvfb

run_xiangqilab() {
    export XDG_CONFIG_HOME="$WORK/xdg" CHUHE_LOG="$WORK/xiangqilab-engine.log"
    say "Xiangqi Lab: python -m xiangqilab.engine_test"
    (cd "$WORK" && nice -n "$NICE" "$WORK/venv/bin/python" -m xiangqilab.engine_test "$WORK/chuhe-logged") \
        >"$WORK/xiangqilab-engine-test.log" 2>&1 || true
    tail -1 "$WORK/xiangqilab-engine-test.log"

    say "Xiangqi Lab: analysis and an AI-vs-AI game on Xvfb (depth $XQL_DEPTH, $XQL_SECONDS s)"
    mkdir -p "$XDG_CONFIG_HOME/xiangqilab"
    "$WORK/venv/bin/python" - "$WORK/chuhe-logged" "$XQL_DEPTH" "$XQL_SECONDS" >"$XDG_CONFIG_HOME/xiangqilab/config.json" <<'EOF'
import json, sys
from xiangqilab.config import DEFAULT_CONFIG
config = json.loads(json.dumps(DEFAULT_CONFIG))
config["engine"].update(engine_path=sys.argv[1], neural_net_path="", top_n_moves=3,
                        search_depth=int(sys.argv[2]), search_time_seconds=int(sys.argv[3]))
print(json.dumps(config, indent=2))
EOF
    local display=":$((90 + $$ % 9))"
    Xvfb "$display" -screen 0 1280x960x24 -nolisten tcp >"$WORK/xvfb.log" 2>&1 &
    local xvfb=$!
    sleep 2
    local convert=""
    for c in magick /usr/bin/convert convert; do
        if command -v "$c" >/dev/null && "$c" -version 2>/dev/null | grep -q ImageMagick; then
            convert="$c"
            break
        fi
    done
    [ -n "$convert" ] || die "ImageMagick is needed for the screenshots"
    DISPLAY="$display" XQL_FEN="${XQL_FEN:-}" WORK="$WORK" SHOTS="$SHOTS" CONVERT="$convert" CHUHE="$CHUHE" \
        XQL_MAX_PLIES="$XQL_MAX_PLIES" nice -n "$NICE" "$WORK/venv/bin/python" - <<'EOF' 2>&1 | tee "$WORK/xiangqilab.txt"
# Drives the real app: its Controller as main() builds it; the buttons are clicked with
# xdotool at their places on the screen; screenshots with xwd.
import json, os, subprocess, sys, time
from xiangqilab.app_path import get_config_path
from xiangqilab.config import Config
from xiangqilab.controller import Controller
from xiangqilab.default_game import create_default_game_files
from xiangqilab.font_installer import install_xiangqi_emoji_font
from xiangqilab.game_repository import GameRepository
from xiangqilab.localization import Localization

work, shots = os.environ["WORK"], os.environ["SHOTS"]
install_xiangqi_emoji_font()
config_path = get_config_path("xiangqilab", "config.json")
Localization.switch_locale(Config(config_path).ui_config.locale)
games = get_config_path("xiangqilab", "games")
create_default_game_files(games)
app = Controller(games_folder=games, config_file_path=config_path,
                 store_file_path=get_config_path("xiangqilab", "state.json"))
root = app._window._root
root.geometry("1200x900+0+0")
start = next(g for g in GameRepository.load_from_folder(games) if g.file_path.endswith("default.json"))
# The AI-vs-AI game starts from XQL_FEN when given, as a game file of the app's own.
game_start = start
if os.environ.get("XQL_FEN"):
    with open(os.path.join(games, "chuhe-start.json"), "w") as f:
        json.dump({"localized_descriptions": {"en": "XQL_FEN"}, "fen": os.environ["XQL_FEN"], "moves": ""}, f)
    game_start = next(g for g in GameRepository.load_from_folder(games) if g.file_path.endswith("chuhe-start.json"))

def click(widget):
    root.update()
    x = widget.winfo_rootx() + widget.winfo_width() // 2
    y = widget.winfo_rooty() + widget.winfo_height() // 2
    subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], check=True)

def shot(name):
    root.update()
    xwd = os.path.join(work, name + ".xwd")
    subprocess.run(["xwd", "-root", "-silent", "-out", xwd], check=True)
    subprocess.run([os.environ["CONVERT"], xwd, os.path.join(shots, name + ".png")], check=True)
    print(f"screenshot {os.path.join(shots, name + '.png')}")

def iccs(m):
    return f"{chr(97 + m.src.x)}{9 - m.src.y}{chr(97 + m.dst.x)}{9 - m.dst.y}"

def analysis():
    app._on_analyze_game(start)
    view = app._game_analyzer
    root.after(1000, lambda: click(view._btn_analyze))
    def wait():
        out = view.state.engine_output
        if out is None or not out.done:
            return root.after(200, wait)
        print(f"analysis: engine error: {out.error}; {len(out.variations)} lines")
        for k, alt in sorted(out.alt_moves.items()):
            moves = " ".join(iccs(m) for m in alt.moves[:6])
            print(f"  line {k}: depth {alt.depth}, win {alt.win_p:.3f} draw {alt.draw_p:.3f} "
                  f"loss {alt.lose_p:.3f}: {moves}")
        root.after(500, lambda: (shot("xiangqilab-analysis"), click(view._btn_quit), root.after(1000, ai_game)))
    root.after(1500, wait)

def ai_game():
    app._on_versus_ai(game_start)
    view = app._ai_game
    began = time.time()
    def setup():
        # Click until the app's state shows each click taken (a click may land before the
        # widget is ready).
        s = view.state
        if not s.ai_play_red:
            click(view._chk_btn_ai_play_red)
        elif not s.ai_play_black:
            click(view._chk_btn_ai_play_black)
        elif not s.ai_enabled:
            click(view._btn_enable_ai)
        else:
            print(f"AI vs AI started: AI plays Red and Black, depth {s.engine and app._config.engine_config.search_depth}")
            return root.after(300, wait)
        root.after(700, setup)
    def judge(moves):
        text = " ".join(iccs(m) for m in moves)
        fen = ["--fen", os.environ["XQL_FEN"]] if os.environ.get("XQL_FEN") else []
        out = subprocess.run([os.environ["CHUHE"], "judge", *fen, "--moves", text], capture_output=True, text=True)
        return text, out.stdout.strip() or out.stderr.strip()
    def wait():
        s = view.state
        moves = s.variations[0].moves
        out = s.engine_output
        over = not s.ai_enabled and s.engine is None and len(moves) > 0
        arbiter = None
        if not over and len(moves) != wait.judged:
            # Xiangqi Lab ends a game only on `bestmove (none)` (mate, stalemate) and has no
            # draw or repetition rules; the script is its arbiter for those and stops its AI.
            wait.judged = len(moves)
            verdict = judge(moves)[1]
            if not verdict.startswith("*") and "checkmate" not in verdict and "stalemate" not in verdict:
                arbiter = verdict
                click(view._btn_enable_ai)
        if not over and not arbiter and not (out and out.error) and len(moves) < int(os.environ["XQL_MAX_PLIES"]):
            if len(moves) % 20 == 0 and len(moves) != wait.shown:
                wait.shown = len(moves)
                print(f"  {len(moves)} plies", flush=True)
            return root.after(300, wait)
        print(f"AI vs AI: {len(moves)} plies in {time.time() - began:.0f} s; engine error: {bool(out and out.error)}; "
              f"ended by {'the app (bestmove (none))' if over else 'the script: ' + arbiter if arbiter else 'the script: XQL_MAX_PLIES'}")
        text, verdict = judge(moves)
        with open(os.path.join(work, "xiangqilab-game.txt"), "w") as f:
            f.write(text + "\n")
        print(f"chuhe judge on the game: {verdict}")
        if view.state.ai_enabled:
            # Given up at XQL_MAX_PLIES: stop the AI as a user would (its engine thread would
            # keep the app alive).
            click(view._btn_enable_ai)
        root.after(1500, lambda: (shot("xiangqilab"), root.after(500, root.destroy)))
    wait.shown = wait.judged = 0
    root.after(700, setup)

root.after(1500, analysis)
root.mainloop()
sys.stdout.flush()
os._exit(0)  # whatever engine thread is left; the engine ends on its closed input
EOF
    kill "$xvfb" 2>/dev/null || true
    local errors
    errors="$(grep -c '^[0-9.]* < .*error' "$CHUHE_LOG" || true)"
    say "Xiangqi Lab: engine lines with 'error' in $CHUHE_LOG: $errors"
}

# ------------------------------------------------------------------------------------------
# cchess: its engine wrappers, as a program built on it drives them

run_cchess() {
    say "cchess: UcciEngine and UciEngine, UcciEngine().load(path), go depth 10 and a mate in 2"
    CHUHE_LOG="$WORK/cchess-engine.log" nice -n "$NICE" "$WORK/venv/bin/python" - "$WORK/chuhe-logged" <<'EOF' 2>&1 |
# Each wrapper as cchess's own EngineManager uses it: load, wait_for_ready, go_from, then
# get_action until the bestmove; what it parsed out of each line is checked.
import sys, time
import cchess
from cchess.engine import EngineManager, FenCache, UcciEngine, UciEngine

path = sys.argv[1]
MATE = "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1"  # Red mates in 2, by g5g9 or h5h9 (xiangqibench's 3-ply case)
failures = []

def check(ok, what):
    print(f"  [{'ok' if ok else 'FAIL'}] {what}")
    if not ok:
        failures.append(what)

def search(engine, fen, depth):
    engine.go_from(fen, {"depth": depth})
    infos, start = [], time.time()
    while time.time() - start < 120:
        action = engine.get_action()
        if action is None:
            time.sleep(0.02)
        elif action["action"] == "info_move":
            infos.append(action)
        elif action["action"] in ("bestmove", "dead", "draw"):
            return infos, action, time.time() - start
    return infos, None, time.time() - start

for cls in (UcciEngine, UciEngine):
    name = cls.__name__
    engine = cls()
    check(engine.load(path), f"{name}().load(path)")
    check(engine.wait_for_ready(timeout=10), f"{name}: {engine.ok_resp()} (id {engine.ids.get('name')!r}, {len(engine.options)} options)")
    infos, best, took = search(engine, cchess.FULL_INIT_FEN, 10)
    parsed = [i for i in infos if all(k in i for k in ("depth", "score", "moves"))]
    check(best is not None and best["action"] == "bestmove", f"{name}: go depth 10 from the start: {best and best['raw_msg']!r} after {took:.2f} s")
    check(len(parsed) == len(infos) > 0 and infos[-1]["depth"] == 10, f"{name}: {len(infos)} info lines with depth, score and pv parsed; last: depth {infos and infos[-1].get('depth')}, score {infos and infos[-1].get('score')}, pv {' '.join(infos[-1]['moves'][:4]) if infos else ''}")
    check(best is not None and "score" in best and best.get("moves", [None])[0] == best.get("move"), f"{name}: the bestmove {best and best.get('move')} carries its line's score {best and best.get('score')}")
    board = cchess.ChessBoard(cchess.FULL_INIT_FEN)
    check(best is not None and board.is_valid_iccs_move(best["move"]), f"{name}: {best and best.get('move')} is legal by cchess's rules")
    infos, best, took = search(engine, MATE, 8)
    # UCI says `score mate 2`; UCCI has no mate score, and Chuhe sends 10000 less the plies.
    mated = best is not None and (best.get("mate") == 2 if cls is UciEngine else best.get("score") == 9997)
    check(mated, f"{name}: mate search: bestmove {best and best.get('move')}, mate {best and best.get('mate')}, score {best and best.get('score')} (after {took:.2f} s)")
    engine.quit()
    check(engine.process.wait(timeout=10) == 0, f"{name}: quit: the engine exited with status 0")

for load in ("load_ucci", "load_uci"):
    manager = EngineManager(FenCache())
    check(getattr(manager, load)(path, {"Threads": 1}, {"depth": 8}), f"EngineManager.{load}(path, options, go_params)")
    action = manager.run_engine(MATE)
    mated = action.get("mate") == -2 if load == "load_uci" else action.get("score") == -9997
    check(mated and action.get("move") in ("g5g9", "h5h9"), f"EngineManager.{load}: run_engine: {action.get('move')}, mate {action.get('mate')}, score {action.get('score')} (negated by cchess: the side to move next)")
    manager.quit()

print(f"cchess: {'all checks passed' if not failures else str(len(failures)) + ' failed: ' + '; '.join(failures)}")
sys.exit(1 if failures else 0)
EOF
    tee "$WORK/cchess.txt"
    local errors
    errors="$(grep -c '^[0-9.]* < .*error' "$WORK/cchess-engine.log" || true)"
    say "cchess: engine lines with 'error' in $WORK/cchess-engine.log: $errors"
}

# ------------------------------------------------------------------------------------------
# xiangqibench: its defender's engine, found by PIKAFISH_PATH

run_xiangqibench() {
    say "xiangqibench: PIKAFISH_PATH=$CHUHE xiangqibench doctor"
    (cd "$WORK" && PIKAFISH_PATH="$CHUHE" nice -n "$NICE" "$WORK/venv/bin/xiangqibench" doctor) 2>&1 |
        tee "$WORK/xiangqibench-doctor.txt"
    say "xiangqibench: go depth $XQB_DEPTH on its composed positions, and its defender's replies"
    PIKAFISH_PATH="$CHUHE" XQB_DEPTH="$XQB_DEPTH" nice -n "$NICE" "$WORK/venv/bin/python" - <<'EOF' 2>&1 |
# The benchmark's own classes, as its runner builds them: one PikafishEngine (depth 18,
# Threads 1, Hash 256, a fresh ucinewgame per position) for every search.
import os, sys, time
import cchess
from xiangqibench.cases import load_cases
from xiangqibench.defender import PikafishDefender, PikafishEngine

depth = int(os.environ["XQB_DEPTH"])
limit = max(60.0, depth * 8.0)  # engine.py: _read_until("bestmove", timeout=max(60.0, depth * 8.0))
cases = load_cases()
engine = PikafishEngine(depth=depth)
print(f"engine {engine.info()['engine_id']} at {engine.engine_path}; {len(cases)} cases; go depth {depth}; "
      f"the benchmark's limit for one search {limit:.0f} s")
times, at_length, other, fallbacks = [], 0, [], []
for case in cases:
    start = time.perf_counter()
    result = engine.analyse(case.fen)
    took = time.perf_counter() - start
    times.append((took, case.id))
    plies = 2 * result.score_mate - 1 if result.score_mate and result.score_mate > 0 else None
    if plies == case.win_in_plies:
        at_length += 1
    else:
        other.append(f"{case.id}: bestmove {result.bestmove}, score mate {result.score_mate} cp {result.score_cp}, "
                     f"the case's mate {case.win_in_plies} plies")
    # The defender's reply after the case's first winning move, as the runner asks for it.
    board = cchess.ChessBoard(case.fen)
    board.move_iccs(case.first_winning_move)
    board.next_turn()
    choice = PikafishDefender(case.challenger, engine).choose(board.to_fen())
    if choice.backend != "pikafish" or choice.move is None:
        fallbacks.append(f"{case.id}: {choice.backend} {choice.move}")
engine.close()
times.sort()
slowest, slowest_id = times[-1]
print(f"{len(cases)} searches at depth {depth}: total {sum(t for t, _ in times):.1f} s, median {times[len(times) // 2][0]:.2f} s, "
      f"slowest {slowest:.2f} s ({slowest_id}); over the {limit:.0f} s limit: {sum(t > limit for t, _ in times)}")
print(f"mate found at the case's length: {at_length} of {len(cases)}")
for line in other:
    print(f"  not at the case's length: {line}")
print(f"defender replies after each first winning move: {len(cases) - len(fallbacks)} by the engine, "
      f"{len(fallbacks)} by the fallback or none")
for line in fallbacks:
    print(f"  {line}")
# A search over the benchmark's limit, or a position the engine did not answer for, fails.
sys.exit(1 if slowest > limit or fallbacks else 0)
EOF
        tee "$WORK/xiangqibench.txt"
}

case "$WHAT" in
    all) run_cchess; run_xiangqibench; run_pikafish_terminal; run_xiangqilab ;;
    cchess) run_cchess ;;
    xiangqibench) run_xiangqibench ;;
    pikafish-terminal) run_pikafish_terminal ;;
    xiangqilab) run_xiangqilab ;;
esac
say "engine traffic: $WORK/*-engine.log"
