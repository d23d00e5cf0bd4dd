//! `chuhe judge [--fen FEN] [--moves "..."] | --file FILE [--json]`: plays each game record
//! through the rules and prints its verdict, one line per game (see docs/rules.md).

use super::Args;
use crate::board::{Move, Position};
use crate::lines::content_lines;
use crate::rules::{Game, Verdict};

/// A parsed game record: start position and moves.
struct Record {
    start: Position,
    moves: Vec<Move>,
}

fn parse_moves<'a>(tokens: impl Iterator<Item = &'a str>) -> Result<Vec<Move>, String> {
    tokens.map(|t| Move::parse(t).map_err(|e| e.to_string())).collect()
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
        _ => return Err("expected 'startpos' or 'fen <FEN>'".to_string()),
    };
    let moves = parse_moves(tail.iter().skip(1).copied())?;
    Ok(Record { start, moves })
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
    if json {
        game.verdict_json(verdict.as_ref(), illegal.as_ref())
    } else {
        match verdict {
            Some(v) => format!("{} {{{}}}", v.result, v.reason),
            None => "* {game goes on}".to_string(),
        }
    }
}

/// Runs the judge; every record is parsed before any is judged, so bad input prints nothing
/// on stdout.
pub fn run(args: &[String]) -> Result<(), String> {
    let a = Args::parse(args, &["fen", "moves", "file"], &["json"])?;
    let records = match a.value("file") {
        Some(path) => {
            if a.value("fen").is_some() || a.value("moves").is_some() {
                return Err("--file cannot be combined with --fen or --moves".to_string());
            }
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
            let mut records = Vec::new();
            for (n, line) in content_lines(&text) {
                records.push(parse_line(line).map_err(|e| format!("{path} line {n}: {e}"))?);
            }
            records
        }
        None => {
            let start = a.position()?;
            let moves = parse_moves(a.value("moves").unwrap_or("").split_whitespace())?;
            vec![Record { start, moves }]
        }
    };
    let json = a.flag("json");
    let mut out = String::new();
    for rec in &records {
        out.push_str(&judge(rec, json));
        out.push('\n');
    }
    print!("{out}");
    Ok(())
}
