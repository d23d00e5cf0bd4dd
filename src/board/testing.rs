//! Test support: seeded random games, so the tests of every layer walk games the same way.

use super::{MoveList, Position};

/// A seeded xorshift64 generator: the same seed gives the same games on every run.
pub struct Xorshift(pub u64);

impl Xorshift {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays `games` random games of at most `plies` plies from the start, calling
/// `visit(position, its legal moves, game, ply)` before each move.
pub fn random_games(seed: u64, games: usize, plies: usize, mut visit: impl FnMut(&Position, &MoveList, usize, usize)) {
    let mut rng = Xorshift(seed);
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
