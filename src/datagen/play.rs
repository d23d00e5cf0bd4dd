//! One self-play game: a varied start (an opening, random plies, a start check), then each
//! move searched to a fixed budget until the rules or the adjudication end the game.

use super::format::{
    End, Record, FLAG_CAPTURE, FLAG_DECISIVE, FLAG_GAME_START, FLAG_IN_CHECK, FLAG_NOT_QUIET, SCORE_LIMIT,
};
use crate::board::zobrist::{splitmix, Rng};
use crate::board::{Color, Move, Position};
use crate::matches::openings::Opening;
use crate::rules::{Game, GameResult};
use crate::search::{Engine, Limits, Score, SearchRequest, SearchResult};

/// How long each move is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveBudget {
    /// Nodes per move.
    Nodes(u64),
    /// Depth per move.
    Depth(u32),
}

/// When scores end a game early (see `docs/datagen.md`, "How a game is played").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// A side wins when every search scores it at least this (centipawns, Red's view)...
    pub win_score: i32,
    /// ...on this many consecutive plies (both sides' searches agreeing).
    pub win_plies: u32,
    /// A draw when every search scores within ±this...
    pub draw_score: i32,
    /// ...on this many consecutive plies...
    pub draw_plies: u32,
    /// ...all played at or after this ply of the game.
    pub draw_from_ply: u32,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication {
            win_score: 1000,
            win_plies: 4,
            draw_score: 10,
            draw_plies: 12,
            draw_from_ply: 80,
            max_plies: 400,
        }
    }
}

/// Everything a datagen run is asked for.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games to play.
    pub games: u64,
    /// Search per move.
    pub budget: MoveBudget,
    /// Games played at once (one search thread each).
    pub threads: usize,
    /// Base seed; game `i` plays from a seed derived from it and `i`.
    pub seed: u64,
    /// Uniformly random legal plies played before the engines take over.
    pub random_plies: u32,
    /// Openings to start from (one picked per game); empty: the start position.
    pub openings: Vec<Opening>,
    /// Keep every searched position (else only quiet ones).
    pub keep_all: bool,
    /// A start whose searched |score| exceeds this is skipped.
    pub max_start_score: i32,
    /// Transposition table per game thread, in MB.
    pub hash_mb: usize,
    /// Score adjudication.
    pub adjudication: Adjudication,
    /// The evaluation the games are played with.
    pub evaluator: crate::eval::Evaluator,
}

impl GameRecord {
    /// The kept records, in ply order.
    pub fn kept_records(&self) -> impl Iterator<Item = &Record> {
        self.records.iter().zip(&self.kept).filter(|(_, &k)| k).map(|(r, _)| r)
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            games: 100,
            budget: MoveBudget::Nodes(5000),
            threads: 1,
            seed: 1,
            random_plies: 8,
            openings: Vec::new(),
            keep_all: false,
            max_start_score: 300,
            hash_mb: 4,
            adjudication: Adjudication::default(),
            evaluator: crate::eval::Evaluator::default(),
        }
    }
}

/// Start attempts before the last drawn start is played whatever its score.
pub const START_ATTEMPTS: u32 = 64;

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Every searched position, in ply order (the chained format keeps the skipped ones'
    /// moves, so that the chain stays whole).
    pub records: Vec<Record>,
    /// Whether each is kept (`--keep`: quiet ones, or all).
    pub kept: Vec<bool>,
    /// Positions searched (kept or not).
    pub searched: u32,
    /// Plies the game lasted.
    pub plies: u16,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub end: End,
}

