//! The engine-driving state every dialect shares: the game (start position + moves), the
//! banned root moves, the options, and the running search with its time-limit watchdog.
//! The loop here reads typed commands from the reader thread's channel, so nothing it does
//! waits on a search: `stop`, `ponderhit`, `isready`, `probe` and `quit` act at once.

use super::command::{BenchArgs, Command, Go, PositionCmd, Start};
use super::options::{pruning_switches, Key, Options};
use super::policy::{self, Decision, History};
use super::{Dialect, Input, Output, Replies};
use crate::board::zobrist::Rng;
use crate::board::{Color, Move, Position};
use crate::book::{self, BookMove, Books};
use crate::eval::{self, nnue::Network, Evaluator};
use crate::lines::recv_until;
use crate::perft::divide;
use crate::rules::Game;
use crate::search::{Engine, Limits, Report, Score, SearchRequest, SearchResult};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Largest `go perft` depth (perft runs on the loop's thread; 6 plies take about a minute).
pub const MAX_PERFT_DEPTH: u32 = 6;
/// `currmove` reports start after this much thinking.
pub const CURRMOVE_AFTER: Duration = Duration::from_secs(1);
/// While a search runs the loop also wakes this often to check the search is still alive.
pub const POLL: Duration = Duration::from_millis(250);
/// In UCCI batch mode the loop reads nothing while a search runs; it looks this often for
/// the search's end, so the next queued command follows promptly.
pub const BATCH_POLL: Duration = Duration::from_millis(5);

/// The hard time cap the loop enforces on a timed search (a safety net under the search's own
/// time management): `movetime` itself; with a clock, half of what is left after the move
/// overhead (90% when this is the last move before the time control).
pub fn hard_limit_ms(l: &Limits) -> Option<u64> {
    let clock = l.time_ms.map(|t| {
        let usable = t.saturating_sub(l.move_overhead_ms);
        if l.movestogo == Some(1) {
            usable / 10 * 9
        } else {
            usable / 2
        }
    });
    match (l.movetime_ms, clock) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

struct Running {
    pos: Position,
    root: Vec<Move>,
    dead_polls: u32,
    limits: Limits,
    pondering: bool,
    deadline: Option<Instant>,
    stop_sent: bool,
    done: Arc<AtomicBool>,
    /// Set when the search's result is no longer wanted (CECP): it reports nothing more.
    silent: Arc<AtomicBool>,
}

/// Whether the loop goes on after a command.
pub(crate) enum Flow {
    /// Keep reading commands.
    Continue,
    /// Leave the loop.
    Quit,
}

/// A protocol state machine over a [`Session`]. [`drive`] runs it: one loop for every dialect.
pub(crate) trait Driver {
    /// The session underneath.
    fn session(&mut self) -> &mut Session;
    /// The longest wait for input while a search runs.
    fn poll(&self) -> Duration;
    /// Deals with a search that has finished; called before each wait and after each input.
    fn settle(&mut self);
    /// Handles one line.
    fn handle(&mut self, line: &str) -> Flow;
    /// The input ended.
    fn end_of_input(&mut self);
}

/// Runs `d` on the lines of `rx` until it quits or the input ends.
pub(crate) fn drive(d: &mut impl Driver, rx: &Receiver<Input>) {
    loop {
        d.settle();
        let poll = d.poll();
        let Some(input) = d.session().next_input(rx, poll) else { continue };
        let Input::Line(line) = input else { return d.end_of_input() };
        d.settle();
        if let Flow::Quit = d.handle(&line) {
            return;
        }
    }
}

/// UCCI and UCI: each line one shared command, executed by the session itself.
struct LineLoop<'a> {
    s: Session,
    dialect: &'a dyn Dialect,
}

impl Driver for LineLoop<'_> {
    fn session(&mut self) -> &mut Session {
        &mut self.s
    }

    fn poll(&self) -> Duration {
        POLL
    }

    fn settle(&mut self) {
        self.s.reap();
    }

    fn handle(&mut self, line: &str) -> Flow {
        match self.dialect.parse(line, &self.s.opts) {
            Ok(cmd) => self.s.execute(cmd),
            Err(e) => self.s.refuse(&e),
        }
    }

    /// A running search is stopped and announced.
    fn end_of_input(&mut self) {
        self.s.finish_search();
    }
}

