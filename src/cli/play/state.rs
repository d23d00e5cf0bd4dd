//! The game in progress: the rules' record, the engine and its book, the clocks, what the
//! engine said about each of its moves, and how the game ended. No terminal here.

use super::config::Config;
use super::input::{format_move, Notation};
use crate::board::zobrist::Rng;
use crate::board::{Color, Move, Position, START_FEN};
use crate::book;
use crate::matches::engine::Eval;
use crate::matches::game::{GameRecord, Termination, Thinking};
use crate::matches::pgn::{time_control, today, write_game, PgnHeader};
use crate::rules::{Game, GameResult};
use crate::search::{Engine, Limits, Score, SearchResult};
use std::time::Instant;

/// The engine accepts a draw offer when its score is at most this (centipawns, its view):
/// the game is level or it stands worse.
pub const DRAW_ACCEPT_CP: i32 = 20;

/// How a game ended (`result` `None`: left unfinished).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// The result, if the game is decided.
    pub result: Option<GameResult>,
    /// One line: `Black loses: checkmate`, `Red resigns`, `Draw agreed`.
    pub reason: String,
    /// The PGN's `[Termination]`.
    pub termination: Termination,
}

/// The engine's move and what it said.
pub struct Reply {
    /// The move in the display notation.
    pub text: String,
    /// `book move` or the score, depth and time.
    pub note: String,
}

/// One game against the engine.
pub struct Play {
    /// The game so far (the rules' record).
    pub game: Game,
    /// Per ply, what the engine said about its move (`None`: the player's, or a book move).
    thinking: Vec<Option<Thinking>>,
    engine: Engine,
    rng: Rng,
    /// Remaining clock time per side (Red, Black), milliseconds.
    pub clocks: Option<[i64; 2]>,
    cfg: Config,
}

