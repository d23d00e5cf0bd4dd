//! The engine-driving state every dialect shares: the game (start position + moves), the
//! banned root moves, the options, and the running search.
//! The loop here blocks on one channel that brings the reader thread's lines and the end of
//! each search, so nothing it does waits on a search: `stop`, `ponderhit`, `isready`, `probe`
//! and `quit` act at once, and a search's end is settled as soon as it happens. The search
//! keeps its own clock (`Engine::hard_limit_ms`); the loop keeps none.
//! The opening book's choice (`books.rs`), the search's reports (`report.rs`) and the
//! diagnostic commands (`diagnostics.rs`) are further `impl Session` blocks beside this one.

mod books;
mod diagnostics;
mod driver;
mod report;

pub use diagnostics::{compiler_lines, MAX_PERFT_DEPTH};
use driver::LineLoop;
pub(crate) use driver::{drive, Driver, Flow};

use super::command::{Command, Go, PositionCmd, Start};
use super::options::{pruning_switches, Key, Options};
use super::policy::{self, Decision, History};
use super::{Dialect, Event, Input, Output, Replies};
use crate::board::zobrist::Rng;
use crate::board::{Color, Move, Position};
use crate::book::Books;
use crate::eval::{nnue::Network, Evaluator};
use crate::rules::Game;
use crate::search::{Engine, Limits, Score, SearchRequest, SearchResult};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};

struct Running {
    pos: Position,
    root: Vec<Move>,
    pondering: bool,
    stop_sent: bool,
    /// Set once the move is announced.
    done: Arc<AtomicBool>,
    /// Set when the search's result is no longer wanted (CECP): it reports nothing more.
    silent: Arc<AtomicBool>,
    /// Set when the search has ended, announced or not (`report::EndSignal`).
    ended: Arc<AtomicBool>,
}

/// One protocol session after the handshake word picked the dialect.
pub struct Session {
    replies: Arc<dyn Replies>,
    out: Output,
    /// The loop's channel: each search sends `Event::SearchEnded` into it when it ends.
    wake: Sender<Event>,
    engine: Engine,
    opts: Options,
    game: Game,
    banned: Vec<Move>,
    search: Option<Running>,
    history: Arc<Mutex<History>>,
    /// The last finished search's announcement, stored before its line is written (CECP
    /// applies the move to its game before it reads the GUI's next command).
    decision: Arc<Mutex<Option<Decision>>>,
    /// The opening books of `bookfiles` / `BookFile`, read when the option is set.
    books: Books,
    /// Chooses among book moves.
    book_rng: Rng,
    /// The net of `EvalFile` (`None`: the embedded net), read when the option is set.
    network: Option<Arc<Network>>,
}

impl Session {
    /// A session at the start position with default options; `wake` sends into the channel
    /// its loop reads.
    pub fn new(replies: Arc<dyn Replies>, out: Output, wake: Sender<Event>) -> Session {
        let opts = Options::default();
        let mut engine = Engine::new();
        // The default size always fits (else a note would have nowhere to go yet).
        let _ = engine.set_hash_mb(opts.hash_mb as usize);
        engine.set_threads(opts.threads as usize);
        engine.set_multipv(opts.multipv as usize);
        Session {
            replies,
            out,
            wake,
            engine,
            opts,
            game: Game::new(Position::startpos()),
            banned: Vec::new(),
            search: None,
            history: Arc::new(Mutex::new(History::default())),
            decision: Arc::new(Mutex::new(None)),
            books: Books::default(),
            book_rng: Rng::from_clock(),
            network: None,
        }
    }

    /// Sends the handshake, then runs the lines `dialect` parses until `quit` or end of input.
    pub fn run(self, dialect: &dyn Dialect, rx: &Receiver<Event>) {
        self.out.lines(&self.replies.handshake());
        drive(&mut LineLoop { s: self, dialect }, rx);
    }

