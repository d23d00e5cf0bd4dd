//! Where `diagram` and `analyze` read and write moves for people. Today ICCS only; each place
//! marked `notation:` switches to `crate::notation` (Chinese, WXF, ICCS) when it lands.

use crate::board::{Move, Position};
use crate::matches::pgn::{self, PgnGame};

/// The notation a game's moves are written back in. notation: `notation::Notation`, the
/// game's own (its `[Format]` tag or what the reader detected).
pub type Notation = &'static str;

/// The notation of `game`'s moves. notation: the game's own instead of ICCS always.
pub fn game_notation(_game: &PgnGame) -> Notation {
    "ICCS"
}

/// A move typed by a person in `pos`, checked for legality. notation: `notation::parse_move`.
pub fn read_move(pos: &Position, text: &str) -> Result<Move, String> {
    let m = pgn::parse_move(text)?;
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(format!("illegal move '{text}' in {}", pos.to_fen()))
    }
}

/// `m` in `pos` as `notation` writes it. notation: `notation::format_move(pos, m, notation)`.
pub fn write_move(_pos: &Position, m: Move, _notation: Notation) -> String {
    pgn::iccs(m)
}

/// The text of a PGN file. notation: the reader's decoding (UTF-8 or GBK).
pub fn read_pgn_file(path: &str) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_legal_and_written_back() {
        let pos = Position::startpos();
        let m = read_move(&pos, "H2-E2").unwrap();
        assert_eq!(write_move(&pos, m, "ICCS"), "H2-E2");
        assert!(read_move(&pos, "h2h8").unwrap_err().starts_with("illegal move 'h2h8' in rnbakabnr/"));
        assert!(read_move(&pos, "x").unwrap_err().starts_with("malformed move 'x'"));
    }
}
