//! Match openings: a start position plus opening moves, read from a file (one per line) or
//! taken from the built-in set.

use crate::board::{Move, Position, START_FEN};
use crate::lines::content_lines;
use crate::notation::{self, NotationError};
use crate::rules::Game;

/// One opening: the position the game record starts from and the moves played before the
/// engines take over.
#[derive(Clone, Debug)]
pub struct Opening {
    /// Position the record starts from.
    pub start: Position,
    /// Whether `start` is the standard start position (no `[FEN]` tag needed).
    pub standard: bool,
    /// Opening moves, played in order from `start`.
    pub moves: Vec<Move>,
}

impl Opening {
    /// Parses one opening line: `startpos [moves ...]`, `fen <FEN> [moves ...]` or a bare FEN
    /// optionally followed by `moves ...`, each in ICCS, WXF or Chinese notation. The moves must
    /// be legal and leave the game unfinished.
    pub fn parse(line: &str) -> Result<Opening, String> {
        let line = line.trim();
        let line = line.strip_prefix("position ").unwrap_or(line).trim();
        let (head, tail) = match line.find(" moves") {
            Some(i) => (line[..i].trim(), line[i + " moves".len()..].trim()),
            None => (line, ""),
        };
        let head = head.strip_prefix("fen ").unwrap_or(head).trim();
        let (start, standard) = if head == "startpos" {
            (Position::startpos(), true)
        } else {
            let pos = Position::from_fen(head).map_err(|e| e.to_string())?;
            let standard = pos.to_fen() == START_FEN;
            (pos, standard)
        };
        let mut game = Game::new(start.clone());
        let mut moves = Vec::new();
        for text in tail.split_whitespace() {
            let m = match notation::parse_move(game.position(), text) {
                Ok(m) => m,
                Err(NotationError::NotLegal { .. }) => return Err(format!("illegal opening move '{text}'")),
                Err(e) => return Err(e.to_string()),
            };
            game.play(m).map_err(|_| format!("illegal opening move '{text}'"))?;
            moves.push(m);
        }
        if let Some(v) = game.verdict() {
            return Err(format!("the opening already ends the game ({})", v.reason));
        }
        Ok(Opening { start, standard, moves })
    }

    /// A game record with the opening moves played.
    pub fn game(&self) -> Game {
        let mut game = Game::new(self.start.clone());
        for &m in &self.moves {
            // Checked legal when the opening was parsed.
            let _ = game.play(m);
        }
        game
    }
}

/// Reads openings from text: one per line; blank lines and `#` comments skipped. Errors name
/// the line.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (n, line) in content_lines(text) {
        out.push(Opening::parse(line).map_err(|e| format!("line {n}: {e}"))?);
    }
    if out.is_empty() {
        return Err("no openings found".to_string());
    }
    Ok(out)
}

/// The openings of the file at `path`, or the built-in set without one.
pub fn load_openings(path: Option<&str>) -> Result<Vec<Opening>, String> {
    match path {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("cannot read openings '{path}': {e}"))?;
            parse_openings(&super::text::decode(&bytes)).map_err(|e| format!("{path}: {e}"))
        }
        None => Ok(default_openings()),
    }
}