    /// The next input, blocking until it comes; `None` when a search ended first (the caller
    /// settles it). In UCCI batch mode nothing is read while a search runs: input (even `stop`,
    /// `quit` and the end of input) stays queued until the search has announced its move.
    /// Only searches that end by themselves start in batch mode, so the wait ends.
    pub(crate) fn next_input(&mut self, rx: &Receiver<Event>) -> Option<Input> {
        if self.opts.batch && self.search.is_some() {
            self.engine.wait();
            self.announce_fallback();
            return None;
        }
        match rx.recv() {
            Ok(Event::Input(input)) => Some(input),
            Ok(Event::SearchEnded) => {
                self.check_ended();
                None
            }
            // The session holds a sender, so this does not happen.
            Err(_) => Some(Input::Eof),
        }
    }

    pub(crate) fn error(&self, msg: &str) {
        self.out.line(&self.replies.error(msg));
    }

    /// Reports a command's error; the loop goes on.
    fn refuse(&self, msg: &str) -> Flow {
        self.error(msg);
        Flow::Continue
    }

    /// Whether a search is running. A search reports `bestmove` and marks itself done under
    /// the output lock, so after the barrier "done" covers every move the GUI has seen.
    pub(crate) fn thinking(&self) -> bool {
        let running = |s: &Self| s.search.as_ref().is_some_and(|r| !r.done.load(Ordering::SeqCst));
        running(self) && {
            self.out.barrier();
            running(self)
        }
    }

    /// Joins a search that has reported its move.
    fn reap(&mut self) {
        if self.search.as_ref().is_some_and(|r| r.done.load(Ordering::SeqCst)) {
            self.engine.wait();
            self.search = None;
        }
    }

    /// A search that ended without announcing a move (its thread panicked) would leave the
    /// GUI waiting: announce a fallback move for it.
    fn check_ended(&mut self) {
        let Some(r) = &self.search else { return };
        if r.ended.load(Ordering::SeqCst) && !r.done.load(Ordering::SeqCst) {
            self.engine.wait();
            self.announce_fallback();
        }
    }

    /// Forgets a search that has ended: if it never announced a move, announce one (a root
    /// move; `nobestmove` / `bestmove (none)` if there is none) so the GUI never waits.
    fn announce_fallback(&mut self) {
        let Some(r) = self.search.take() else { return };
        if r.done.load(Ordering::SeqCst) {
            return;
        }
        let empty = SearchResult { best: None, ponder_move: None, score: Score::Cp(0), depth: 0, nodes: 0 };
        let d = policy::decide(&r.pos, &r.root, &empty, &[], &mut self.lock_history());
        let mut lines = vec![self.replies.error("the search ended without a move; playing a fallback")];
        lines.extend(self.replies.bestmove(&d));
        *self.decision.lock().unwrap_or_else(|e| e.into_inner()) = Some(d);
        self.out.final_lines(&lines, &r.done);
    }

    pub(crate) fn stop_search(&mut self) {
        if let Some(r) = &mut self.search {
            self.engine.stop();
            r.stop_sent = true;
        }
    }

    /// Stops any search and waits until it has reported.
    pub(crate) fn finish_search(&mut self) {
        if self.search.is_some() {
            self.stop_search();
            self.engine.wait();
            self.announce_fallback();
        }
    }

    /// Ok when idle, or when the search was told to stop (then waits for it).
    fn require_idle(&mut self, what: &str) -> Result<(), String> {
        if !self.thinking() {
            self.reap();
        }
        match &self.search {
            None => Ok(()),
            Some(r) if r.stop_sent => {
                self.finish_search();
                Ok(())
            }
            Some(_) => Err(format!("{what}: the engine is thinking; send stop first")),
        }
    }

