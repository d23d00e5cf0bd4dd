//! `chuhe play`'s flags, help text and their checked form, `Config`.

use super::board::Look;
use super::input::Notation;
use crate::board::{Color, Position};
use crate::book::Books;
use crate::cli::Args;
use crate::matches::engine::Limit;
use crate::search::{Limits, Strength, ELO_RANGE, MAX_SKILL};

/// One line for `chuhe --help`.
pub const ABOUT: &str = "play a game against the engine in the terminal";

/// `chuhe play --help`.
pub const HELP: &str = "\
usage:
  chuhe play [--side red|black] [--level 0-20 | --elo N] [--time M+S | --movetime MS]
             [--depth D] [--nodes N] [--book FILE] [--fen FEN] [--pgn-out FILE]
             [--letters] [--plain] [--notation iccs|wxf|chinese] [--seed N]

options (--name VALUE or --name=VALUE):
  --side red|black     the side you play (default red; Red moves first)
  --level L            the engine's skill level, 0 (weakest) to 20 (full strength, default)
  --elo N              the engine's strength on the calibrated Elo scale (363 to 2500),
                       instead of --level (docs/strength.md)
  --time M+S           a clock for both sides: M minutes each, S seconds added per move
                       (5+3, 10, 3+0.5); running out of time loses
  --movetime MS        the engine thinks MS milliseconds a move, no clock (default 2000 when
                       neither --time, --movetime, --depth nor --nodes is given)
  --depth D            the engine searches D plies a move (1 to 64)
  --nodes N            the engine searches N nodes a move (fixed replies, for tests)
  --book FILE          an opening book (Chuhe's or ElephantEye's format; several as
                       'A;B'): the engine plays its book moves while it has them
                       (default: no book)
  --fen FEN            the position to start from (default: the start position)
  --pgn-out FILE       where the game is saved as PGN when it ends or you quit (default:
                       chuhe-play-DATE-TIME.pgn in the current directory; a game with no
                       move is not saved)
  --letters            pieces as letters (K A B N R C P; upper case Red) instead of Chinese
  --plain              no colours: a plain text board (also when TERM is dumb, NO_COLOR is
                       set or the output is not a terminal)
  --notation N         how moves are shown: iccs (default), wxf, chinese; moves are
                       typed in any of the three
  --seed N             seed of the book's and the weaker levels' random choices (default:
                       the clock)

You type moves in ICCS (h2e2), WXF (C2=5) or Chinese (炮二平五) at the prompt under the
board, or a command: undo (takes back the engine's reply and your move), hint, draw (the
engine accepts when its score is +0.20 or less), resign, flip, save FILE, help, quit.
Every end of game is announced with the rule that ended it (checkmate, stalemate, perpetual
check or chase, repetition, the 60-move rule, insufficient material), as 'chuhe judge'
rules it.

examples:
  chuhe play
  chuhe play --level 5 --time 10+5
  chuhe play --side black --elo 1500 --letters --pgn-out /tmp/game.pgn
";

/// `--movetime` when no limit is given, milliseconds.
pub const DEFAULT_MOVETIME_MS: u64 = 2000;

/// A game's settings, checked.
pub struct Config {
    /// The player's side.
    pub side: Color,
    /// How much the engine holds back.
    pub strength: Strength,
    /// The strength in words (`level 20`, `Elo 1500`).
    pub strength_text: String,
    /// The engine's per-move limits (depth, nodes, move time); the clock is added per move.
    pub limits: Limits,
    /// A clock for both sides: (start, increment) in milliseconds.
    pub clock: Option<(u64, u64)>,
    /// The opening books and their names.
    pub books: Books,
    /// The book files as given.
    pub book_text: Option<String>,
    /// The start position.
    pub start: Position,
    /// Where the PGN goes.
    pub pgn_out: String,
    /// Chinese or letters (the plain look is decided by the terminal, or `--plain`).
    pub look: Look,
    /// `--plain`.
    pub plain: bool,
    /// How moves are shown.
    pub notation: Notation,
    /// Seed of the random choices, if fixed.
    pub seed: Option<u64>,
}