impl Play {
    /// A new game as `cfg` says.
    pub fn new(cfg: Config) -> Play {
        let mut engine = Engine::new();
        engine.set_strength(cfg.strength);
        let rng = cfg.seed.map_or_else(Rng::from_clock, Rng::new);
        if let Some(seed) = cfg.seed {
            engine.seed_strength_pick(seed);
        }
        let clocks = cfg.clock.map(|(base, _)| [base as i64; 2]);
        Play { game: Game::new(cfg.start.clone()), thinking: Vec::new(), engine, rng, clocks, cfg }
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Whether it is the player's turn.
    pub fn players_turn(&self) -> bool {
        self.position().side_to_move() == self.cfg.side
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<Move> {
        self.game.moves().last().copied()
    }

    /// The moves so far in the display notation, each written in the position it was played.
    pub fn move_texts(&self, notation: Notation) -> Vec<String> {
        let mut pos = self.game.start().clone();
        self.game
            .moves()
            .iter()
            .map(|&m| {
                let t = format_move(&pos, m, notation);
                pos.make_move(m);
                t
            })
            .collect()
    }

    /// The rules' verdict now, as an end of game.
    pub fn verdict(&self) -> Option<End> {
        self.game.verdict().map(|v| End { result: Some(v.result), reason: v.reason, termination: Termination::Rules })
    }

    /// Plays the player's move (legal: checked by the caller) and charges `ms` to their clock.
    pub fn play_player(&mut self, m: Move, ms: u64) -> Result<(), End> {
        self.game.play(m).map_err(|_| End::illegal(m))?;
        self.thinking.push(None);
        self.charge(self.cfg.side, ms)
    }

    /// The engine's move here: a book move while the book has one, else a search. The game
    /// must go on (the side to move has a legal move).
    pub fn engine_turn(&mut self) -> Result<Reply, End> {
        let side = self.position().side_to_move();
        let pos = self.position().clone();
        let moves = self.cfg.books.moves(&pos);
        if let Some(b) = book::pick(&moves, self.rng.next_u64()) {
            self.game.play(b.mv).map_err(|_| End::illegal(b.mv))?;
            self.thinking.push(None);
            let total = book::total_weight(&moves);
            let note = format!("book move (weight {} of {total})", b.weight);
            return Ok(Reply { text: format_move(&pos, b.mv, self.cfg.notation), note });
        }
        let clock = self.clocks.map(|c| c[side.index()]);
        let t = Instant::now();
        let r = self.search(clock);
        let ms = t.elapsed().as_millis() as u64;
        let Some(mv) = r.best else {
            return Err(End {
                result: None,
                reason: "the engine found no move".into(),
                termination: Termination::Stall,
            });
        };
        self.game.play(mv).map_err(|_| End::illegal(mv))?;
        let thinking = Thinking { eval: Some(eval(r.score)), depth: Some(r.depth), ms, latency_ms: 0, cpu_ms: None };
        self.thinking.push(Some(thinking));
        let note = format!("{} for Chuhe, depth {}, {:.1}s", score_text(r.score), r.depth, ms as f64 / 1000.0);
        self.charge(side, ms)?;
        Ok(Reply { text: format_move(&pos, mv, self.cfg.notation), note })
    }

    /// A search of the current position with the engine's limits and level; `clock` is the
    /// mover's remaining time, if there is a clock.
    fn search(&mut self, clock: Option<i64>) -> SearchResult {
        let mut limits = Limits { move_overhead_ms: 50, ..self.cfg.limits.clone() };
        if let (Some(left), Some((_, inc))) = (clock, self.cfg.clock) {
            limits.time_ms = Some(left.max(1) as u64);
            limits.inc_ms = inc;
        }
        self.engine.search_sync(self.game.start(), self.game.moves(), limits)
    }

    /// The engine's best move for the player here, with its score from the player's side.
    pub fn hint(&mut self) -> Option<(String, Score)> {
        let clock = self.clocks.map(|c| c[self.cfg.side.index()]);
        let r = self.search(clock);
        r.best.map(|m| (format_move(self.position(), m, self.cfg.notation), r.score))
    }

    /// The player offers a draw: the engine searches and accepts when its score is at most
    /// `DRAW_ACCEPT_CP` (or it is being mated). Returns whether it accepted, and its score.
    pub fn offer_draw(&mut self) -> (bool, Score) {
        let clock = self.clocks.map(|c| c[self.cfg.side.index()]);
        let score = match self.search(clock).score {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
        };
        let accept = match score {
            Score::Cp(cp) => cp <= DRAW_ACCEPT_CP,
            Score::Mate(n) => n < 0,
        };
        (accept, score)
    }

    /// Takes back the engine's reply and the player's move (at the player's turn); false
    /// when the player has no move to take back.
    pub fn undo(&mut self) -> bool {
        let n = self.game.moves().len();
        let back = 2;
        if !self.players_turn() || n < back {
            return false;
        }
        let mut game = Game::new(self.cfg.start.clone());
        for &m in &self.game.moves()[..n - back] {
            // Replaying moves that were legal cannot fail.
            let _ = game.play(m);
        }
        self.game = game;
        self.thinking.truncate(n - back);
        true
    }

    /// Takes `ms` off `side`'s clock and adds the increment; a flag fall ends the game.
    fn charge(&mut self, side: Color, ms: u64) -> Result<(), End> {
        let (Some(clocks), Some((_, inc))) = (self.clocks.as_mut(), self.cfg.clock) else { return Ok(()) };
        let left = &mut clocks[side.index()];
        *left -= ms as i64;
        if *left < 0 {
            return Err(End {
                result: Some(GameResult::loss_for(side)),
                reason: format!("{} loses on time", side.name()),
                termination: Termination::TimeForfeit,
            });
        }
        *left += inc as i64;
        Ok(())
    }

    /// The game as PGN text, ending as `end` says (`None`: unfinished, `*`).
    pub fn pgn(&self, end: Option<&End>) -> String {
        let (you, chuhe) = ("Player".to_string(), format!("Chuhe ({})", self.cfg.strength_text));
        let (red, black) = if self.cfg.side == Color::Red { (you, chuhe) } else { (chuhe, you) };
        let engine_tc = time_control(self.cfg.engine_limit());
        let player_tc = if self.cfg.clock.is_some() { engine_tc.clone() } else { "-".to_string() };
        let tcs = if self.cfg.side == Color::Red { [&player_tc, &engine_tc] } else { [&engine_tc, &player_tc] };
        let date = today();
        let header = PgnHeader {
            event: "Chuhe play",
            round: 1,
            red: &red,
            black: &black,
            date: &date,
            time_controls: [tcs[0], tcs[1]],
        };
        let (result, reason, termination) = match end {
            Some(End { result: Some(r), reason, termination }) => (*r, reason.clone(), *termination),
            Some(End { result: None, reason, .. }) => (GameResult::Draw, reason.clone(), Termination::Unterminated),
            None => (GameResult::Draw, "game goes on".to_string(), Termination::Unterminated),
        };
        let record = GameRecord {
            start: self.game.start().clone(),
            standard: self.game.start().to_fen() == START_FEN,
            moves: self.game.moves().to_vec(),
            thinking: self.thinking.clone(),
            result,
            reason,
            termination,
        };
        write_game(&header, &record)
    }
}

impl End {
    /// A move the rules refused where it should have been legal (a bug, never expected).
    fn illegal(m: Move) -> End {
        End { result: None, reason: format!("move {m} was refused"), termination: Termination::IllegalMove }
    }
}

/// A search score as the PGN comment's evaluation.
fn eval(score: Score) -> Eval {
    match score {
        Score::Cp(cp) => Eval::Cp(cp),
        Score::Mate(n) => Eval::Mate(n),
    }
}

/// A score in pawns with its sign (`+0.35`, `-1.20`), or `+M3` / `-M3` for mates in moves.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{}{}.{:02}", if cp < 0 { "-" } else { "+" }, cp.abs() / 100, cp.abs() % 100),
        Score::Mate(n) if n > 0 => format!("+M{n}"),
        Score::Mate(n) => format!("-M{}", -n),
    }
}
