//! One game between two engines: clocks, the request to move (each dialect words it), move checking and
//! every way a game can end (rules verdict, illegal move, crash, stall, time forfeit,
//! resignation, agreed draw, score adjudication).
//!
//! Draw offers (UCCI): `bestmove m draw` offers a draw and `m` is played; the opponent's next
//! `go` carries `draw`, and if its `bestmove` also carries `draw` the draw is agreed (that move
//! is not played). An offer lapses after one reply. `bestmove m resign` resigns (`m` not played).

use super::engine::{Ask, Change, EngineConfig, EngineProcess, Eval, Failure, Limit, Reply, SideClock, STOP_GRACE};
use super::openings::Opening;
use crate::board::{Color, Move, Position};
use crate::rules::{Game, GameResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Score-based resignation: a side whose engine scores at most `-score` on `movecount`
/// consecutive moves of its own loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves.
    pub movecount: u32,
    /// Score threshold in centipawns.
    pub score: i32,
}

/// Score-based draw: from full move `movenumber` on, both engines score within ±`score` for
/// `movecount` consecutive moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// First full move at which the rule applies.
    pub movenumber: u32,
    /// Consecutive moves of each side.
    pub movecount: u32,
    /// Score threshold in centipawns.
    pub score: i32,
}

/// Optional score adjudication.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Resign rule.
    pub resign: Option<ResignRule>,
    /// Draw rule.
    pub draw: Option<DrawRule>,
}

/// How a game ended, for the PGN `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules of the game (mate, stalemate, repetition, move limit, material).
    Rules,
    /// Resignation or agreed draw.
    Agreement,
    /// Score adjudication.
    Adjudication,
    /// Time forfeit.
    TimeForfeit,
    /// Illegal or missing move.
    IllegalMove,
    /// The engine crashed or exited.
    Disconnect,
    /// The engine stopped answering.
    Stall,
    /// Not finished (a game saved while it goes on): the result is written `*`.
    Unterminated,
}

impl Termination {
    /// The PGN `Termination` value (cutechess-cli's words).
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Rules | Termination::Agreement => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Disconnect => "abandoned",
            Termination::Stall => "stalled connection",
            Termination::Unterminated => "unterminated",
        }
    }

    /// The termination a PGN `Termination` value names (`normal` reads as [`Termination::Rules`]).
    pub fn from_pgn(text: &str) -> Option<Termination> {
        [
            Termination::Rules,
            Termination::Adjudication,
            Termination::TimeForfeit,
            Termination::IllegalMove,
            Termination::Disconnect,
            Termination::Stall,
            Termination::Unterminated,
        ]
        .into_iter()
        .find(|t| t.pgn().eq_ignore_ascii_case(text.trim()))
    }
}

/// What an engine said about one of its moves, for the PGN comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// Its last score, from its side.
    pub eval: Option<Eval>,
    /// The depth of that score.
    pub depth: Option<u32>,
    /// Milliseconds it took.
    pub ms: u64,
    /// The runner's `latency=`, charged to its clock on top of `ms`.
    pub latency_ms: u64,
    /// CPU milliseconds its process used meanwhile, where known.
    pub cpu_ms: Option<u64>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Position the record starts from.
    pub start: Position,
    /// Whether `start` is the standard start position.
    pub standard: bool,
    /// All moves, opening moves included.
    pub moves: Vec<Move>,
    /// Per move, what its engine said (`None` for opening moves).
    pub thinking: Vec<Option<Thinking>>,
    /// The result.
    pub result: GameResult,
    /// One-line reason, e.g. `Black makes an illegal move: h2h9`.
    pub reason: String,
    /// Kind of ending.
    pub termination: Termination,
}

/// An engine configuration with its process, started on demand and dropped after a failure.
pub struct Seat {
    /// Configuration.
    pub cfg: EngineConfig,
    /// The running process, if any.
    pub process: Option<EngineProcess>,
    /// `-soak`: the change the engine gets before its next game.
    pub change: Option<Change>,
}

impl Seat {
    /// A seat with no process yet.
    pub fn new(cfg: EngineConfig) -> Seat {
        Seat { cfg, process: None, change: None }
    }

    /// Starts the engine if it is not running, makes the `-soak` change and begins a new game.
    fn prepare(&mut self) -> Result<(), Failure> {
        if self.process.is_none() {
            match EngineProcess::start(&self.cfg) {
                Ok(p) => self.process = Some(p),
                Err(e) => {
                    eprintln!("Warning: {e}");
                    return Err(Failure::Disconnected);
                }
            }
        }
        let change = self.change.take();
        let result = self.process.as_mut().map_or(Err(Failure::Disconnected), |p| {
            change.map_or(Ok(()), |c| p.change(c))?;
            p.new_game()
        });
        if result.is_err() {
            self.process = None;
        }
        result
    }

