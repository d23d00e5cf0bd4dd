//! Where `diagram` and `analyze` read and write moves for people: any of the three
//! notations (`crate::notation`), checked against the position.

use crate::board::{Move, Position};
use crate::matches::pgn;
pub use crate::notation::Notation;

/// A move typed by a person in `pos` (ICCS, WXF or Chinese), checked for legality.
pub fn read_move(pos: &Position, text: &str) -> Result<Move, String> {
    crate::notation::parse_move(pos, text).map_err(|e| format!("{e} (in {})", pos.to_fen()))
}

/// `m` in `pos` as `notation` writes it; ICCS in PGN's form (`H2-E2`).
pub fn write_move(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => pgn::iccs(m),
        _ => crate::notation::format_move(pos, m, notation),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_legal_in_any_notation_and_written_back() {
        let pos = Position::startpos();
        let m = read_move(&pos, "H2-E2").unwrap();
        assert_eq!(read_move(&pos, "C2=5").unwrap(), m);
        assert_eq!(read_move(&pos, "炮二平五").unwrap(), m);
        assert_eq!(write_move(&pos, m, Notation::Iccs), "H2-E2");
        assert_eq!(write_move(&pos, m, Notation::Wxf), "C2=5");
        assert!(read_move(&pos, "h2h8").unwrap_err().starts_with("'h2h8' is not a legal move for Red here"));
        assert!(read_move(&pos, "x").unwrap_err().starts_with("malformed move 'x'"));
    }
}