impl Config {
    /// Reads the flags.
    pub fn parse(args: &[String]) -> Result<Config, String> {
        let valued = [
            "side", "level", "elo", "time", "movetime", "depth", "nodes", "book", "fen", "pgn-out", "notation", "seed",
        ];
        let a = Args::parse(args, &valued, &["letters", "plain"])?;
        let side = match a.value("side").unwrap_or("red").to_ascii_lowercase().as_str() {
            "red" | "r" | "w" => Color::Red,
            "black" | "b" => Color::Black,
            other => return Err(format!("--side '{other}' must be red or black")),
        };
        let (strength, strength_text) = match (a.value("level"), a.value("elo")) {
            (Some(_), Some(_)) => return Err("give --level or --elo, not both".into()),
            (_, Some(_)) => {
                let elo = a.number("elo", ELO_RANGE.0 as u64, ELO_RANGE.1 as u64, None)? as i32;
                (Strength::elo(elo), format!("Elo {elo}"))
            }
            _ => {
                let level = a.number("level", 0, MAX_SKILL as u64, Some(MAX_SKILL as u64))?;
                (Strength::skill(level as f64), format!("level {level}"))
            }
        };
        let clock = a.value("time").map(parse_time).transpose()?;
        let mut limits = Limits {
            depth: a.value("depth").map(|_| a.number("depth", 1, 64, None)).transpose()?.map(|d| d as u32),
            nodes: a.value("nodes").map(|_| a.number("nodes", 1, u64::MAX, None)).transpose()?,
            movetime_ms: a.value("movetime").map(|_| a.number("movetime", 1, 3_600_000, None)).transpose()?,
            ..Limits::default()
        };
        if clock.is_some() && limits.movetime_ms.is_some() {
            return Err("give --time or --movetime, not both".into());
        }
        if clock.is_none() && limits.depth.is_none() && limits.nodes.is_none() && limits.movetime_ms.is_none() {
            limits.movetime_ms = Some(DEFAULT_MOVETIME_MS);
        }
        let book_text = a.value("book").map(String::from);
        let books = Books::load_list(book_text.as_deref().unwrap_or("")).map_err(|e| format!("--book: {e}"))?;
        let start = a.position()?;
        let notation = match a.value("notation") {
            None => Notation::Iccs,
            Some(n) => {
                Notation::from_name(n).ok_or_else(|| format!("--notation '{n}' must be iccs, wxf or chinese"))?
            }
        };
        Ok(Config {
            side,
            strength,
            strength_text,
            limits,
            clock,
            books,
            book_text,
            start,
            pgn_out: a.value("pgn-out").map_or_else(default_pgn_name, String::from),
            look: if a.flag("letters") { Look::Letters } else { Look::Chinese },
            plain: a.flag("plain"),
            notation,
            seed: a.value("seed").map(|_| a.number("seed", 0, u64::MAX, None)).transpose()?,
        })
    }

    /// The engine's limit as PGN's `[TimeControl]` names it.
    pub fn engine_limit(&self) -> Limit {
        match (self.clock, self.limits.movetime_ms, self.limits.depth, self.limits.nodes) {
            (Some((base_ms, inc_ms)), ..) => Limit::Clock { moves: 0, base_ms, inc_ms },
            (None, Some(ms), ..) => Limit::MoveTime(ms),
            (None, None, Some(d), _) => Limit::Depth(d),
            (None, None, None, n) => Limit::Nodes(n.unwrap_or(0)),
        }
    }

    /// The engine's settings in words, for the screen.
    pub fn engine_text(&self) -> String {
        let mut parts = vec![self.strength_text.clone()];
        if let Some((base, inc)) = self.clock {
            parts.push(format!("{}+{}", seconds_text(base / 60), seconds_text(inc)));
        }
        if let Some(ms) = self.limits.movetime_ms {
            parts.push(format!("{}s/move", seconds_text(ms)));
        }
        if let Some(d) = self.limits.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.limits.nodes {
            parts.push(format!("{n} nodes"));
        }
        parts.join(", ")
    }
}

