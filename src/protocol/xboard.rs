//! CECP, "xboard protocol version 2" (XBoard / WinBoard and tools built on them). Unlike
//! UCCI/UCI the session is stateful: the engine plays the side it is told (`go`, `playother`,
//! `force`), keeps its own game (`usermove`, `undo`, `remove`, `setboard`), its clocks (`level`,
//! `st`, `sd`, `time`/`otim` in centiseconds) and ponders on its own (`hard`). Game ends are
//! claimed with the `rules` verdict. The loop here drives the shared [`Session`] (search
//! start/stop, options, output) and keeps only CECP's own state. See `docs/protocol.md`.

use super::command::{clip, parse_count, parse_time, Command, Go, Words};
use super::options::{Key, Kind, Options, Spec, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, MAX_THREADS};
use super::policy::Decision;
use super::session::{Flow, Session};
use super::{Dialect, Input, Output, ENGINE_NAME};
use crate::board::{Color, Move, Position};
use crate::rules::{Game, GameResult, Rule, Verdict};
use crate::search::{Info, ProbeInfo, Score};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// CECP's mate score: mate in `n` moves is reported as `MATE_SCORE + n`, mated in `n` as
/// `-(MATE_SCORE + n)`.
pub const MATE_SCORE: i32 = 100_000;
/// How often the loop looks for a finished search while one runs.
pub const POLL: Duration = Duration::from_millis(2);

const OPTIONS: &[Spec] = &[
    Spec { key: Key::Hash, name: "Hash", kind: Kind::Spin { min: 1, max: MAX_HASH_MB }, zero_is_default: false },
    Spec { key: Key::Threads, name: "Threads", kind: Kind::Spin { min: 1, max: MAX_THREADS }, zero_is_default: false },
    Spec { key: Key::MultiPv, name: "MultiPV", kind: Kind::Spin { min: 1, max: MAX_MULTIPV }, zero_is_default: false },
    Spec {
        key: Key::MoveOverhead,
        name: "Move Overhead",
        kind: Kind::Spin { min: 0, max: MAX_MOVE_OVERHEAD_MS },
        zero_is_default: false,
    },
    Spec { key: Key::ClearHash, name: "Clear Hash", kind: Kind::Button, zero_is_default: false },
];

/// What `.` reports in analyze mode (`stat01`).
#[derive(Clone, Copy, Debug, Default)]
struct Status {
    time_ms: u64,
    nodes: u64,
    depth: u32,
    current: Option<(Move, u32)>,
}

/// The CECP dialect: the reply formats. `post` and the analysis status are shared with the
/// search thread (which formats the replies), hence an atomic and a mutex.
#[derive(Default)]
pub struct Xboard {
    post: AtomicBool,
    status: Mutex<Status>,
}

/// A score as CECP prints it: centipawns, or `±(100000 + moves)` for mates.
pub fn cecp_score(s: Score) -> i32 {
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE_SCORE + n,
        Score::Mate(n) => -(MATE_SCORE + n.abs()),
    }
}

/// A claim line: `1-0 {Black loses: checkmate}`.
pub fn claim(v: &Verdict) -> String {
    format!("{} {{{}}}", v.result, v.reason)
}

/// Whether to claim the rules' verdict on `game` to XBoard, which checks claims with its own
/// rules (`-testClaims`) and forfeits a claim it finds false (both cases seen with 4.9.1):
/// - a draw before any move was played from the start position: XBoard judges by the status
///   of the last position reached by a move, so it calls the claim false;
/// - a perpetual *chase*: XBoard's chase test is not the Asian rules of `rules`, and it called
///   a correct perpetual-chase win false.
///
/// Then the engine plays on and XBoard adjudicates itself. Everything else (mate, stalemate,
/// perpetual check, repetition and 60-move draws, insufficient material) is claimed.
pub fn claimable(game: &Game) -> Option<Verdict> {
    game.verdict()
        .filter(|v| v.rule != Rule::PerpetualChase && (v.result != GameResult::Draw || !game.moves().is_empty()))
}