    fn lock_history(&self) -> std::sync::MutexGuard<'_, History> {
        self.history.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn execute(&mut self, cmd: Command) -> Flow {
        let result = match cmd {
            Command::Empty => Ok(()),
            Command::Hello => {
                self.out.lines(&self.replies.handshake());
                Ok(())
            }
            Command::IsReady => {
                self.out.line("readyok");
                Ok(())
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => self.require_idle("new game").map(|()| self.new_game()),
            Command::Position(p) => self.build_game(&p, self.replies.pikafish_shapes()).map(|(g, note)| {
                self.game = g;
                self.banned.clear();
                if let Some(note) = note {
                    self.error(&note);
                }
            }),
            Command::BanMoves(moves) => self.ban(moves),
            Command::Go(go) => self.go(go),
            Command::Perft(depth) => self.perft(depth),
            Command::PonderHit { draw } => self.ponderhit(draw),
            Command::Stop => {
                if self.thinking() {
                    self.stop_search();
                } else if let Some(reply) = self.replies.stray_stop() {
                    self.out.line(&reply);
                }
                Ok(())
            }
            Command::Probe(p) => self.build_game(&p, false).map(|(g, _)| {
                if let Some(line) = self.replies.pophash(self.engine.probe(g.position()).as_ref()) {
                    self.out.line(&line);
                }
            }),
            Command::Display => {
                self.display();
                Ok(())
            }
            Command::Eval => {
                self.eval();
                Ok(())
            }
            Command::Flip => self
                .game
                .position()
                .flipped()
                .map(|p| self.set_game(Game::new(p)))
                .map_err(|e| format!("flip: the mirrored position cannot be played ({e}); position unchanged")),
            Command::Compiler => {
                self.out.lines(&compiler_lines());
                Ok(())
            }
            Command::Bench(args) => self.bench(args),
            Command::Quit => {
                self.finish_search();
                if let Some(bye) = self.replies.bye() {
                    self.out.line(&bye);
                }
                return Flow::Quit;
            }
        };
        if let Err(e) = result {
            self.error(&e);
        }
        Flow::Continue
    }

    pub(crate) fn new_game(&mut self) {
        self.engine.clear();
        *self.lock_history() = History::default();
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let set = self.replies.options();
        let Some(spec) = set.find(name) else {
            // Hidden options: the search's switches and parameters (`chuhe params`).
            if Engine::is_tunable(name) {
                self.require_idle("setoption")?;
                let value = value.ok_or_else(|| format!("setoption: {name} needs a value"))?;
                return self.engine.set_tunable(name, value).map_err(|e| format!("setoption: {e}"));
            }
            if set.unknown_is_error {
                return Err(format!("setoption: no such option '{}'", super::words::clip(name)));
            }
            return Ok(());
        };
        if spec.key.needs_idle() {
            self.require_idle("setoption")?;
        }
        // The book files are read now, so a bad file is reported once, here; a failure changes
        // nothing (the old books stay).
        let books = match spec.key {
            Key::BookFiles => {
                let list = value.map(str::trim).filter(|v| *v != super::options::EMPTY).unwrap_or("");
                Some(Books::load_list(list).map_err(|e| format!("setoption: {}: {e}", spec.name))?)
            }
            _ => None,
        };
        // So is the net file: a missing, damaged or foreign file keeps the current net.
        let network = match spec.key {
            Key::EvalFile => match value.map(str::trim).filter(|v| !v.is_empty() && *v != super::options::EMPTY) {
                None => Some(None),
                Some(path) => Some(Some(Arc::new(
                    Network::load(path)
                        .map_err(|e| format!("setoption: {}: {e}; the engine keeps its current net", spec.name))?,
                ))),
            },
            _ => None,
        };
        let applied = self.opts.apply(spec, value).map_err(|e| format!("setoption: {e}"))?;
        if let Some(books) = books {
            self.books = books;
        }
        if let Some(network) = network {
            self.network = network;
        }
        match applied.key {
            Key::Hash => {
                if let Some(note) = self.engine.set_hash_mb(self.opts.hash_mb as usize) {
                    self.out.line(&self.replies.message(&note));
                }
            }
            Key::Threads => {
                if let Some(note) = self.engine.set_threads(self.opts.threads as usize) {
                    self.out.line(&self.replies.message(&note));
                }
            }
            Key::MultiPv => self.engine.set_multipv(self.opts.multipv as usize),
            Key::ClearHash => self.new_game(),
            Key::Pruning => {
                for (switch, on) in pruning_switches(self.opts.pruning) {
                    self.engine.set_tunable(switch, if on { "true" } else { "false" })?;
                }
            }
            Key::SkillLevel | Key::LimitStrength | Key::Elo | Key::Randomness => {
                self.engine.set_strength(self.opts.strength())
            }
            Key::EvalFile | Key::UseNnue => self.engine.set_evaluator(self.evaluator()),
            // Read where they act (go, the loop, the replies), or kept without effect.
            _ => {}
        }
        self.replies.options_changed(&self.opts);
        if let Some(note) = applied.note {
            self.out.line(&self.replies.message(&note));
        }
        Ok(())
    }

    /// The game a `position`/`probe` command describes; an error changes nothing. With
    /// `keep_prefix` (UCI, as Pikafish and Stockfish have long done) a move that cannot be
    /// played ends the list instead: the game is the start and the moves before it, and the
    /// note says so. Clients rely on that: pikafish-terminal sends the current position's FEN
    /// followed by every move since the start. The note avoids the word "illegal", which
    /// that client takes for the end of a `go perft` answer.
    fn build_game(&self, p: &PositionCmd, keep_prefix: bool) -> Result<(Game, Option<String>), String> {
        let start = match &p.start {
            Start::StartPos => Position::startpos(),
            Start::Fen(f) => Position::from_fen(f).map_err(|e| format!("position: {e}; position unchanged"))?,
        };
        let mut game = Game::new(start);
        for (i, &m) in p.moves.iter().enumerate() {
            if game.play(m).is_err() {
                let (n, total) = (i + 1, p.moves.len());
                if keep_prefix {
                    let start = if matches!(p.start, Start::StartPos) { "start position" } else { "FEN" };
                    let note = format!(
                        "position: move '{m}' (move {n} of {total}) cannot be played there; the position is the \
                         {start} with the {i} moves before it"
                    );
                    return Ok((game, Some(note)));
                }
                return Err(format!("position: illegal move '{m}' (move {n} of {total}); position unchanged"));
            }
        }
        Ok((game, None))
    }

    fn ban(&mut self, moves: Vec<Move>) -> Result<(), String> {
        let pos = self.game.position();
        if let Some((i, m)) = moves.iter().enumerate().find(|(_, &m)| !pos.is_legal(m)) {
            return Err(format!("banmoves: illegal move '{m}' (move {}); banned moves unchanged", i + 1));
        }
        self.banned = moves;
        Ok(())
    }

    pub(crate) fn go(&mut self, go: Go) -> Result<(), String> {
        self.require_idle("go")?;
        if self.opts.batch && (go.infinite || go.pondering) {
            return Err("go: in batch mode a search must end by itself: give depth, nodes or time, \
                        without ponder or infinite"
                .to_string());
        }
        let pos = self.game.position().clone();
        let legal = pos.legal_moves();
        if let Some((i, m)) = go.searchmoves.iter().enumerate().find(|(_, m)| !legal.contains(m)) {
            return Err(format!("go: searchmoves move '{m}' (move {}) is not legal here", i + 1));
        }
        for note in &go.notes {
            self.out.line(&self.replies.message(note));
        }
        let root: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !self.banned.contains(m) && (go.searchmoves.is_empty() || go.searchmoves.contains(m)))
            .collect();
        let mut history = self.lock_history();
        history.draw_offered = go.draw_offer;
        if root.is_empty() {
            history.draw_offered = false;
            drop(history);
            let d = Decision { best: None, ponder_move: None, draw: false, resign: false };
            let mut lines = if legal.is_empty() { self.replies.no_legal_move() } else { Vec::new() };
            lines.extend(self.replies.bestmove(&d));
            self.out.lines(&lines);
            return Ok(());
        }
        drop(history);
        if go.wants_book() && self.book_on() {
            if let Some((b, total)) = self.book_choice(&pos, &root) {
                self.play_book_move(b, total);
                return Ok(());
            }
        }
        let side = if pos.side_to_move() == Color::Red { 0 } else { 1 };
        let limits = Limits {
            depth: go.depth.map(|d| d.clamp(1, crate::search::MAX_DEPTH)),
            nodes: go.nodes.map(|n| n.max(1)),
            movetime_ms: go.movetime_ms,
            time_ms: go.own_time_ms.or(go.side_time_ms[side]),
            inc_ms: go.own_inc_ms.or(go.side_inc_ms[side]).unwrap_or(0),
            movestogo: go.movestogo.filter(|&m| m > 0),
            mate: go.mate.filter(|&m| m > 0),
            infinite: go.infinite,
            pondering: go.pondering,
            move_overhead_ms: self.opts.move_overhead_ms,
        };
        if self.opts.debug {
            self.out.line(&self.replies.message(&self.debug_go(root.len(), &limits)));
        }
        let (done, silent, ended): (Arc<AtomicBool>, Arc<AtomicBool>, Arc<AtomicBool>) = Default::default();
        let report = self.reporter(pos.clone(), root.clone(), done.clone(), silent.clone(), ended.clone());
        let restrict: &[Move] = if root.len() == legal.len() { &[] } else { &root };
        let request = SearchRequest::new(self.game.start(), self.game.moves(), limits).restricted_to(restrict);
        self.engine.start(request, report);
        self.search = Some(Running { pos, root, pondering: go.pondering, stop_sent: false, done, silent, ended });
        Ok(())
    }