/// The generator of game `index` in a run with base `seed`, so a game depends only on them.
pub fn game_rng(seed: u64, index: u64) -> Rng {
    let (_, base) = splitmix(seed);
    Rng::new(base ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// A search score as stored: centipawns within ±`SCORE_LIMIT`, and whether it is decisive
/// (a mate, or a win by the rules: the search reports both on the mate scale).
pub fn stored_score(score: Score) -> (i16, bool) {
    let limit = SCORE_LIMIT as i32;
    match score {
        Score::Mate(m) => (if m > 0 { SCORE_LIMIT } else { -SCORE_LIMIT }, true),
        Score::Cp(v) => (v.clamp(-limit, limit) as i16, false),
    }
}

/// Searches the game's current position (one thread, the game's history for repetitions).
fn search(engine: &mut Engine, game: &Game, budget: MoveBudget) -> SearchResult {
    search_after(engine, game.start(), game.moves(), budget)
}

/// Searches the position after `moves` from `start` to `budget`.
pub(crate) fn search_after(engine: &mut Engine, start: &Position, moves: &[Move], budget: MoveBudget) -> SearchResult {
    let limits = match budget {
        MoveBudget::Nodes(n) => Limits { nodes: Some(n), ..Limits::default() },
        MoveBudget::Depth(d) => Limits { depth: Some(d), ..Limits::default() },
    };
    engine.search_collect(&SearchRequest::new(start, moves, limits)).0
}

/// The record flags a search's verdict on `pos` gives: in check, best move a capture, score
/// decisive, each also marking the position not quiet.
pub(crate) fn quiet_flags(pos: &Position, best: Move, decisive: bool) -> u8 {
    let mut flags = 0;
    for (set, bit) in [(pos.in_check(), FLAG_IN_CHECK), (pos.is_capture(best), FLAG_CAPTURE), (decisive, FLAG_DECISIVE)]
    {
        if set {
            flags |= bit | FLAG_NOT_QUIET;
        }
    }
    flags
}

/// A varied start: an opening (or the start position), then random legal plies (stopping
/// short of one that would end the game), redrawn while the first search finds the start
/// already decided. Returns the game and that first search, which is the first move's search
/// too (the table is cleared before it).
fn start(engine: &mut Engine, cfg: &Config, rng: &mut Rng) -> (Game, SearchResult) {
    let mut attempt = 0;
    loop {
        attempt += 1;
        let opening = (!cfg.openings.is_empty()).then(|| &cfg.openings[rng.below(cfg.openings.len())]);
        let fresh = || opening.map_or_else(|| Game::new(Position::startpos()), Opening::game);
        let mut game = fresh();
        for _ in 0..cfg.random_plies {
            let moves = game.position().legal_moves();
            let m = moves[rng.below(moves.len())];
            game.play(m).expect("a generated move is legal");
            if game.verdict().is_some() {
                // Replay without the ending move: the start must leave a game to play.
                let played = game.moves()[..game.moves().len() - 1].to_vec();
                game = fresh();
                let skip = game.moves().len();
                for &m in &played[skip..] {
                    game.play(m).expect("replayed moves are legal");
                }
                break;
            }
        }
        engine.clear();
        let first = search(engine, &game, cfg.budget);
        let (score, decisive) = stored_score(first.score);
        if (!decisive && (score as i32).abs() <= cfg.max_start_score) || attempt >= START_ATTEMPTS {
            return (game, first);
        }
    }
}

/// Consecutive-ply counters of the score adjudication.
#[derive(Default)]
struct Streaks {
    red: u32,
    black: u32,
    quiet: u32,
}

impl Streaks {
    /// Counts one searched ply with score `red_view` played at `ply`; the ending if reached.
    fn after(&mut self, adj: &Adjudication, red_view: i32, ply: u32) -> Option<(GameResult, End)> {
        let bump = |streak: &mut u32, yes: bool| *streak = if yes { *streak + 1 } else { 0 };
        bump(&mut self.red, red_view >= adj.win_score);
        bump(&mut self.black, red_view <= -adj.win_score);
        bump(&mut self.quiet, red_view.abs() <= adj.draw_score && ply >= adj.draw_from_ply);
        if self.red >= adj.win_plies {
            Some((GameResult::RedWins, End::AdjudicatedWin))
        } else if self.black >= adj.win_plies {
            Some((GameResult::BlackWins, End::AdjudicatedWin))
        } else if self.quiet >= adj.draw_plies {
            Some((GameResult::Draw, End::AdjudicatedDraw))
        } else {
            None
        }
    }
}

/// Plays game `index` of the run with `engine` (one thread; its table is cleared here).
pub fn play_game(engine: &mut Engine, cfg: &Config, index: u64) -> GameRecord {
    let mut rng = game_rng(cfg.seed, index);
    let (mut game, first) = start(engine, cfg, &mut rng);
    let mut next = Some(first);
    let (mut records, mut kept_marks, mut any_kept) = (Vec::new(), Vec::new(), false);
    let mut streaks = Streaks::default();
    let mut searched = 0;
    let (result, end) = loop {
        let found = next.take().unwrap_or_else(|| search(engine, &game, cfg.budget));
        searched += 1;
        let pos = game.position().clone();
        let best = found.best.expect("an unfinished game has a legal move");
        let (score, decisive) = stored_score(found.score);
        let mut flags = quiet_flags(&pos, best, decisive);
        let ply = game.moves().len() as u32;
        let kept = flags == 0 || cfg.keep_all;
        if kept && !any_kept {
            flags |= FLAG_GAME_START;
            any_kept = true;
        }
        let position = pos.clone();
        let (result, end) = (GameResult::Draw, End::MaxLength); // set when the game ends
        records.push(Record { position, score, best, ply: ply as u16, game_plies: 0, result, flags, end });
        kept_marks.push(kept);
        game.play(best).expect("the search's move is legal");
        if let Some(v) = game.verdict() {
            break (v.result, End::of_rule(v.rule));
        }
        let red_view = if pos.side_to_move() == Color::Red { score as i32 } else { -(score as i32) };
        if let Some(ending) = streaks.after(&cfg.adjudication, red_view, ply) {
            break ending;
        }
        if game.moves().len() as u32 >= cfg.adjudication.max_plies {
            break (GameResult::Draw, End::MaxLength);
        }
    };
    let plies = game.moves().len() as u16;
    for r in &mut records {
        (r.result, r.end, r.game_plies) = (result, end, plies);
    }
    GameRecord { records, kept: kept_marks, searched, plies, result, end }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_clamped_and_decisive_ones_flagged() {
        assert_eq!(stored_score(Score::Cp(35)), (35, false));
        assert_eq!(stored_score(Score::Cp(-12_000)), (-SCORE_LIMIT, false));
        assert_eq!(stored_score(Score::Mate(3)), (SCORE_LIMIT, true));
        assert_eq!(stored_score(Score::Mate(0)), (-SCORE_LIMIT, true));
        assert_eq!(stored_score(Score::Mate(-2)), (-SCORE_LIMIT, true));
    }

    #[test]
    fn adjudication_needs_both_sides_and_enough_plies() {
        let adj = Adjudication::default();
        let mut s = Streaks::default();
        assert_eq!(s.after(&adj, 1200, 30), None);
        assert_eq!(s.after(&adj, 1500, 31), None);
        assert_eq!(s.after(&adj, 900, 32), None, "one ply below the threshold restarts the count");
        for ply in 33..36 {
            assert_eq!(s.after(&adj, 1000, ply), None);
        }
        assert_eq!(s.after(&adj, 1000, 36), Some((GameResult::RedWins, End::AdjudicatedWin)));
        let mut s = Streaks::default();
        for ply in 70..91 {
            assert_eq!(s.after(&adj, 5, ply), None, "ply {ply}");
        }
        assert_eq!(s.after(&adj, -10, 91), Some((GameResult::Draw, End::AdjudicatedDraw)));
    }

    #[test]
    fn games_have_their_own_seeds() {
        let draws: Vec<u64> = (0..4).map(|i| game_rng(7, i).next_u64()).collect();
        assert_eq!(draws, (0..4).map(|i| game_rng(7, i).next_u64()).collect::<Vec<_>>());
        let mut unique = draws.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 4);
        assert_ne!(game_rng(8, 0).next_u64(), draws[0]);
    }
}