/// XBoard 4.9 writes xiangqi FENs with four fields, `board side halfmove fullmove` (no
/// castling and en-passant fields); this puts the two `-` back so the counters are read.
pub fn normalize_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    if f.len() == 4 && parse_count(f[2]).is_some() && parse_count(f[3]).is_some() {
        format!("{} {} - - {} {}", f[0], f[1], f[2], f[3])
    } else {
        f.join(" ")
    }
}

/// `level` base time: minutes, or `minutes:seconds`; in ms.
fn parse_base(w: &str) -> Option<u64> {
    match w.split_once(':') {
        None => parse_time(w, 60_000),
        Some((m, s)) => Some(parse_count(m)?.saturating_mul(60_000).saturating_add(parse_time(s, 1000)?)),
    }
}

impl Xboard {
    fn lock_status(&self) -> std::sync::MutexGuard<'_, Status> {
        self.status.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Dialect for Xboard {
    fn options(&self) -> &'static [Spec] {
        OPTIONS
    }

    fn unknown_option_is_error(&self) -> bool {
        true
    }

    /// The stateless CECP commands, as shared commands: `option`, `memory`, `cores`, `quit`
    /// (and `d`, `eval` for debugging).
    /// Everything else is stateful and handled by the CECP loop.
    fn parse(&self, line: &str, _opts: &Options) -> Result<Command, String> {
        let mut w = Words::new(line);
        let Some(cmd) = w.next_word() else { return Ok(Command::Empty) };
        match cmd {
            "option" => {
                let rest = w.rest();
                if rest.is_empty() {
                    return Err("option: expected NAME=VALUE".to_string());
                }
                Ok(match rest.split_once('=') {
                    Some((n, v)) => {
                        Command::SetOption { name: n.trim().to_string(), value: Some(v.trim().to_string()) }
                    }
                    None => Command::SetOption { name: rest, value: None },
                })
            }
            "memory" => Ok(Command::SetOption { name: "Hash".into(), value: Some(w.count("memory")?.to_string()) }),
            "cores" => Ok(Command::SetOption { name: "Threads".into(), value: Some(w.count("cores")?.to_string()) }),
            "quit" => Ok(Command::Quit),
            // Debugging extras shared with the other dialects.
            "d" => Ok(Command::Display),
            "eval" => Ok(Command::Eval),
            other => Err(format!("unknown command '{}'", clip(other))),
        }
    }

    /// The `feature` lines sent in answer to `protover 2`.
    fn handshake(&self) -> Vec<String> {
        let mut v = vec![
            "feature done=0".to_string(),
            format!("feature myname=\"{ENGINE_NAME}\""),
            "feature variants=\"xiangqi\"".to_string(),
            "feature setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 colors=0 time=1 draw=1 reuse=1".to_string(),
            "feature analyze=1 memory=1 smp=1 name=0 nps=0 debug=1 pause=0 san=0".to_string(),
        ];
        for s in OPTIONS.iter().filter(|s| !matches!(s.key, Key::Hash | Key::Threads)) {
            v.push(match s.kind {
                Kind::Check => {
                    format!("feature option=\"{} -check {}\"", s.name, u8::from(Options::default_text(s) == "true"))
                }
                Kind::Spin { min, max } => {
                    format!("feature option=\"{} -spin {} {min} {max}\"", s.name, Options::default_text(s))
                }
                Kind::Button => format!("feature option=\"{} -button\"", s.name),
            });
        }
        v.push("feature done=1".to_string());
        v
    }

    /// `ply score time nodes pv`, time in centiseconds; empty (not sent) while `nopost`.
    fn info(&self, i: &Info) -> String {
        {
            let mut st = self.lock_status();
            st.time_ms = i.time_ms;
            st.nodes = i.nodes;
            st.depth = i.depth;
        }
        if !self.post.load(Ordering::SeqCst) {
            return String::new();
        }
        let mut s = format!("{} {} {} {}", i.depth, cecp_score(i.score), i.time_ms / 10, i.nodes);
        super::push_moves(&mut s, &i.pv);
        s
    }

