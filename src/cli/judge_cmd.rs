//! `chuhe judge [--fen FEN] [--moves "..."] | --file FILE [--json]`: plays each game record
//! through the rules and prints its verdict, one line per game (see docs/rules.md). A file is
//! either one record per line or PGN.

use super::Args;
use crate::board::{Move, Position};
use crate::lines::content_lines;
use crate::matches::pgn::{read_games, PgnGame};
use crate::matches::text::{decode, read_file};
use crate::notation;
use crate::rules::{json_string, Game, GameResult, Verdict};

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "apply the rules to games (moves, record files, PGN): who won, and why";

/// `chuhe judge --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe judge [--fen FEN] [--moves \"M1 M2 ...\"] [--json]
  chuhe judge [--file] FILE [--json]

options (--name VALUE or --name=VALUE):
  --fen FEN       the position the moves start from (default: the start position)
  --moves \"...\"   the moves, each in ICCS (h2e2, H2-E2), WXF (C2=5, H8+7) or Chinese
                  (炮二平五, 马８进７); PGN move numbers and comments are skipped; default: none
  [--file] FILE   the games of FILE ('-': stdin), either one per line, 'startpos moves ...'
                  or 'fen FEN moves ...' ('#' comments), or Chinese-chess PGN (tags, [FEN],
                  move numbers, {comments}; a file whose first line is a [tag] or a move
                  number), one game or many; moves in ICCS, WXF or Chinese ([Format] tag,
                  else detected); UTF-8 or GBK
  --json          one JSON object per game: rule, losing side, every cycle move's class

Plays each game until the rules end it (checkmate, stalemate, Asian-rules repetition with
perpetual check and chase, 60-move rule, insufficient material, an illegal move) and prints
'<result> {<reason>}': 1-0, 0-1, 1/2-1/2, or '* {game goes on}'. A PGN game's line starts
with 'game N (Red vs Black):' and ends with what the PGN says when its [Result] differs.

examples:
  chuhe judge --moves \"h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9\"
  chuhe judge --fen \"4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1\" --moves \"A1-A9 E9-E8 A9-A8 E8-E9\" --json
  chuhe judge samples/games.pgn                             # in the source directory
  chuhe judge --file samples/games.txt
";

/// A parsed game record: start position and moves, and for a PGN game what the PGN says.
struct Record {
    start: Position,
    moves: Vec<Move>,
    pgn: Option<PgnLabel>,
}

/// How a PGN game is named in the output, and the result its PGN records.
struct PgnLabel {
    number: usize,
    red: String,
    black: String,
    result: Option<GameResult>,
    termination: Option<String>,
}

/// Moves of `--moves` or a record line from `start`, each in ICCS (with or without hyphens),
/// WXF or Chinese; an illegal ICCS move is kept for the rules to judge.
fn parse_moves<'a>(start: &Position, tokens: impl Iterator<Item = &'a str>) -> Result<Vec<Move>, String> {
    notation::parse_moves(start, tokens, None)
}

/// Parses one line in the protocol's form: `[position] startpos|fen <FEN> [moves m1 m2 ...]`.
fn parse_line(line: &str) -> Result<Record, String> {
    let mut tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.first() == Some(&"position") {
        tokens.remove(0);
    }
    let moves_at = tokens.iter().position(|&t| t == "moves").unwrap_or(tokens.len());
    let (head, tail) = tokens.split_at(moves_at);
    let start = match head.first() {
        Some(&"startpos") if head.len() == 1 => Position::startpos(),
        Some(&"startpos") => return Err(format!("unexpected '{}' after startpos", head[1])),
        Some(&"fen") if head.len() > 1 => Position::from_fen(&head[1..].join(" ")).map_err(|e| e.to_string())?,
        Some(&"fen") => return Err("'fen' needs a FEN".to_string()),
        _ => return Err("expected 'startpos' or 'fen <FEN>' (or a PGN file)".to_string()),
    };
    let moves = parse_moves(&start, tail.iter().skip(1).copied())?;
    Ok(Record { start, moves, pgn: None })
}