/// The built-in openings: Red's main first moves with Black's usual answers (central cannon,
/// pawn openings, elephant and horse openings, palace-corner and cross-palace cannons).
pub const DEFAULT_OPENINGS: &[&str] = &[
    // Central cannon (h2e2): screen horses, same- and opposite-direction cannons, 3rd pawn.
    "h2e2 h9g7",
    "h2e2 b9c7",
    "h2e2 h7e7",
    "h2e2 b7e7",
    "h2e2 g6g5",
    "h2e2 h9g7 h0g2 i9h9",
    "h2e2 h9g7 h0g2 b9c7",
    "h2e2 b9c7 h0g2 h7f7",
    // Left central cannon.
    "b2e2 b9c7",
    "b2e2 h9g7",
    "b2e2 b7e7",
    "b2e2 h7e7",
    "b2e2 c6c5",
    // Pawn openings.
    "c3c4 g6g5",
    "c3c4 c6c5",
    "c3c4 b7c7",
    "c3c4 h7e7",
    "c3c4 c9e7",
    "c3c4 h9g7",
    "g3g4 c6c5",
    "g3g4 g6g5",
    "g3g4 h7g7",
    "g3g4 b7e7",
    "g3g4 g9e7",
    "g3g4 b9c7",
    // Elephant openings.
    "c0e2 h7e7",
    "c0e2 b7e7",
    "c0e2 g6g5",
    "c0e2 c6c5",
    "c0e2 h9g7",
    "c0e2 c9e7",
    "g0e2 b7e7",
    "g0e2 h7e7",
    "g0e2 c6c5",
    "g0e2 g6g5",
    "g0e2 b9c7",
    // Horse openings.
    "h0g2 g6g5",
    "h0g2 c6c5",
    "h0g2 h9g7",
    "h0g2 b9c7",
    "h0g2 h7e7",
    "b0c2 c6c5",
    "b0c2 g6g5",
    "b0c2 b9c7",
    "b0c2 h9g7",
    "b0c2 b7e7",
    // Palace-corner and cross-palace cannons.
    "h2f2 h9g7",
    "h2f2 b9c7",
    "h2f2 h7e7",
    "h2f2 c6c5",
    "b2d2 b9c7",
    "b2d2 h9g7",
    "b2d2 b7e7",
    "b2d2 g6g5",
    "h2d2 h9g7",
    "h2d2 b9c7",
    "h2d2 c6c5",
    "b2f2 b9c7",
    "b2f2 h9g7",
    "b2f2 g6g5",
];

/// The built-in openings, parsed.
pub fn default_openings() -> Vec<Opening> {
    DEFAULT_OPENINGS.iter().filter_map(|m| Opening::parse(&format!("startpos moves {m}")).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_opening_is_legal_unfinished_and_distinct() {
        assert!(DEFAULT_OPENINGS.len() >= 50);
        for text in DEFAULT_OPENINGS {
            let o = Opening::parse(&format!("startpos moves {text}")).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(o.moves.len(), text.split_whitespace().count());
            assert!(o.game().verdict().is_none(), "{text} ends the game");
            assert!(o.game().position().has_legal_move());
        }
        assert_eq!(default_openings().len(), DEFAULT_OPENINGS.len());
        let mut seen = std::collections::HashSet::new();
        for o in default_openings() {
            assert!(seen.insert(o.game().position().key()), "duplicate opening");
        }
    }

    #[test]
    fn parses_fen_and_startpos_lines() {
        let text = "# comment\n\nstartpos\nstartpos moves h2e2 h9g7\n\
                    fen 4k4/9/9/9/9/9/9/9/4A4/3K1R3 w - - 0 1 moves f0f1\n\
                    4k4/9/9/9/9/9/9/9/4A4/3K1R3 b - - 0 1\n";
        let ops = parse_openings(text).unwrap();
        assert_eq!(ops.len(), 4);
        assert!(ops[0].standard && ops[0].moves.is_empty());
        assert_eq!(ops[1].moves.len(), 2);
        assert!(!ops[2].standard);
        assert_eq!(ops[2].moves[0].to_string(), "f0f1");
        assert!(parse_openings("startpos moves h2h8").unwrap_err().starts_with("line 1:"));
        let chinese = parse_openings("startpos moves 炮二平五 马８进７\nstartpos moves C2=5 H8+7").unwrap();
        assert_eq!(chinese[0].moves, ops[1].moves);
        assert_eq!(chinese[1].moves, ops[1].moves);
        assert_eq!(
            parse_openings("startpos moves 炮二平六 炮8平5 车一进四").unwrap_err(),
            "line 1: illegal opening move '车一进四'"
        );
        assert_eq!(parse_openings("not a fen").unwrap_err().to_string(), "line 1: invalid FEN: 1 ranks, expected 10");
        assert_eq!(parse_openings("# nothing\n").unwrap_err().to_string(), "no openings found");
    }
}