    /// CECP has no current-move line; the move is kept for `stat01`.
    fn currmove(&self, _depth: u32, mv: Move, number: u32) -> String {
        self.lock_status().current = Some((mv, number));
        String::new()
    }

    fn bestmove(&self, d: &Decision) -> String {
        match d.best {
            None => String::new(),
            Some(_) if d.resign => "resign".to_string(),
            Some(m) if d.draw => format!("offer draw\nmove {m}"),
            Some(m) => format!("move {m}"),
        }
    }

    fn message(&self, text: &str) -> String {
        format!("# {text}")
    }

    fn error(&self, text: &str) -> String {
        match text.split_once(": ") {
            Some((cmd, why)) if !cmd.contains(' ') => format!("Error ({why}): {cmd}"),
            _ => format!("Error ({text})"),
        }
    }

    fn stray_stop(&self) -> Option<String> {
        None
    }

    fn bye(&self) -> Option<String> {
        None
    }

    fn pophash(&self, _p: Option<&ProbeInfo>) -> String {
        String::new()
    }
}

/// Time control from `level` / `st`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Level {
    /// Moves per session (0: the whole game).
    mps: u32,
    base_ms: u64,
    inc_ms: u64,
}

/// CECP's default (XBoard's own): 40 moves in 5 minutes.
const DEFAULT_LEVEL: Level = Level { mps: 40, base_ms: 300_000, inc_ms: 0 };

/// The CECP session state on top of the shared [`Session`].
struct Cecp {
    s: Session,
    x: Arc<Xboard>,
    /// Neither side is played by the engine.
    force: bool,
    /// The side the engine plays when not in force mode.
    engine_side: Color,
    /// A claim or `result` ended the game: think no more until the position changes.
    game_over: bool,
    analyzing: bool,
    /// `hard`: ponder after our move.
    ponder: bool,
    /// The guessed reply, played in the session's game, while a ponder search runs on it.
    pondering: Option<Move>,
    level: Level,
    /// `st`: exact seconds per move, in ms.
    st_ms: Option<u64>,
    /// `sd`: depth limit.
    sd: Option<u32>,
    /// Our clock from `time` (or estimated since), ms.
    own_ms: Option<u64>,
    /// A `draw` offer from the opponent, for the next search.
    draw_offered: bool,
    /// When our current (non-ponder) search started.
    think_started: Option<Instant>,
}

/// Runs a CECP session until `quit` or end of input (the `xboard` command already read).
pub fn run(rx: &Receiver<Input>, out: Output) {
    let x = Arc::new(Xboard::default());
    let s = Session::new(x.clone(), out);
    let mut c = Cecp {
        s,
        x,
        force: false,
        engine_side: Color::Black,
        game_over: false,
        analyzing: false,
        ponder: false,
        pondering: None,
        level: DEFAULT_LEVEL,
        st_ms: None,
        sd: None,
        own_ms: None,
        draw_offered: false,
        think_started: None,
    };
    loop {
        c.collect();
        let Some(input) = c.s.next_input(rx, POLL) else { continue };
        let line = match input {
            Input::Line(l) => l,
            Input::Eof => {
                c.s.abandon_search();
                return;
            }
        };
        c.collect();
        if let Flow::Quit = c.command(&line) {
            return;
        }
    }
}

impl Cecp {
    fn out(&self, line: &str) {
        self.s.out().line(line);
    }

    fn err(&self, why: &str, cmd: &str) {
        self.out(&format!("Error ({why}): {}", clip(cmd)));
    }