/// Whether `text` is PGN: its first line with content is a tag or starts with a move number.
fn is_pgn(text: &str) -> bool {
    let first = text.trim_start_matches('\u{feff}').lines().map(str::trim).find(|l| !l.is_empty());
    first.is_some_and(|l| {
        let digits = l.len() - l.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        l.starts_with('[') || (digits > 0 && l[digits..].starts_with('.'))
    })
}

/// The record of the `number`-th game of a PGN file.
fn pgn_record(g: &PgnGame, number: usize) -> Result<Record, String> {
    let (start, moves) = g.start_and_moves()?;
    let label = PgnLabel {
        number,
        red: g.red.clone(),
        black: g.black.clone(),
        result: g.result,
        termination: g.tag("Termination").map(String::from),
    };
    Ok(Record { start, moves, pgn: Some(label) })
}

/// The records of a file's text, every one parsed before any is judged.
fn parse_file(path: &str, text: &str) -> Result<Vec<Record>, String> {
    if is_pgn(text) {
        let games = read_games(text);
        if games.is_empty() {
            return Err(format!("{path}: no games"));
        }
        let record = |(i, g): (usize, &PgnGame)| {
            pgn_record(g, i + 1).map_err(|e| format!("{path} game {} (line {}): {e}", i + 1, g.line))
        };
        games.iter().enumerate().map(record).collect()
    } else {
        let records: Vec<Record> = content_lines(text)
            .map(|(n, line)| parse_line(line).map_err(|e| format!("{path} line {n}: {e}")))
            .collect::<Result<_, _>>()?;
        if records.is_empty() {
            return Err(format!("{path}: no games (one a line: 'startpos moves ...' or 'fen FEN moves ...'; or PGN)"));
        }
        Ok(records)
    }
}

/// Plays `rec` until its verdict (moves after the end are not examined) and renders it.
fn judge(rec: &Record, json: bool) -> String {
    let mut game = Game::new(rec.start.clone());
    let mut verdict = game.verdict();
    let mut illegal = None;
    for &m in &rec.moves {
        if verdict.is_some() {
            break;
        }
        match game.play(m) {
            Ok(()) => verdict = game.verdict(),
            Err(e) => {
                verdict = Some(Verdict::illegal(&e));
                illegal = Some(e);
            }
        }
    }
    let result = verdict.as_ref().map(|v| v.result);
    if json {
        let body = game.verdict_json(verdict.as_ref(), illegal.as_ref());
        return match &rec.pgn {
            None => body,
            Some(p) => {
                let said = p.result.map_or("*".to_string(), |r| r.to_string());
                format!(
                    "{{\"game\":{},\"red\":{},\"black\":{},\"pgn_result\":{},{}",
                    p.number,
                    json_string(&p.red),
                    json_string(&p.black),
                    json_string(&said),
                    &body[1..]
                )
            }
        };
    }
    let text = match verdict {
        Some(v) => format!("{} {{{}}}", v.result, v.reason),
        None => "* {game goes on}".to_string(),
    };
    let Some(p) = &rec.pgn else { return text };
    let mut line = format!("game {}", p.number);
    if !p.red.is_empty() || !p.black.is_empty() {
        let name = |n: &str| if n.is_empty() { "?".to_string() } else { n.to_string() };
        line += &format!(" ({} vs {})", name(&p.red), name(&p.black));
    }
    line += &format!(": {text}");
    if p.result != result {
        line += &format!("; the PGN says {}", p.result.map_or("*".to_string(), |r| r.to_string()));
        if let Some(t) = &p.termination {
            line += &format!(" ({t})");
        }
    }
    line
}