    /// Stops a ponder search left running at the game's end; an engine that does not answer
    /// is dropped (the next game restarts it).
    fn end_ponder(&mut self) {
        if self.process.as_mut().is_some_and(|p| p.end_ponder(STOP_GRACE).is_err()) {
            self.process = None;
        }
    }

    /// Quits the engine if it runs.
    pub fn shut_down(&mut self) {
        if let Some(p) = self.process.take() {
            p.quit();
        }
    }
}

/// One side's clock.
#[derive(Clone, Copy, Debug)]
struct Clock {
    left_ms: u64,
    moves_made: u32,
}

impl Clock {
    fn new(limit: Limit) -> Clock {
        let left_ms = if let Limit::Clock { base_ms, .. } = limit { base_ms } else { 0 };
        Clock { left_ms, moves_made: 0 }
    }

    fn moves_to_go(&self, limit: Limit) -> Option<u32> {
        match limit {
            Limit::Clock { moves, .. } if moves > 0 => Some(moves - self.moves_made % moves),
            _ => None,
        }
    }

    /// How long the engine may think before it oversteps: its time and the margin, less the
    /// latency charged on top (nodes and depth: `timeout_ms`).
    fn allowed_ms(&self, cfg: &EngineConfig) -> u64 {
        let time = match cfg.limit {
            Limit::Clock { .. } => self.left_ms,
            Limit::MoveTime(ms) => ms,
            Limit::Nodes(_) | Limit::Depth(_) => return cfg.timeout_ms,
        };
        (time + cfg.margin_ms).saturating_sub(cfg.latency_ms)
    }

    /// Charges a move's time plus the latency; `false` if the engine overstepped beyond the
    /// margin.
    fn charge(&mut self, cfg: &EngineConfig, elapsed_ms: u64) -> bool {
        let charged = elapsed_ms + cfg.latency_ms;
        match cfg.limit {
            Limit::Clock { moves, base_ms, inc_ms } => {
                if charged > self.left_ms + cfg.margin_ms {
                    return false;
                }
                self.left_ms = self.left_ms.saturating_sub(charged) + inc_ms;
                self.moves_made += 1;
                if moves > 0 && self.moves_made.is_multiple_of(moves) {
                    self.left_ms += base_ms;
                }
                true
            }
            Limit::MoveTime(ms) => charged <= ms + cfg.margin_ms,
            Limit::Nodes(_) | Limit::Depth(_) => true,
        }
    }
}

/// How a game ended, before it becomes a [`GameRecord`].
struct Ending {
    result: GameResult,
    reason: String,
    termination: Termination,
}

impl Ending {
    /// `side` loses.
    fn loss(side: Color, reason: String, termination: Termination) -> Ending {
        Ending { result: GameResult::loss_for(side), reason, termination }
    }

    /// A draw.
    fn draw(reason: &str, termination: Termination) -> Ending {
        Ending { result: GameResult::Draw, reason: reason.to_string(), termination }
    }

    /// `side`'s engine failed: it loses.
    fn failure(side: Color, f: Failure) -> Ending {
        match f {
            Failure::Disconnected => {
                Ending::loss(side, format!("{} disconnects", side.name()), Termination::Disconnect)
            }
            Failure::Stalled => Ending::loss(side, format!("{}'s connection stalls", side.name()), Termination::Stall),
        }
    }

    /// The rules' ending, if they end the game.
    fn by_rules(game: &Game) -> Option<Ending> {
        let v = game.verdict()?;
        Some(Ending { result: v.result, reason: v.reason, termination: Termination::Rules })
    }
}

/// The score adjudication counters, from each mover's own scores.
#[derive(Default)]
struct ScoreWatch {
    resign_streak: [u32; 2],
    draw_streak: u32,
}

impl ScoreWatch {
    /// Counts `side`'s score after its move; `Err` when a rule of `adj` ends the game.
    fn after_move(&mut self, adj: &Adjudication, side: Color, score: Option<i32>, plies: usize) -> Result<(), Ending> {
        if let Some(rule) = adj.resign {
            let streak = &mut self.resign_streak[side.index()];
            *streak = if score.is_some_and(|s| s <= -rule.score) { *streak + 1 } else { 0 };
            if *streak >= rule.movecount {
                let reason = format!("{} wins by adjudication", side.opp().name());
                return Err(Ending::loss(side, reason, Termination::Adjudication));
            }
        }
        if let Some(rule) = adj.draw {
            let quiet = score.is_some_and(|s| s.abs() <= rule.score);
            let late_enough = plies as u32 / 2 >= rule.movenumber;
            self.draw_streak = if quiet && late_enough { self.draw_streak + 1 } else { 0 };
            if self.draw_streak >= 2 * rule.movecount {
                return Err(Ending::draw("Draw by adjudication", Termination::Adjudication));
            }
        }
        Ok(())
    }
}