    /// Plays the move of a search that has just finished, claims a game end, starts pondering.
    fn collect(&mut self) {
        let Some(d) = self.s.take_finished() else { return };
        if self.pondering.is_some() || self.analyzing {
            return; // a ponder or analysis search never ends by itself; nothing to play
        }
        if d.resign {
            self.game_over = true;
            return;
        }
        let Some(m) = d.best else { return };
        let mut game = self.s.game().clone();
        if game.play(m).is_err() {
            return; // cannot happen: the move came from this position's root moves
        }
        self.s.set_game(game);
        if let (Some(t), Some(started)) = (self.own_ms, self.think_started.take()) {
            let used = started.elapsed().as_millis() as u64;
            self.own_ms = Some(t.saturating_sub(used) + self.level.inc_ms);
        }
        if let Some(v) = claimable(self.s.game()) {
            self.out(&claim(&v));
            self.game_over = true;
            return;
        }
        if self.ponder && !self.force {
            if let Some(guess) = d.ponder {
                self.start_ponder(guess);
            }
        }
    }

    /// The search parameters for our move now (a ponder search uses the same ones).
    fn limits(&self) -> Go {
        let mut go = Go { depth: self.sd, draw_offer: self.draw_offered, ..Go::default() };
        if let Some(st) = self.st_ms {
            go.movetime_ms = Some(st);
        } else {
            go.own_time_ms = Some(self.own_ms.unwrap_or(self.level.base_ms));
            go.own_inc_ms = Some(self.level.inc_ms);
            if self.level.mps > 0 {
                let ours_played = (self.s.game().moves().len() / 2) as u32;
                go.movestogo = Some(self.level.mps - ours_played % self.level.mps);
            }
        }
        go
    }

    /// Our turn: claim a finished game (see [`claimable`]), else think.
    fn think(&mut self) {
        if let Some(v) = claimable(self.s.game()) {
            self.out(&claim(&v));
            self.game_over = true;
            return;
        }
        let go = self.limits();
        self.draw_offered = false;
        self.think_started = Some(Instant::now());
        if let Err(e) = self.s.go(go) {
            self.s.error(&e);
        }
    }

    fn start_ponder(&mut self, guess: Move) {
        let mut game = self.s.game().clone();
        if game.play(guess).is_err() || claimable(&game).is_some() {
            return;
        }
        self.s.set_game(game);
        let go = Go { ponder: true, ..self.limits() };
        match self.s.go(go) {
            Ok(()) => self.pondering = Some(guess),
            Err(e) => self.s.error(&e),
        }
    }

    /// Stops pondering and takes the guessed move back.
    fn cancel_ponder(&mut self) {
        if self.pondering.take().is_some() {
            self.s.abandon_search();
            let n = self.s.game().moves().len();
            self.rewind(n - 1);
        }
    }

    /// Stops whatever runs (ponder, analysis or our own thinking) without playing its move.
    fn halt(&mut self) {
        self.cancel_ponder();
        self.s.abandon_search();
        self.think_started = None;
    }

    /// Keeps the first `n` moves of the game.
    fn rewind(&mut self, n: usize) {
        let old = self.s.game();
        let mut game = Game::new(old.start().clone());
        for &m in &old.moves()[..n] {
            let _ = game.play(m);
        }
        self.s.set_game(game);
    }

    /// (Re)starts the analysis search on the current position.
    fn analyze(&mut self) {
        self.s.abandon_search();
        *self.x.lock_status() = Status::default();
        if !self.s.game().position().has_legal_move() {
            return;
        }
        if let Err(e) = self.s.go(Go { infinite: true, ..Go::default() }) {
            self.s.error(&e);
        }
    }

    /// After the position changed under an analysis: analyse the new one.
    fn position_changed(&mut self) {
        self.game_over = false;
        if self.analyzing {
            self.analyze();
        }
    }

