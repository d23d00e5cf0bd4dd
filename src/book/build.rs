//! A book from games (`chuhe book build`). Each finished game is replayed from its start for
//! at most `depth` plies; every position reached is counted once per game, with the move
//! played from it and the points the mover scored in that game: **2 for a win, 1 for a draw,
//! 0 for a loss**. Positions reached in at least `min_games` games are kept, and each of their
//! moves weighs the sum of its points over the games that played it:
//!
//! `weight(position, move) = 2 × wins + 1 × draws` (from the mover's side)
//!
//! so a move's chance in the engine is its share of the position's total. Moves of weight 0
//! (only losses) are left out, and a position left with no move is dropped. Unfinished games
//! (`*`) are skipped; a game stops at its first illegal move.

use super::BookMove;
use crate::board::{Color, Move, Position};
use crate::rules::GameResult;
use std::collections::{HashMap, HashSet};

/// Points per result from the mover's side, the weight formula's terms.
pub const WIN_POINTS: u32 = 2;
/// See [`WIN_POINTS`].
pub const DRAW_POINTS: u32 = 1;
/// See [`WIN_POINTS`].
pub const LOSS_POINTS: u32 = 0;

/// The points `mover` scored in a game with `result`.
pub fn points(result: GameResult, mover: Color) -> u32 {
    match (result, mover) {
        (GameResult::Draw, _) => DRAW_POINTS,
        (GameResult::RedWins, Color::Red) | (GameResult::BlackWins, Color::Black) => WIN_POINTS,
        _ => LOSS_POINTS,
    }
}

/// What to keep.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Plies from each game's start.
    pub depth: usize,
    /// Games a position must occur in.
    pub min_games: u32,
}

/// One game to learn from.
#[derive(Clone, Debug)]
pub struct GameLine {
    /// Where it starts.
    pub start: Position,
    /// Its moves.
    pub moves: Vec<Move>,
    /// Its result; `None` (`*`): skipped.
    pub result: Option<GameResult>,
}

/// What a build read and made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Finished games used.
    pub games: usize,
    /// Unfinished games skipped.
    pub unfinished: usize,
    /// Games cut at an illegal move.
    pub illegal: usize,
    /// Positions in the book.
    pub positions: usize,
    /// Moves in the book.
    pub moves: usize,
}

#[derive(Default)]
struct Seen {
    pos: Option<Position>,
    games: u32,
    moves: Vec<(Move, u32)>,
}

/// Counts the games and returns the book's positions (in key order, for reproducible files)
/// with their weighted moves.
pub fn build(games: &[GameLine], limits: Limits) -> (Vec<(Position, Vec<BookMove>)>, Summary) {
    let mut table: HashMap<u64, Seen> = HashMap::new();
    let mut summary = Summary::default();
    for g in games {
        let Some(result) = g.result else {
            summary.unfinished += 1;
            continue;
        };
        summary.games += 1;
        let mut pos = g.start.clone();
        let mut here = HashSet::new();
        for &m in g.moves.iter().take(limits.depth) {
            if !pos.is_legal(m) {
                summary.illegal += 1;
                break;
            }
            // A position repeated within one game counts once, with its first move.
            if here.insert(pos.key()) {
                let seen = table.entry(pos.key()).or_default();
                seen.pos.get_or_insert_with(|| pos.clone());
                seen.games += 1;
                let pts = points(result, pos.side_to_move());
                match seen.moves.iter_mut().find(|(mv, _)| *mv == m) {
                    Some((_, w)) => *w += pts,
                    None => seen.moves.push((m, pts)),
                }
            }
            pos.make_move(m);
        }
    }
    let mut keys: Vec<u64> = table.keys().copied().collect();
    keys.sort_unstable();
    let mut out = Vec::new();
    for k in keys {
        let seen = table.remove(&k).expect("key from the table");
        if seen.games < limits.min_games {
            continue;
        }
        let mut moves: Vec<BookMove> =
            seen.moves.into_iter().filter(|(_, w)| *w > 0).map(|(mv, weight)| BookMove { mv, weight }).collect();
        if moves.is_empty() {
            continue;
        }
        moves.sort_by(|a, b| b.weight.cmp(&a.weight).then(a.mv.cmp(&b.mv)));
        summary.positions += 1;
        summary.moves += moves.len();
        out.push((seen.pos.expect("set with the entry"), moves));
    }
    (out, summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(moves: &str, result: Option<GameResult>) -> GameLine {
        GameLine {
            start: Position::startpos(),
            moves: moves.split_whitespace().map(|m| Move::parse(m).unwrap()).collect(),
            result,
        }
    }

    fn weights(book: &[(Position, Vec<BookMove>)], pos: &Position) -> Vec<(String, u32)> {
        book.iter()
            .find(|(p, _)| p.key() == pos.key())
            .map(|(_, m)| m.iter().map(|b| (b.mv.to_string(), b.weight)).collect())
            .unwrap_or_default()
    }

    #[test]
    fn weights_are_mover_points_win_2_draw_1_loss_0() {
        use GameResult::*;
        assert_eq!([points(RedWins, Color::Red), points(Draw, Color::Black), points(RedWins, Color::Black)], [2, 1, 0]);
        let games = [
            line("h2e2 h9g7", Some(RedWins)),
            line("h2e2 h9g7", Some(Draw)),
            line("h2e2 b9c7", Some(BlackWins)),
            line("c3c4", Some(BlackWins)),
            line("b0c2", None),
        ];
        let (book, s) = build(&games, Limits { depth: 10, min_games: 1 });
        assert_eq!((s.games, s.unfinished, s.illegal), (4, 1, 0));
        // Red: h2e2 scored 2 + 1 + 0 = 3, c3c4 lost (0: left out); b0c2's game was unfinished.
        assert_eq!(weights(&book, &Position::startpos()), [("h2e2".to_string(), 3)]);
        let mut after = Position::startpos();
        after.make_move(Move::parse("h2e2").unwrap());
        // Black after h2e2: h9g7 scored 0 + 1, b9c7 won (2).
        assert_eq!(weights(&book, &after), [("b9c7".to_string(), 2), ("h9g7".to_string(), 1)]);
    }

    #[test]
    fn depth_min_games_repetitions_and_illegal_moves() {
        use GameResult::*;
        let games = [line("h0g2 h9g7 g2h0 g7h9 h0g2 h9g7", Some(Draw)), line("h0g2 a9a5 h9g7", Some(Draw))];
        // Two games reach the start position; only one reaches the rest.
        let (book, s) = build(&games, Limits { depth: 10, min_games: 2 });
        assert_eq!((s.positions, s.illegal), (1, 1));
        // The start repeats in the first game but counts once there: 1 + 1.
        assert_eq!(weights(&book, &Position::startpos()), [("h0g2".to_string(), 2)]);
        let (book, s) = build(&games, Limits { depth: 1, min_games: 1 });
        assert_eq!((s.positions, book.len()), (1, 1), "depth 1 keeps only the first move");
    }
}