/// A game in progress: the record, the clocks, a pending draw offer and the adjudication
/// counters.
struct Board {
    game: Game,
    limits: [Limit; 2],
    clocks: [Clock; 2],
    /// Per move, what its engine said.
    thinking: Vec<Option<Thinking>>,
    /// The side whose last move offered a draw.
    draw_offer: Option<Color>,
    scores: ScoreWatch,
}

impl Board {
    /// The opening played out, for engines with these limits.
    fn new(opening: &Opening, limits: [Limit; 2]) -> Board {
        let mut board = Board {
            game: Game::new(opening.start.clone()),
            limits,
            clocks: limits.map(Clock::new),
            thinking: vec![None; opening.moves.len()],
            draw_offer: None,
            scores: ScoreWatch::default(),
        };
        for &m in &opening.moves {
            // The opening's moves were checked when it was read.
            let _ = board.game.play(m);
        }
        board
    }

    /// `side`'s clock, if its limit is one.
    fn side_clock(&self, side: Color) -> Option<SideClock> {
        let (limit, clock) = (self.limits[side.index()], self.clocks[side.index()]);
        let Limit::Clock { inc_ms, .. } = limit else { return None };
        Some(SideClock { left_ms: clock.left_ms, inc_ms, movestogo: clock.moves_to_go(limit) })
    }

    /// Both sides' clocks, for an `Ask`.
    fn side_clocks(&self) -> [Option<SideClock>; 2] {
        [Color::Red, Color::Black].map(|c| self.side_clock(c))
    }

    /// Asks the side to move for its move and waits for the answer.
    fn ask(&self, seat: &mut Seat, side: Color, offered: bool) -> Result<Reply, Ending> {
        let ask =
            Ask { game: &self.game, limit: seat.cfg.limit, clocks: self.side_clocks(), draw: offered, ponder: false };
        let allowed = self.clocks[side.index()].allowed_ms(&seat.cfg);
        let reply = match seat.process.as_mut() {
            Some(p) => p.think(ask, Duration::from_millis(allowed)),
            None => Err(Failure::Disconnected),
        };
        reply.map_err(|f| {
            seat.process = None;
            Ending::failure(side, f)
        })
    }

    /// One move of the side to move: ask its engine, check the answer against the clock and
    /// the rules, play it. `Err`: the game is over.
    fn turn(&mut self, seat: &mut Seat, adj: &Adjudication) -> Result<(), Ending> {
        let side = self.game.position().side_to_move();
        let offered = self.draw_offer.take() == Some(side.opp());
        let reply = self.ask(seat, side, offered)?;
        let name = side.name();
        if reply.late || !self.clocks[side.index()].charge(&seat.cfg, reply.elapsed_ms) {
            return Err(Ending::loss(side, format!("{name} loses on time"), Termination::TimeForfeit));
        }
        if let Some(refusal) = reply.refused {
            // Its board is no longer the game's: whatever it plays next means nothing.
            let reason = format!("{name} refuses a legal move ({refusal})");
            return Err(Ending::loss(side, reason, Termination::IllegalMove));
        }
        if reply.resign {
            return Err(Ending::loss(side, format!("{name} resigns"), Termination::Agreement));
        }
        if reply.draw && offered {
            return Err(Ending::draw("Draw by agreement", Termination::Agreement));
        }
        let Some(text_move) = reply.bestmove else {
            // A CECP claim instead of a move is only advisory: the rules did not end the game.
            let claim = reply.claim.map(|c| format!(" (claims {c})")).unwrap_or_default();
            return Err(Ending::loss(side, format!("{name} makes no move{claim}"), Termination::IllegalMove));
        };
        if !Move::parse(&text_move).is_ok_and(|m| self.game.play(m).is_ok()) {
            let shown: String = text_move.chars().take(16).collect();
            let reason = format!("{name} makes an illegal move: {shown}");
            return Err(Ending::loss(side, reason, Termination::IllegalMove));
        }
        self.thinking.push(Some(Thinking {
            eval: reply.eval,
            depth: reply.depth,
            ms: reply.elapsed_ms,
            latency_ms: seat.cfg.latency_ms,
            cpu_ms: reply.cpu_ms,
        }));
        if reply.draw {
            self.draw_offer = Some(side);
        }
        if let Some(end) = Ending::by_rules(&self.game) {
            return Err(end);
        }
        let score = reply.eval.map(Eval::centipawns);
        self.scores.after_move(adj, side, score, self.game.moves().len())?;
        self.ponder(seat, reply.ponder.as_deref());
        Ok(())
    }

