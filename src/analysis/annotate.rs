//! An analysed game as annotated PGN: the game's tags (with `[Annotator]`), every move with
//! its mark and its evaluation in Red's view (`{+0.35/14}`), and where the engine preferred
//! another move, that move's line as a variation with its evaluation.

use super::{Analysis, RedScore};
use crate::board::{Color, Move, Position};
use crate::rules::GameResult;
use std::fmt::Write;

/// Plies of the engine's line shown in a variation.
pub const LINE_PLIES: usize = 10;

/// What to write.
pub struct Annotated<'a> {
    /// The game's tags, in order (`[Format]` and `[Annotator]` are set here).
    pub tags: &'a [(String, String)],
    /// The result to end the move text with (`None`: `*`).
    pub result: Option<GameResult>,
    /// The game's start and moves.
    pub start: &'a Position,
    /// The moves played.
    pub moves: &'a [Move],
    /// The analysis of those moves.
    pub analysis: &'a Analysis,
    /// `[Annotator]`: the engine and its limits.
    pub annotator: &'a str,
    /// `[Format]`: the notation the moves are written in.
    pub format: &'a str,
    /// Writes a move of a position in that notation.
    pub write_move: &'a dyn Fn(&Position, Move) -> String,
}

/// `{+0.35/14}`: a score and its depth.
fn comment(score: RedScore, depth: u32) -> String {
    format!("{{{}/{depth}}}", score.text())
}

/// The tokens of a line of moves from `pos` (move `number`, `side` to play), `first` after the
/// first move.
fn line_tokens(a: &Annotated, mut pos: Position, line: &[Move], first: Option<String>) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut number = pos.fullmove_number().max(1);
    for (j, &m) in line.iter().enumerate() {
        let prefix = match pos.side_to_move() {
            Color::Red => format!("{number}. "),
            Color::Black if j == 0 => format!("{number}... "),
            Color::Black => String::new(),
        };
        tokens.push(prefix + &(a.write_move)(&pos, m));
        if j == 0 {
            tokens.extend(first.clone());
        }
        if pos.side_to_move() == Color::Black {
            number += 1;
        }
        pos.make_move(m);
    }
    tokens
}

/// The summary comment before the moves: each side's marks and average loss.
fn summary(a: &Annotated) -> String {
    use super::Mark::*;
    let side = |c: Color| {
        let n = |m, word: &str| {
            let k = a.analysis.count(c, m);
            format!("{k} {word}{}", if k == 1 { "" } else { "s" })
        };
        format!(
            "{} {}, {}, {}, average loss {:.1}%",
            c.name(),
            n(Inaccuracy, "inaccuracy").replace("inaccuracys", "inaccuracies"),
            n(Mistake, "mistake"),
            n(Blunder, "blunder"),
            a.analysis.average_loss(c)
        )
    };
    format!("{{{}: {}; {}}}", a.annotator, side(Color::Red), side(Color::Black))
}

/// The annotated game as PGN text, ending with a blank line.
pub fn write(a: &Annotated) -> String {
    let mut s = String::new();
    let mut tags: Vec<(String, String)> = a
        .tags
        .iter()
        .filter(|(k, _)| !k.eq_ignore_ascii_case("Annotator") && !k.eq_ignore_ascii_case("Format"))
        .cloned()
        .collect();
    tags.push(("Annotator".into(), a.annotator.into()));
    tags.push(("Format".into(), a.format.into()));
    for (k, v) in &tags {
        let _ = writeln!(s, "[{k} \"{}\"]", v.replace('\\', "\\\\").replace('"', "\\\""));
    }
    s.push('\n');
    let mut tokens: Vec<String> = summary(a).split(' ').map(String::from).collect();
    let mut pos = a.start.clone();
    let mut needs_number = true;
    for (i, &m) in a.moves.iter().enumerate() {
        let number = pos.fullmove_number().max(1);
        let prefix = match pos.side_to_move() {
            Color::Red => format!("{number}. "),
            Color::Black if needs_number => format!("{number}... "),
            Color::Black => String::new(),
        };
        let report = &a.analysis.moves[i];
        let after = &a.analysis.positions[i + 1];
        tokens.push(prefix + &(a.write_move)(&pos, m) + report.mark.map_or("", |k| k.glyph()));
        tokens.push(comment(after.score, after.depth));
        needs_number = false;
        if a.analysis.best_differs(i) {
            let here = &a.analysis.positions[i];
            let line = &here.line[..here.line.len().min(LINE_PLIES)];
            let first = Some(comment(here.score, here.depth));
            let mut variation = line_tokens(a, pos.clone(), line, first);
            variation[0] = format!("({}", variation[0]);
            if let Some(last) = variation.last_mut() {
                last.push(')');
            }
            tokens.extend(variation);
            needs_number = true;
        }
        pos.make_move(m);
    }
    tokens.push(a.result.map_or("*".to_string(), |r| r.to_string()));
    wrap(&mut s, &tokens);
    s.push_str("\n\n");
    s
}