/// One protocol session after the handshake word picked the dialect.
pub struct Session {
    replies: Arc<dyn Replies>,
    out: Output,
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
    /// A session at the start position with default options.
    pub fn new(replies: Arc<dyn Replies>, out: Output) -> Session {
        let opts = Options::default();
        let mut engine = Engine::new();
        // The default size always fits (else a note would have nowhere to go yet).
        let _ = engine.set_hash_mb(opts.hash_mb as usize);
        engine.set_threads(opts.threads as usize);
        engine.set_multipv(opts.multipv as usize);
        Session {
            replies,
            out,
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
    pub fn run(self, dialect: &dyn Dialect, rx: &Receiver<Input>) {
        self.out.lines(&self.replies.handshake());
        drive(&mut LineLoop { s: self, dialect }, rx);
    }

    /// The next input. While a search runs this is also the watchdog: it stops a search past
    /// its hard deadline, waits at most `poll` (so the caller can look at a finished search),
    /// and notices a search thread that died. `None`: nothing arrived yet.
    pub(crate) fn next_input(&mut self, rx: &Receiver<Input>, poll: Duration) -> Option<Input> {
        let Some(r) = &self.search else { return recv_until(rx, None) };
        let now = Instant::now();
        if r.deadline.is_some_and(|d| now >= d) {
            if self.opts.debug {
                self.out.line(&self.replies.message("debug: the hard time cap has passed; stopping the search"));
            }
            self.stop_search();
            return None;
        }
        if self.opts.batch {
            // UCCI batch mode: input (even `stop`, `quit` and the end of input) stays queued in
            // the reader's channel until the search has announced its move. Only searches that
            // end by themselves start in batch mode, so the wait ends.
            let wake = r.deadline.map_or(now + BATCH_POLL, |d| d.min(now + BATCH_POLL));
            std::thread::sleep(wake.saturating_duration_since(now));
            self.check_alive();
            return None;
        }
        let wake = r.deadline.map_or(now + poll, |d| d.min(now + poll));
        let input = recv_until(rx, Some(wake));
        if input.is_none() {
            self.check_alive();
        }
        input
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

    /// A search that is no longer running yet never reported (its thread died) would leave
    /// the GUI waiting: after two polls in that state, announce a fallback move ourselves.
    fn check_alive(&mut self) {
        let searching = self.engine.is_searching();
        let Some(r) = self.search.as_mut() else { return };
        if searching || r.done.load(Ordering::SeqCst) {
            r.dead_polls = 0;
            return;
        }
        r.dead_polls += 1;
        if r.dead_polls < 2 {
            return;
        }
        self.engine.wait();
        self.announce_fallback();
    }

    /// Ends a search whose thread is gone: if it never announced a move, announce one
    /// (a root move; `nobestmove` / `bestmove (none)` if there is none) so the GUI never waits.
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
            r.deadline = None;
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
                return Err(format!("setoption: no such option '{}'", super::command::clip(name)));
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
            Key::Threads => self.engine.set_threads(self.opts.threads as usize),
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
        let done = Arc::new(AtomicBool::new(false));
        let silent = Arc::new(AtomicBool::new(false));
        let report = self.reporter(pos.clone(), root.clone(), done.clone(), silent.clone());
        let restrict: &[Move] = if root.len() == legal.len() { &[] } else { &root };
        let started = Instant::now();
        let request = SearchRequest::new(self.game.start(), self.game.moves(), limits.clone()).restricted_to(restrict);
        self.engine.start(request, report);
        let deadline =
            if go.pondering { None } else { hard_limit_ms(&limits).map(|ms| started + Duration::from_millis(ms)) };
        self.search = Some(Running {
            pos,
            root,
            dead_polls: 0,
            limits,
            pondering: go.pondering,
            deadline,
            stop_sent: false,
            done,
            silent,
        });
        Ok(())
    }

    /// Whether the dialect's book switch is on (UCCI `usebook`, UCI and CECP `OwnBook`).
    fn book_on(&self) -> bool {
        if self.replies.options().has(Key::OwnBook) {
            self.opts.own_book
        } else {
            self.opts.use_book
        }
    }

    /// A book move for `pos` among the moves allowed at the root (legal, not banned, in
    /// `searchmoves`), chosen at random by weight, with the weight of all those moves.
    fn book_choice(&mut self, pos: &Position, root: &[Move]) -> Option<(BookMove, u64)> {
        let mut moves = self.books.moves(pos);
        moves.retain(|b| root.contains(&b.mv));
        let total = book::total_weight(&moves);
        book::pick(&moves, self.book_rng.next_u64()).map(|b| (b, total))
    }

    /// Announces a book move at once, as a finished search would (CECP then plays it).
    fn play_book_move(&mut self, b: BookMove, total: u64) {
        self.lock_history().draw_offered = false;
        let d = Decision { best: Some(b.mv), ponder_move: None, draw: false, resign: false };
        let mut lines = vec![self.replies.message(&format!("book move {} (weight {} of {total})", b.mv, b.weight))];
        lines.extend(self.replies.bestmove(&d));
        *self.decision.lock().unwrap_or_else(|e| e.into_inner()) = Some(d);
        self.out.lines(&lines);
    }

    /// CECP `bk`: the book moves of the current position with their weights and shares, each
    /// line tab-indented, then a blank line.
    pub(crate) fn book_listing(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.books.is_empty() {
            lines.push("\tno opening book".to_string());
        } else {
            let moves = self.books.moves(self.game.position());
            let total = book::total_weight(&moves).max(1);
            if moves.is_empty() {
                lines.push("\tno book moves for this position".to_string());
            }
            for b in &moves {
                let share = 100.0 * f64::from(b.weight) / total as f64;
                lines.push(format!("\t{} weight {} ({share:.1}%)", b.mv, b.weight));
            }
        }
        lines.push(String::new());
        lines
    }

    /// UCCI `debug`'s line at `go`: what is searched, with which limits and settings.
    fn debug_go(&self, root_moves: usize, l: &Limits) -> String {
        let mut parts = Vec::new();
        let mut add = |what: &str, v: Option<u64>, unit: &str| {
            if let Some(v) = v {
                parts.push(format!("{what} {v}{unit}"));
            }
        };
        add("depth", l.depth.map(u64::from), "");
        add("nodes", l.nodes, "");
        add("movetime", l.movetime_ms, " ms");
        add("time", l.time_ms, " ms");
        add("increment", l.time_ms.map(|_| l.inc_ms), " ms");
        add("movestogo", l.movestogo.map(u64::from), "");
        add("hard cap", hard_limit_ms(l), " ms");
        if l.pondering {
            parts.push("pondering".to_string());
        }
        if l.infinite || parts.is_empty() {
            parts.push("until stop".to_string());
        }
        let o = &self.opts;
        format!(
            "debug: go: {root_moves} root moves; {}; threads {}, hash {} MB, pruning {}, move overhead {} ms",
            parts.join(", "),
            o.threads,
            self.engine.hash_mb(),
            o.pruning,
            o.move_overhead_ms
        )
    }

    /// The callback the search thread reports through: info lines, then the move (with
    /// `debug`, after a line on the search's result and the draw/resign policy's inputs).
    fn reporter(
        &self,
        pos: Position,
        root: Vec<Move>,
        done: Arc<AtomicBool>,
        silent: Arc<AtomicBool>,
    ) -> impl FnMut(Report) + Send + 'static {
        let (out, replies, history) = (self.out.clone(), self.replies.clone(), self.history.clone());
        let decision = self.decision.clone();
        let debug = self.opts.debug;
        let started = Instant::now();
        let mut last_pv: Vec<Move> = Vec::new();
        move |r: Report| {
            if done.load(Ordering::SeqCst) || silent.load(Ordering::SeqCst) {
                done.store(true, Ordering::SeqCst);
                return;
            }
            match r {
                Report::Pv(info) => {
                    if info.multipv <= 1 && !info.pv.is_empty() {
                        last_pv.clone_from(&info.pv);
                    }
                    if let Some(line) = replies.info(&info) {
                        out.line(&line);
                    }
                }
                Report::CurrMove { depth, mv, number } => {
                    if started.elapsed() < CURRMOVE_AFTER {
                        return;
                    }
                    if let Some(line) = replies.currmove(depth, mv, number) {
                        out.line(&line);
                    }
                }
                Report::Done(res) => {
                    let mut lines = Vec::new();
                    let d: Decision = {
                        let mut h = history.lock().unwrap_or_else(|e| e.into_inner());
                        let offered = h.draw_offered;
                        let d = policy::decide(&pos, &root, &res, &last_pv, &mut h);
                        if debug {
                            let score = match res.score {
                                Score::Cp(cp) => format!("cp {cp}"),
                                Score::Mate(n) => format!("mate {n}"),
                            };
                            lines.push(replies.message(&format!(
                                "debug: search done: depth {}, score {score}, {} nodes; draw offered {offered}, \
                                 hopeless searches in a row {}",
                                res.depth, res.nodes, h.hopeless_streak
                            )));
                        }
                        d
                    };
                    lines.extend(replies.bestmove(&d));
                    *decision.lock().unwrap_or_else(|e| e.into_inner()) = Some(d);
                    out.final_lines(&lines, &done);
                }
            }
        }
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
        r.deadline = hard_limit_ms(&r.limits).map(|ms| Instant::now() + Duration::from_millis(ms));
        self.engine.ponderhit();
        Ok(())
    }

    // Hooks for the stateful CECP loop (`xboard.rs`), which drives the session itself.

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

    fn perft(&mut self, depth: u32) -> Result<(), String> {
        if depth > MAX_PERFT_DEPTH {
            return Err(format!("perft: depth {depth} too large (at most {MAX_PERFT_DEPTH})"));
        }
        self.require_idle("perft")?;
        let mut pos = self.game.position().clone();
        let t = Instant::now();
        let mut lines = Vec::new();
        let mut total = 1;
        if depth > 0 {
            let split = divide(&mut pos, depth);
            total = split.iter().map(|x| x.1).sum();
            lines.extend(split.iter().map(|(m, n)| format!("{m}: {n}")));
        }
        let ms = t.elapsed().as_millis() as u64;
        let nps = total * 1000 / ms.max(1);
        if self.replies.pikafish_shapes() {
            // Pikafish: a blank line, the total, a blank line; the time after, for people.
            lines.extend(["".to_string(), format!("Nodes searched: {total}"), "".to_string()]);
            lines.push(self.replies.message(&format!("perft depth {depth} time {ms} ms nps {nps}")));
        } else {
            lines.push(format!("nodes {total} time {ms} nps {nps}"));
        }
        self.out.lines(&lines);
        Ok(())
    }

    /// `bench`: the search of `chuhe bench` with the session's evaluation, one `info string`
    /// per position, then Pikafish's closing block. Runs on the loop's thread.
    fn bench(&mut self, a: BenchArgs) -> Result<(), String> {
        self.require_idle("bench")?;
        let setup = crate::cli::bench_cmd::Setup {
            depth: a.depth,
            hash_mb: a.hash_mb as usize,
            threads: a.threads as usize,
            evaluator: self.evaluator(),
        };
        let count = crate::cli::bench_cmd::POSITIONS.len();
        let (out, replies) = (self.out.clone(), self.replies.clone());
        let (nodes, ms) = crate::cli::bench_cmd::bench(&setup, |i, _, r, ms| {
            let best = r.best.map_or("(none)".to_string(), |m| m.to_string());
            out.line(&replies.message(&format!(
                "bench position {}/{count} depth {} nodes {} time {ms} bestmove {best}",
                i + 1,
                a.depth,
                r.nodes
            )));
        })?;
        self.out.lines(&crate::cli::bench_cmd::closing_block(nodes, ms));
        Ok(())
    }

    fn display(&self) {
        if self.replies.pikafish_shapes() {
            return self.display_pikafish();
        }
        let pos = self.game.position();
        let mut lines: Vec<String> = pos.pretty().lines().map(str::to_string).collect();
        lines.push(format!("fen {}", pos.to_fen()));
        lines.push(format!("key {:016x}", pos.key()));
        lines.push(format!(
            "side to move {}{}",
            pos.side_to_move().name(),
            if pos.in_check() { " (in check)" } else { "" }
        ));
        lines.push(format!("moves since the FEN {}", self.game.moves().len()));
        let banned: Vec<String> = self.banned.iter().map(Move::to_string).collect();
        lines.push(format!("banmoves {}", if banned.is_empty() { "(none)".to_string() } else { banned.join(" ") }));
        self.out.lines(&lines);
    }

    /// `d` in Pikafish's shape: the board in a grid, `Fen:`, `Key:`, `Checkers:`; then the
    /// side to move and the moves since the FEN as an `info string`.
    fn display_pikafish(&self) {
        let pos = self.game.position();
        const RULE: &str = " +---+---+---+---+---+---+---+---+---+";
        let mut lines = vec![String::new(), RULE.to_string()];
        for r in (0..10u8).rev() {
            let mut row = String::new();
            for f in 0..9u8 {
                row.push_str(" | ");
                row.push(pos.piece_at(crate::board::Square::new(f, r)).map_or(' ', |p| p.letter()));
            }
            lines.push(format!("{row} | {r}"));
            lines.push(RULE.to_string());
        }
        lines.push("   a   b   c   d   e   f   g   h   i".to_string());
        lines.push(String::new());
        lines.push(format!("Fen: {}", pos.to_fen()));
        lines.push(format!("Key: {:016X}", pos.key()));
        let checkers: Vec<String> = pos.checkers().iter().map(|s| s.to_string()).collect();
        lines.push(format!("Checkers: {}", checkers.join(" ")));
        lines.push(self.replies.message(&format!(
            "side to move {}{}, moves since the FEN {}",
            pos.side_to_move().name(),
            if pos.in_check() { " (in check)" } else { "" },
            self.game.moves().len()
        )));
        self.out.lines(&lines);
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

    fn eval(&self) {
        let pos = self.game.position();
        let mut head = Vec::new();
        if self.replies.pikafish_shapes() {
            // Pikafish's closing lines, in pawns from Red's side (its "white side").
            let red = |v: i32| if pos.side_to_move() == Color::Red { v } else { -v };
            let pawns = |v: i32| format!("{:+.2}", f64::from(red(v)) / 100.0);
            head.push(String::new());
            if pos.in_check() {
                head.push("Final evaluation: none (in check)".to_string());
            } else {
                let net = self.current_network().evaluate_position(pos);
                let (used, which) =
                    if self.opts.use_nnue { (net, "network") } else { (eval::evaluate(pos), "hand-written") };
                head.push(format!("NNUE evaluation        {} (red side)", pawns(net)));
                head.push(format!("Final evaluation       {} (red side) [{which} evaluation]", pawns(used)));
            }
        }
        let terms = eval::breakdown(pos);
        let mut lines: Vec<String> =
            terms.iter().map(|t| format!("{:<16} {:+} (Red minus Black)", t.name, t.red_minus_black)).collect();
        let red: i32 = terms.iter().map(|t| t.red_minus_black).sum();
        lines.push(format!("{:<16} {red:+} (Red's view)", "total"));
        lines.push(format!(
            "{:<16} {:+} ({}'s view, side to move)",
            "evaluate",
            eval::evaluate(pos),
            pos.side_to_move().name()
        ));
        let net = self.current_network();
        lines.push(format!(
            "{:<16} {:+} ({}'s view; net {:016x} '{}', {}; {} inference)",
            "network",
            net.evaluate_position(pos),
            pos.side_to_move().name(),
            net.checksum(),
            net.description(),
            if self.opts.eval_file.is_empty() { "embedded".to_string() } else { self.opts.eval_file.clone() },
            Network::simd_path()
        ));
        lines.push(format!(
            "{:<16} {}",
            "in use",
            if self.opts.use_nnue { "network (UseNNUE on)" } else { "hand-written (UseNNUE off)" }
        ));
        if !head.is_empty() {
            // After Pikafish's lines Chuhe's own come as info strings, which UCI tools skip.
            lines = head.into_iter().chain(lines.iter().map(|l| self.replies.message(&format!("eval {l}")))).collect();
        }
        self.out.lines(&lines);
    }
}

/// `compiler`: how the binary was built, in Pikafish's four labelled lines between blank
/// lines (the build script records the compiler's version, the target and the profile).
pub fn compiler_lines() -> Vec<String> {
    let version = option_env!("CHUHE_RUSTC_VERSION").unwrap_or("rustc (version unknown)");
    let short: Vec<&str> = version.split_whitespace().take(2).collect();
    let os = match std::env::consts::OS {
        "linux" => "Linux",
        "macos" => "Apple",
        "windows" => "Microsoft Windows",
        other => other,
    };
    let mut settings = format!(
        "{}bit {} (opt-level {})",
        usize::BITS,
        option_env!("CHUHE_PROFILE").unwrap_or(if cfg!(debug_assertions) { "debug" } else { "release" }),
        option_env!("CHUHE_OPT_LEVEL").unwrap_or("?")
    );
    for (on, name) in [
        (cfg!(target_feature = "avx2"), " AVX2"),
        (cfg!(target_feature = "sse4.1"), " SSE41"),
        (cfg!(target_feature = "sse2"), " SSE2"),
        (cfg!(target_feature = "neon"), " NEON"),
        (cfg!(target_feature = "popcnt"), " POPCNT"),
    ] {
        if on {
            settings.push_str(name);
        }
    }
    settings.push_str(&format!("; network inference chosen at run time: {}", Network::simd_path()));
    let target = option_env!("CHUHE_TARGET").unwrap_or(std::env::consts::ARCH);
    vec![
        String::new(),
        format!("Compiled by                : {} on {os}", short.join(" ")),
        format!("Compilation architecture   : {target}"),
        format!("Compilation settings       : {settings}"),
        format!("Compiler __VERSION__ macro : {version}"),
        String::new(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// An output that keeps what was written.
    #[derive(Clone, Default)]
    struct Capture(Arc<Mutex<Vec<u8>>>);

    impl Write for Capture {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_search_that_died_silently_still_gets_a_move() {
        let cap = Capture::default();
        let mut s = Session::new(Arc::new(super::super::uci::Uci::default()), Output::new(cap.clone()));
        let pos = Position::startpos();
        let root = pos.legal_moves().to_vec();
        let done = Arc::new(AtomicBool::new(false));
        // A "search" with no thread behind it, as if its thread had panicked.
        s.search = Some(Running {
            pos,
            root: root.clone(),
            dead_polls: 0,
            limits: Limits::default(),
            pondering: false,
            deadline: None,
            stop_sent: false,
            done: done.clone(),
            silent: Arc::default(),
        });
        s.check_alive();
        assert!(cap.0.lock().unwrap().is_empty(), "one poll is not enough");
        s.check_alive();
        let text = String::from_utf8(cap.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text,
            format!("info string error: the search ended without a move; playing a fallback\nbestmove {}\n", root[0])
        );
        assert!(s.search.is_none() && done.load(Ordering::SeqCst));
        // A search that did report is not announced twice.
        let done = Arc::new(AtomicBool::new(true));
        s.search = Some(Running {
            pos: Position::startpos(),
            root,
            dead_polls: 0,
            limits: Limits::default(),
            pondering: false,
            deadline: None,
            stop_sent: true,
            done,
            silent: Arc::default(),
        });
        let before = cap.0.lock().unwrap().len();
        s.finish_search();
        assert_eq!(cap.0.lock().unwrap().len(), before);
    }

    #[test]
    fn cecp_hooks_return_each_announced_move_once() {
        let cap = Capture::default();
        let mut s = Session::new(Arc::new(super::super::uci::Uci::default()), Output::new(cap.clone()));
        let root = Position::startpos().legal_moves().to_vec();
        // A real search, stopped: its move is announced and handed over exactly once.
        s.go(Go { infinite: true, ..Go::default() }).unwrap();
        assert!(s.thinking() && s.take_finished().is_none());
        s.stop_search();
        let d = loop {
            if let Some(d) = s.take_finished() {
                break d;
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        assert!(d.best.is_some_and(|m| root.contains(&m)));
        assert!(s.take_finished().is_none() && !s.thinking());
        // An abandoned search reports nothing and hands nothing over.
        s.go(Go { infinite: true, ..Go::default() }).unwrap();
        let before = cap.0.lock().unwrap().len();
        s.abandon_search();
        assert!(s.take_finished().is_none() && !s.thinking());
        let after = String::from_utf8(cap.0.lock().unwrap()[before..].to_vec()).unwrap();
        assert!(!after.contains("bestmove"), "{after}");
    }

    #[test]
    fn hard_limits() {
        let mut l = Limits { time_ms: Some(10_000), move_overhead_ms: 30, ..Default::default() };
        assert_eq!(hard_limit_ms(&l), Some(4985));
        l.movestogo = Some(1);
        assert_eq!(hard_limit_ms(&l), Some(8973));
        l.movetime_ms = Some(100);
        assert_eq!(hard_limit_ms(&l), Some(100));
        l.time_ms = Some(10);
        assert_eq!(hard_limit_ms(&l), Some(0));
        assert_eq!(hard_limit_ms(&Limits::default()), None);
    }
}
