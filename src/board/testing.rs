//! Test support: seeded random games, so the tests of every layer walk games the same way.

use super::zobrist::Rng;
use super::{MoveList, Position};

/// Plays `games` random games of at most `plies` plies from the start, calling
/// `visit(position, its legal moves, game, ply)` before each move.
pub fn random_games(seed: u64, games: usize, plies: usize, mut visit: impl FnMut(&Position, &MoveList, usize, usize)) {
    let mut rng = Rng::new(seed);
    for game in 0..games {
        let mut pos = Position::startpos();
        for ply in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            visit(&pos, &moves, game, ply);
            pos.make_move(moves[rng.below(moves.len())]);
        }
    }
}