/// `tokens` joined by spaces in lines of at most 79 characters (a longer token alone).
fn wrap(s: &mut String, tokens: &[String]) {
    let mut width = 0;
    for t in tokens {
        let n = t.chars().count();
        if width > 0 && width + 1 + n > 79 {
            s.push('\n');
            width = 0;
        } else if width > 0 {
            s.push(' ');
            width += 1;
        }
        s.push_str(t);
        width += n;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Mark, MoveReport, Searched};
    use super::*;
    use crate::matches::pgn::{iccs, read_games};

    fn searched(cp: i32, line: &[&str]) -> Searched {
        let line = line.iter().map(|m| Move::parse(m).unwrap()).collect();
        Searched { score: RedScore::Cp(cp), red_expected: 0.5, depth: 3, line }
    }

    #[test]
    fn marks_comments_and_variations_read_back() {
        let start = Position::startpos();
        let moves: Vec<Move> = ["h2e2", "h9g7", "h0g2"].iter().map(|m| Move::parse(m).unwrap()).collect();
        let report =
            |i: usize, mark| MoveReport { mv: moves[i], mover: [Color::Red, Color::Black][i % 2], drop: 0.0, mark };
        let analysis = Analysis {
            positions: vec![
                searched(20, &["h2e2", "h9g7"]),
                searched(25, &["b9c7", "b0c2"]),
                searched(-300, &["h0g2"]),
                searched(-290, &["c6c5"]),
            ],
            moves: vec![report(0, None), report(1, Some(Mark::Blunder)), report(2, None)],
        };
        let tags = vec![("Red".to_string(), "A".to_string()), ("Format".to_string(), "ICCS".to_string())];
        let write_move = |_: &Position, m: Move| iccs(m);
        let a = Annotated {
            tags: &tags,
            result: None,
            start: &start,
            moves: &moves,
            analysis: &analysis,
            annotator: "Chuhe test",
            format: "ICCS",
            write_move: &write_move,
        };
        let text = write(&a);
        assert!(text.starts_with("[Red \"A\"]\n[Annotator \"Chuhe test\"]\n[Format \"ICCS\"]\n\n"), "{text}");
        assert!(
            text.replace('\n', " ")
                .contains("1. H2-E2 {+0.25/3} H9-G7?? {-3.00/3} (1... B9-C7 {+0.25/3} 2. B0-C2) 2. H0-G2 {-2.90/3} *"),
            "{text}"
        );
        assert!(
            text.contains("Red 0 inaccuracies, 0 mistakes, 0 blunders")
                && text.contains("Black 0 inaccuracies, 0 mistakes, 1 blunder,")
        );
        let back = read_games(&text);
        assert_eq!(back[0].moves, ["H2-E2", "H9-G7", "H0-G2"]);
    }

    #[test]
    fn long_text_wraps() {
        let mut s = String::new();
        wrap(&mut s, &vec!["abcdefghij".to_string(); 20]);
        assert!(s.lines().all(|l| l.len() <= 79) && s.lines().count() == 3);
    }
}