    fn usermove(&mut self, text: &str) {
        let Ok(m) = Move::parse(text) else {
            self.out(&format!("Illegal move: {}", clip(text)));
            return;
        };
        if let Some(guess) = self.pondering {
            if guess == m && self.s.pondering() {
                self.pondering = None;
                self.think_started = Some(Instant::now());
                let draw = std::mem::take(&mut self.draw_offered);
                if let Err(e) = self.s.ponderhit(draw) {
                    self.s.error(&e);
                }
                return;
            }
            self.cancel_ponder();
        }
        if self.s.thinking() && !self.analyzing {
            self.out(&format!("Illegal move (engine is thinking): {}", clip(text)));
            return;
        }
        let mut game = self.s.game().clone();
        if game.play(m).is_err() {
            self.out(&format!("Illegal move: {}", clip(text)));
            return;
        }
        self.s.abandon_search();
        self.s.set_game(game);
        if self.analyzing {
            self.analyze();
        } else if !self.force && !self.game_over && self.s.game().position().side_to_move() == self.engine_side {
            self.think();
        }
    }

    fn setboard(&mut self, fen: &str) {
        match Position::from_fen(&normalize_fen(fen)) {
            Ok(p) => {
                self.halt();
                self.s.set_game(Game::new(p));
                self.position_changed();
            }
            Err(e) => self.out(&format!("tellusererror Illegal position: {e}")),
        }
    }

    fn take_back(&mut self, plies: usize, cmd: &str) {
        self.halt();
        let n = self.s.game().moves().len();
        if n < plies {
            self.err("no move to take back", cmd);
            return;
        }
        self.rewind(n - plies);
        self.position_changed();
    }

    fn level(&mut self, w: &mut Words, line: &str) {
        let parsed = (|| {
            let mps = parse_count(w.next_word()?)?.min(u32::MAX as u64) as u32;
            let base_ms = parse_base(w.next_word()?)?;
            let inc_ms = parse_time(w.next_word()?, 1000)?;
            Some(Level { mps, base_ms, inc_ms })
        })();
        match parsed {
            Some(l) => {
                self.level = l;
                self.st_ms = None;
                self.own_ms = None;
            }
            None => self.err("level needs MPS BASE INC", line),
        }
    }