    /// After its move, lets a pondering engine think on the reply it expects (`guess`), on
    /// the clocks as they stand: its own is not running. No guess, an illegal one or one that
    /// ends the game: no pondering.
    fn ponder(&self, seat: &mut Seat, guess: Option<&str>) {
        let Some(process) = seat.process.as_mut().filter(|_| seat.cfg.ponder) else { return };
        let mut game = self.game.clone();
        let legal = guess.and_then(|g| Move::parse(g).ok()).is_some_and(|m| game.play(m).is_ok());
        if !legal || game.verdict().is_some() {
            return;
        }
        let ask = Ask { game: &game, limit: seat.cfg.limit, clocks: self.side_clocks(), draw: false, ponder: true };
        if process.ponder(ask).is_err() {
            // Its next turn finds no process and loses it by disconnection.
            seat.process = None;
        }
    }
}

/// Plays one game: `seats[0]` has Red, `seats[1]` Black. `None` if `stop` was raised first.
pub fn play_game(
    mut seats: [&mut Seat; 2],
    opening: &Opening,
    adj: &Adjudication,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let mut board = Board::new(opening, [seats[0].cfg.limit, seats[1].cfg.limit]);
    let end = play_out(&mut board, &mut seats, adj, stop);
    for seat in seats.iter_mut() {
        seat.end_ponder();
    }
    let end = end?;
    Some(GameRecord {
        start: opening.start.clone(),
        standard: opening.standard,
        moves: board.game.moves().to_vec(),
        thinking: board.thinking,
        result: end.result,
        reason: end.reason,
        termination: end.termination,
    })
}

/// Starts both engines' game and plays moves until the game ends (`None`: `stop` first).
fn play_out(board: &mut Board, seats: &mut [&mut Seat; 2], adj: &Adjudication, stop: &AtomicBool) -> Option<Ending> {
    for (seat, side) in seats.iter_mut().zip([Color::Red, Color::Black]) {
        if let Err(f) = seat.prepare() {
            return Some(Ending::failure(side, f));
        }
    }
    loop {
        if let Some(end) = Ending::by_rules(&board.game) {
            return Some(end);
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = board.game.position().side_to_move();
        if let Err(end) = board.turn(seats[side.index()], adj) {
            return Some(end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(limit: Limit, margin_ms: u64, latency_ms: u64) -> EngineConfig {
        EngineConfig {
            name: "e".into(),
            cmd: "e".into(),
            args: Vec::new(),
            dir: None,
            proto: crate::matches::engine::Proto::Ucci,
            options: Vec::new(),
            limit,
            margin_ms,
            timeout_ms: 777,
            latency_ms,
            ponder: false,
            ranks: None,
            debug: None,
        }
    }

    #[test]
    fn clock_charges_increment_periods_and_margin() {
        let tc = Limit::Clock { moves: 2, base_ms: 1000, inc_ms: 10 };
        let (plain, slack) = (cfg(tc, 0, 0), cfg(tc, 50, 0));
        let mut c = Clock::new(tc);
        assert!(c.charge(&plain, 300));
        assert_eq!(c.left_ms, 710);
        assert!(c.charge(&plain, 200));
        assert_eq!(c.left_ms, 1520);
        assert_eq!(c.allowed_ms(&slack), 1570);
        assert!(!c.charge(&slack, 1600));
        assert!(c.charge(&slack, 1560));
        assert_eq!(c.left_ms, 10);
        let st = |margin| cfg(Limit::MoveTime(100), margin, 0);
        assert!(Clock::new(Limit::MoveTime(100)).charge(&st(50), 140));
        assert!(!Clock::new(Limit::MoveTime(100)).charge(&st(50), 160));
        assert_eq!(Clock::new(Limit::Depth(3)).allowed_ms(&cfg(Limit::Depth(3), 50, 40)), 777);
    }

    #[test]
    fn latency_is_charged_on_every_move() {
        let tc = Limit::Clock { moves: 0, base_ms: 1000, inc_ms: 10 };
        let lagged = cfg(tc, 20, 50);
        let mut c = Clock::new(tc);
        assert_eq!(c.allowed_ms(&lagged), 970);
        assert!(c.charge(&lagged, 300));
        assert_eq!(c.left_ms, 660);
        // 640 ms of thinking fit 660 + 20 without the latency, not with it.
        assert!(c.clone().charge(&cfg(tc, 20, 0), 640));
        assert!(!c.charge(&lagged, 640));
        let st = Limit::MoveTime(100);
        assert!(!Clock::new(st).charge(&cfg(st, 0, 50), 60));
        assert!(Clock::new(st).charge(&cfg(st, 0, 50), 50));
        assert_eq!(Clock::new(st).allowed_ms(&cfg(st, 0, 500)), 0);
    }
}