/// Milliseconds as seconds without trailing zeros (`0.05`, `3`); minutes when given
/// milliseconds / 60.
fn seconds_text(ms: u64) -> String {
    crate::matches::engine::seconds(ms)
}

/// `M+S` (minutes, seconds added per move) or `M` into milliseconds.
pub fn parse_time(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--time '{text}' must be MINUTES+SECONDS, like 5+3 or 10");
    let (m, s) = text.split_once('+').unwrap_or((text, "0"));
    let number = |t: &str, hi: f64| t.trim().parse::<f64>().ok().filter(|x| x.is_finite() && (0.0..=hi).contains(x));
    let (m, s) = (number(m, 600.0).ok_or_else(bad)?, number(s, 600.0).ok_or_else(bad)?);
    let base = (m * 60_000.0).round() as u64;
    if base == 0 {
        return Err(bad());
    }
    Ok((base, (s * 1000.0).round() as u64))
}

/// `chuhe-play-YYYYMMDD-HHMMSS.pgn` (UTC), so games do not overwrite each other.
fn default_pgn_name() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let date = crate::matches::pgn::today().replace('.', "");
    let t = secs % 86_400;
    format!("chuhe-play-{date}-{:02}{:02}{:02}.pgn", t / 3600, t / 60 % 60, t % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn defaults_and_limits() {
        let c = Config::parse(&[]).unwrap();
        assert_eq!((c.side, c.strength, c.look, c.plain), (Color::Red, Strength::FULL, Look::Chinese, false));
        assert_eq!(c.limits.movetime_ms, Some(DEFAULT_MOVETIME_MS));
        assert!(c.pgn_out.starts_with("chuhe-play-") && c.pgn_out.ends_with(".pgn"), "{}", c.pgn_out);
        let c = Config::parse(&words("--side black --depth 2 --level 5 --letters")).unwrap();
        assert_eq!((c.side, c.limits.depth, c.limits.movetime_ms), (Color::Black, Some(2), None));
        assert_eq!((c.strength, c.look), (Strength::skill(5.0), Look::Letters));
        assert_eq!(c.engine_text(), "level 5, depth 2");
        let c = Config::parse(&words("--time 5+0.05 --elo 1500")).unwrap();
        assert_eq!((c.clock, c.limits.movetime_ms), (Some((300_000, 50)), None));
        assert_eq!(c.engine_text(), "Elo 1500, 5+0.05");
        assert_eq!(c.engine_limit(), Limit::Clock { moves: 0, base_ms: 300_000, inc_ms: 50 });
    }

    #[test]
    fn bad_flags_are_refused() {
        let err = |s: &str| Config::parse(&words(s)).err().unwrap_or_default();
        assert!(err("--side green").contains("red or black"));
        assert!(err("--level 21").contains("--level '21'"));
        assert!(err("--level 3 --elo 1500").contains("not both"));
        assert!(err("--time 5 --movetime 100").contains("not both"));
        assert!(err("--time 0").contains("--time '0'"));
        assert!(err("--time x+1").contains("MINUTES+SECONDS"));
        assert!(err("--notation san").contains("iccs, wxf or chinese"));
        assert!(err("--book /nonexistent/book").starts_with("--book: "));
        assert!(!err("--fen bogus").is_empty());
    }

    #[test]
    fn time_controls() {
        assert_eq!(parse_time("10"), Ok((600_000, 0)));
        assert_eq!(parse_time("3+2"), Ok((180_000, 2000)));
        assert_eq!(parse_time("0.5+0.1"), Ok((30_000, 100)));
        assert!(parse_time("-1+0").is_err() && parse_time("5+").is_err());
    }
}
