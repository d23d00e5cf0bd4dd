//! Rank numbering in an engine's move text: ICCS ranks 0–9 (UCCI, UCI engines such as Pikafish
//! and Chuhe, CECP/XBoard) or 1–10 (Fairy-Stockfish's UCI mode: `h3e3` for `h2e2`, `b10c8`).

/// How an engine numbers ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranks {
    /// 0–9, as ICCS writes them (`h2e2`).
    FromZero,
    /// 1–10, as Fairy-Stockfish's UCI xiangqi mode writes them (`h3e3`).
    FromOne,
}

/// Move text as (from file, from rank, to file, to rank, rest), ranks as written; `rest` is
/// whatever follows the destination (a promotion letter in other games).
fn squares(text: &str) -> Option<(char, u32, char, u32, &str)> {
    let file = |s: &str| s.chars().next().filter(|c| ('a'..='i').contains(c));
    let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let f1 = file(text)?;
    let n1 = digits(&text[1..]);
    let after = &text[1 + n1..];
    let f2 = file(after)?;
    let n2 = digits(&after[1..]);
    if n1 == 0 || n2 == 0 || n1 > 2 || n2 > 2 {
        return None;
    }
    let r1 = text[1..1 + n1].parse().ok()?;
    let r2 = after[1..1 + n2].parse().ok()?;
    Some((f1, r1, f2, r2, &after[1 + n2..]))
}

impl Ranks {
    /// Our move text (`h2e2`) as the engine writes it; anything else unchanged.
    pub fn to_engine(self, text: &str) -> String {
        match (self, squares(text)) {
            (Ranks::FromOne, Some((f1, r1, f2, r2, rest))) => format!("{f1}{}{f2}{}{rest}", r1 + 1, r2 + 1),
            _ => text.to_string(),
        }
    }

    /// The engine's move text with ranks 0–9; anything that is not a move is unchanged.
    pub fn to_ours(self, text: &str) -> String {
        match (self, squares(text)) {
            (Ranks::FromOne, Some((f1, r1, f2, r2, rest))) if r1 >= 1 && r2 >= 1 => {
                format!("{f1}{}{f2}{}{rest}", r1 - 1, r2 - 1)
            }
            _ => text.to_string(),
        }
    }

    /// `line` with every word after the first `keyword` (`moves`, `pv`) passed through `f`.
    pub fn after_keyword(line: &str, keyword: &str, f: impl Fn(&str) -> String) -> String {
        let mut seen = false;
        let words: Vec<String> = line
            .split_whitespace()
            .map(|w| {
                let out = if seen { f(w) } else { w.to_string() };
                seen |= w == keyword;
                out
            })
            .collect();
        words.join(" ")
    }
}

/// A position whose only legal move tells the numbering: Red's king on e0 in check from a rook
/// on a0 can only step to e1 (`e0e1` from zero, `e1e2` from one; `e1e2` is no move at all in
/// ICCS, since e1 is empty).
pub const PROBE_FEN: &str = "3k5/9/9/9/9/9/9/9/9/r3K4 w - - 0 1";

/// The numbering an engine's answer to [`PROBE_FEN`] shows, if it shows one.
pub fn from_probe(answer: &str) -> Option<Ranks> {
    match answer {
        "e0e1" => Some(Ranks::FromZero),
        "e1e2" => Some(Ranks::FromOne),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Position};

    #[test]
    fn renumbers_both_ways() {
        let one = Ranks::FromOne;
        assert_eq!(one.to_engine("h2e2"), "h3e3");
        assert_eq!(one.to_engine("b9c7"), "b10c8");
        assert_eq!(one.to_ours("b10c8"), "b9c7");
        assert_eq!(one.to_ours("a1a10"), "a0a9");
        assert_eq!(one.to_ours("(none)"), "(none)");
        assert_eq!(one.to_ours("e0e1"), "e0e1"); // no rank 0 from one: left for the rules to refuse
        assert_eq!(Ranks::FromZero.to_engine("h2e2"), "h2e2");
        assert_eq!(Ranks::FromZero.to_ours("b10c8"), "b10c8");
        let line = "position fen 9/9 w - - 0 1 moves h2e2 h9g7";
        assert_eq!(
            Ranks::after_keyword(line, "moves", |m| one.to_engine(m)),
            "position fen 9/9 w - - 0 1 moves h3e3 h10g8"
        );
    }

    #[test]
    fn the_probe_has_one_legal_move() {
        let pos = Position::from_fen(PROBE_FEN).unwrap();
        let moves: Vec<String> = pos.legal_moves().iter().map(|m: &Move| m.to_string()).collect();
        assert_eq!(moves, vec!["e0e1".to_string()]);
        assert_eq!(from_probe("e0e1"), Some(Ranks::FromZero));
        assert_eq!(from_probe("e1e2"), Some(Ranks::FromOne));
        assert_eq!(from_probe("a0a1"), None);
    }
}