    pub(crate) fn ponderhit(&mut self, draw: bool) -> Result<(), String> {
        let thinking = self.thinking();
        let Some(r) = self.search.as_mut().filter(|r| thinking && r.pondering) else {
            return Err("ponderhit: not pondering".to_string());
        };
        if draw {
            self.history.lock().unwrap_or_else(|e| e.into_inner()).draw_offered = true;
        }
        r.pondering = false;
        self.engine.ponderhit();
        Ok(())
    }

    // Hooks for the stateful CECP loop (`xboard/state.rs`), which drives the session itself.

    /// The game searched by `go`.
    pub(crate) fn game(&self) -> &Game {
        &self.game
    }

    /// Replaces the game (call while idle); banned moves are cleared.
    pub(crate) fn set_game(&mut self, game: Game) {
        self.game = game;
        self.banned.clear();
    }

    /// The reply channel.
    pub(crate) fn out(&self) -> &Output {
        &self.out
    }

    /// Whether a ponder search is running that has not had its `ponderhit`.
    pub(crate) fn pondering(&self) -> bool {
        self.thinking() && self.search.as_ref().is_some_and(|r| r.pondering)
    }

    /// Stops the running search, if any, and throws its result away: nothing more is reported.
    pub(crate) fn abandon_search(&mut self) {
        if let Some(r) = &self.search {
            r.silent.store(true, Ordering::SeqCst);
        }
        self.finish_search();
        *self.decision.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// The announcement of a search that finished since the last call (joined first). Every
    /// announced move is returned once, also one announced while the session was waiting for
    /// the search itself (`finish_search`, the dead-thread fallback).
    pub(crate) fn take_finished(&mut self) -> Option<Decision> {
        let done = |s: &Self| s.search.as_ref().is_none_or(|r| r.done.load(Ordering::SeqCst));
        if !done(self)
            && !{
                self.out.barrier();
                done(self)
            }
        {
            return None;
        }
        if self.search.take().is_some() {
            self.engine.wait();
        }
        self.decision.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// The net `EvalFile` names (or the embedded one).
    fn current_network(&self) -> Arc<Network> {
        self.network.clone().unwrap_or_else(|| crate::eval::nnue::DEFAULT.clone())
    }

    /// The evaluation the options ask for.
    fn evaluator(&self) -> Evaluator {
        if self.opts.use_nnue {
            Evaluator::Network(self.current_network())
        } else {
            Evaluator::Hand
        }
    }
}

#[cfg(test)]
mod tests;