/// Runs the judge; every record is parsed before any is judged, so bad input prints nothing
/// on stdout.
pub fn run(args: &[String]) -> Result<(), String> {
    let a = Args::parse_with_positional(args, &["fen", "moves", "file"], &["json"], &["file"])?;
    let records = match a.value("file") {
        Some(path) => {
            if a.value("fen").is_some() || a.value("moves").is_some() {
                return Err("--file cannot be combined with --fen or --moves".to_string());
            }
            if path == "-" {
                let mut buf = Vec::new();
                std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf)
                    .map_err(|e| format!("cannot read stdin: {e}"))?;
                parse_file("stdin", &decode(&buf))?
            } else {
                parse_file(path, &read_file(path)?)?
            }
        }
        None => {
            let start = a.position()?;
            let moves = a.value("moves").map(read_games).unwrap_or_default();
            let moves = match moves.as_slice() {
                [] => Vec::new(),
                [g] => parse_moves(&start, g.moves.iter().map(String::as_str))?,
                _ => return Err("--moves holds more than one game (a result in the middle)".to_string()),
            };
            vec![Record { start, moves, pgn: None }]
        }
    };
    let json = a.flag("json");
    let mut out = String::new();
    for rec in &records {
        out.push_str(&judge(rec, json));
        out.push('\n');
    }
    out!("{out}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_is_told_from_record_lines() {
        for pgn in ["[Game \"Chinese Chess\"]\n", "\n\n1. H2-E2 H9-G7 *", "\u{feff}[Red \"A\"]", "12...E9-E8"] {
            assert!(is_pgn(pgn), "{pgn:?}");
        }
        for lines in ["startpos moves h2e2", "# a comment\nfen 9/9 w", "position startpos", "", "1x"] {
            assert!(!is_pgn(lines), "{lines:?}");
        }
    }

    #[test]
    fn a_pgn_line_names_the_game_and_a_result_the_rules_do_not_give() {
        let text = "[Red \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Termination \"time forfeit\"]\n1. H2-E2 1-0\n\n\
                    [Red \"B\"]\n[Black \"A\"]\n[Result \"1/2-1/2\"]\n\
                    1. H0-G2 H9-G7 2. G2-H0 G7-H9 3. H0-G2 H9-G7 4. G2-H0 G7-H9 1/2-1/2\n";
        let records = parse_file("t.pgn", text).unwrap();
        let lines: Vec<String> = records.iter().map(|r| judge(r, false)).collect();
        assert_eq!(
            lines,
            [
                "game 1 (A vs B): * {game goes on}; the PGN says 1-0 (time forfeit)",
                "game 2 (B vs A): 1/2-1/2 {Draw: repetition, plies 1-8}",
            ]
        );
        let json = judge(&records[1], true);
        assert!(json.starts_with(r#"{"game":2,"red":"B","black":"A","pgn_result":"1/2-1/2","result":"1/2-1/2","#));
    }

    #[test]
    fn bad_pgn_games_are_named_by_number_and_line() {
        let err = |text: &str| parse_file("g.pgn", text).err().unwrap_or_default();
        assert_eq!(
            err("[Red \"A\"]\n1. H2-E2 *\n\n[Red \"B\"]\n1. H2-X2 *\n"),
            "g.pgn game 2 (line 4): move 1: malformed move 'H2-X2': expected ICCS (h2e2), WXF (C2=5) or Chinese (炮二平五)"
        );
        assert!(err("[SetUp \"1\"]\n1. H2-E2 *\n").ends_with("[SetUp \"1\"] without a [FEN] tag"));
        assert!(err("[FEN \"9/9 w\"]\n*\n").starts_with("g.pgn game 1 (line 1): [FEN]: "));
        assert!(err("[Format \"WXF\"]\n1. h2e2 *\n")
            .ends_with("move 1: malformed move 'h2e2': expected WXF like C2=5, H8+7 or +R-1"));
        assert!(err("[Format \"XQF\"]\n1. C2+5 *\n")
            .ends_with("not a legal move for Red here (the game's [Format] is 'XQF')"));
        assert_eq!(err("[Format \"WXF\"]\n1. C2.5 *\n"), "");
        assert_eq!(err("[Red \"A\"]\n"), "");
        assert!(err("# only a comment\n").starts_with("g.pgn: no games"));
    }
}