    /// Executes one command line.
    fn command(&mut self, line: &str) -> Flow {
        let mut w = Words::new(line);
        let Some(cmd) = w.next_word() else { return Flow::Continue };
        match cmd {
            "." if self.analyzing => {
                let st = *self.x.lock_status();
                let total = self.s.game().position().legal_moves().len() as u32;
                let (left, cur) = match st.current {
                    Some((m, k)) => (total.saturating_sub(k), format!(" {m}")),
                    None => (0, String::new()),
                };
                self.out(&format!("stat01: {} {} {} {left} {total}{cur}", st.time_ms / 10, st.nodes, st.depth));
            }
            // Accepted and ignored: CECP information we have no use for (`.` outside analyze).
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" | "hint"
            | "otim" | "." => {}
            // Book query: a tab-indented line, then a blank line ends the answer.
            "bk" => self.s.out().lines(&["\tno opening book", ""]),
            "protover" => {
                if w.next_word().and_then(parse_count).is_some_and(|v| v >= 2) {
                    self.s.out().lines(&self.x.handshake());
                }
            }
            "ping" => self.out(&format!("pong {}", w.rest())),
            "new" => {
                self.halt();
                self.s.new_game();
                self.s.set_game(Game::new(Position::startpos()));
                self.force = false;
                self.engine_side = Color::Black;
                self.sd = None;
                self.own_ms = None;
                self.draw_offered = false;
                self.position_changed();
            }
            "variant" => match w.next_word() {
                Some("xiangqi") => {}
                Some(v) => self.err("unsupported variant", v),
                None => self.err("variant needs a name", line),
            },
            "setboard" => self.setboard(&w.rest()),
            "usermove" => match w.next_word() {
                Some(m) => self.usermove(m),
                None => self.err("usermove needs a move", line),
            },
            "go" => {
                self.cancel_ponder();
                if self.s.thinking() || self.analyzing {
                    return Flow::Continue;
                }
                self.force = false;
                self.game_over = false;
                self.engine_side = self.s.game().position().side_to_move();
                self.think();
            }
            "playother" => {
                self.cancel_ponder();
                self.force = false;
                self.engine_side = self.s.game().position().side_to_move().opp();
            }
            "force" => {
                if !self.analyzing {
                    self.halt();
                }
                self.force = true;
            }
            "?" => {
                if self.s.thinking() && !self.s.pondering() && !self.analyzing {
                    self.s.stop_search();
                }
            }
            "draw" => self.draw_offered = true,
            "result" => {
                self.halt();
                self.game_over = true;
            }
            "undo" => self.take_back(1, cmd),
            "remove" => self.take_back(2, cmd),
            "level" => self.level(&mut w, line),
            "st" => match w.next_word().and_then(|t| parse_time(t, 1000)) {
                Some(ms) => self.st_ms = Some(ms.max(1)),
                None => self.err("st needs seconds", line),
            },
            "sd" => match w.next_word().and_then(parse_count) {
                Some(d) => self.sd = Some(d.clamp(1, crate::search::MAX_DEPTH as u64) as u32),
                None => self.err("sd needs a depth", line),
            },
            "time" => match w.next_word().and_then(|t| parse_time(t, 10)) {
                Some(ms) => self.own_ms = Some(ms),
                None => self.err("time needs centiseconds", line),
            },
            "post" => self.x.post.store(true, Ordering::SeqCst),
            "nopost" => self.x.post.store(false, Ordering::SeqCst),
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                self.cancel_ponder();
            }
            "analyze" => {
                self.cancel_ponder();
                self.analyzing = true;
                self.x.post.store(true, Ordering::SeqCst);
                self.analyze();
            }
            "exit" => {
                if self.analyzing {
                    self.s.abandon_search();
                    self.analyzing = false;
                }
            }
            _ if Move::parse(cmd).is_ok() && w.peek().is_none() => self.usermove(cmd),
            _ => match self.x.parse(line, self.s.options()) {
                Ok(c) => {
                    let restart = self.analyzing && matches!(c, Command::SetOption { .. });
                    match c {
                        Command::Quit => self.halt(),
                        Command::SetOption { .. } => self.halt_for_option(),
                        _ => self.cancel_ponder(),
                    }
                    let flow = self.s.execute(c);
                    if restart {
                        self.analyze();
                    }
                    return flow;
                }
                Err(_) => self.err("unknown command", cmd),
            },
        }
        Flow::Continue
    }

    /// Options change the engine, which must be idle: a ponder or analysis search is stopped
    /// (and restarted by the caller); our own thinking is left alone (the session refuses).
    fn halt_for_option(&mut self) {
        self.cancel_ponder();
        if self.analyzing {
            self.s.abandon_search();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_claims() {
        assert_eq!(cecp_score(Score::Cp(-35)), -35);
        assert_eq!(cecp_score(Score::Mate(3)), 100_003);
        assert_eq!(cecp_score(Score::Mate(-2)), -100_002);
    }

    #[test]
    fn what_is_claimed() {
        let game = |fen: &str, moves: &str| {
            let mut g = Game::new(Position::from_fen(fen).unwrap());
            for m in moves.split_whitespace() {
                g.play(Move::parse(m).unwrap()).unwrap();
            }
            g
        };
        let mated = "3k5/4r4/9/9/5r3/9/9/4K4/9/9 w - - 0 1";
        assert!(claimable(&game(mated, "")).is_some_and(|v| v.result == GameResult::BlackWins));
        let bare = "4k4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1";
        assert!(game(bare, "").verdict().is_some() && claimable(&game(bare, "")).is_none());
        assert!(claimable(&game(bare, "d0d1")).is_some_and(|v| v.result == GameResult::Draw));
        assert!(claimable(&Game::new(Position::startpos())).is_none());
        // A game from the XBoard match: Black's cannon attacks Red's rook (b7/b8) over a screen
        // on every move of a threefold cycle. The rules say Black loses; XBoard 4.9.1 called
        // that claim false, so it is not made.
        let chase = game(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "h2e2 b9c7 b2c2 c6c5 c3c4 c7d5 c4c5 d5f4 a0a1 f4e2 c0e2 g6g5 h0g2 h9g7 i0h0 h7h5 c5c6 b7b3 \
             h0h3 i9h9 a1b1 a9b9 c2c9 b9c9 b1b3 c9c6 b3b7 g7e8 h3h4 e8c7 d0e1 i6i5 a3a4 g9e7 b0a2 d9e8 \
             a2b4 c6c1 b4a6 c7d9 a6b4 d9c7 a4a5 e7c9 a5a6 h5h7 b7b8 h7h8 b8b7 h8h7 b7b8 h7h8 b8b7 h8h7",
        );
        assert_eq!(chase.verdict().map(|v| (v.rule, v.result)), Some((Rule::PerpetualChase, GameResult::RedWins)));
        assert!(claimable(&chase).is_none());
    }

    #[test]
    fn xboard_fens() {
        let xb = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4HC1/9/RHEAKAE1R b 7 12";
        assert_eq!(normalize_fen(xb), "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4HC1/9/RHEAKAE1R b - - 7 12");
        let p = Position::from_fen(&normalize_fen(xb)).unwrap();
        assert_eq!((p.halfmove_clock(), p.fullmove_number()), (7, 12));
        assert_eq!(normalize_fen("4k4/9/9/9/9/9/9/9/9/4K4  w - - 0 1"), "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
        assert_eq!(normalize_fen("4k4/9/9/9/9/9/9/9/9/4K4 w"), "4k4/9/9/9/9/9/9/9/9/4K4 w");
    }

    #[test]
    fn level_base() {
        assert_eq!(parse_base("5"), Some(300_000));
        assert_eq!(parse_base("0:30"), Some(30_000));
        assert_eq!(parse_base("1:05"), Some(65_000));
        assert_eq!(parse_base("x"), None);
        assert_eq!(parse_base("1:x"), None);
    }

    #[test]
    fn stateless_commands() {
        let x = Xboard::default();
        let o = Options::default();
        assert_eq!(
            x.parse("option MultiPV=3", &o),
            Ok(Command::SetOption { name: "MultiPV".into(), value: Some("3".into()) })
        );
        assert_eq!(x.parse("option Clear Hash", &o), Ok(Command::SetOption { name: "Clear Hash".into(), value: None }));
        assert_eq!(x.parse("memory 64", &o), Ok(Command::SetOption { name: "Hash".into(), value: Some("64".into()) }));
        assert!(x.parse("cores many", &o).is_err());
        assert!(x.parse("frobnicate", &o).is_err());
    }

    #[test]
    fn replies() {
        let x = Xboard::default();
        let m = Move::parse("h2e2").ok();
        assert_eq!(x.bestmove(&Decision { best: m, ponder: None, draw: false, resign: false }), "move h2e2");
        assert_eq!(x.bestmove(&Decision { best: m, ponder: None, draw: false, resign: true }), "resign");
        assert_eq!(x.bestmove(&Decision { best: None, ponder: None, draw: false, resign: false }), "");
        assert_eq!(x.error("setoption: no such option 'x'"), "Error (no such option 'x'): setoption");
        let hs = x.handshake();
        assert_eq!(hs.last().map(String::as_str), Some("feature done=1"));
        assert!(hs.iter().any(|l| l.contains("option=\"MultiPV -spin 1 1 ")));
        let i = Info {
            depth: 4,
            seldepth: 6,
            multipv: 1,
            score: Score::Cp(12),
            bound: crate::search::Bound::Exact,
            nodes: 999,
            nps: 0,
            time_ms: 1234,
            hashfull: 0,
            pv: vec![Move::parse("h2e2").unwrap(), Move::parse("h9g7").unwrap()],
        };
        assert_eq!(x.info(&i), "", "nopost by default");
        x.post.store(true, Ordering::SeqCst);
        assert_eq!(x.info(&i), "4 12 123 999 h2e2 h9g7");
    }
}
