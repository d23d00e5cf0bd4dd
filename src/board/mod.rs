//! The board: squares, pieces, moves, the padded mailbox position, FEN, Zobrist keys,
//! attack detection and legal move generation. Knows nothing of the layers above it.

mod attack;
mod fen;
mod legal;
mod movegen;
mod mv;
mod piece;
mod position;
mod see;
mod square;
pub mod tables;
#[cfg(test)]
pub(crate) mod testing;
pub mod zobrist;

pub use fen::{FenError, FenParseError, PositionError, START_FEN};
pub use mv::{Move, MoveList, MoveParseError, MAX_MOVES};
pub use piece::{Color, Piece, PieceKind};
pub use position::{PieceId, Position, Undo};
pub use square::Square;
