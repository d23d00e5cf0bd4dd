//! `chuhe match -resume`: the games a stopped match already wrote to its `-pgnout` file. The
//! runner writes games in game order, each whole in one write, so the file holds the match's
//! first games (of its shard's slice) and, after a kill while writing, part of one more: that
//! part is cut off, and each whole game is checked against the game of this match with its
//! number (players, round, opening) before it counts.

use super::game::Termination;
use super::pgn::{read_games, PgnGame};
use super::plan::MatchConfig;
use crate::rules::GameResult;

/// The first line of every game the runner writes.
const FIRST_TAG: &str = "[Game \"Chinese Chess\"]\n";

/// A finished game read back: what the tallies need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Done {
    /// Its result.
    pub result: GameResult,
    /// How it ended (`normal` reads as the rules).
    pub termination: Termination,
}

/// What a PGN file of a stopped match holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// The whole games, in game order from the first game of the match (or shard).
    pub games: Vec<Done>,
    /// Whether a partial game at the end was cut off the file.
    pub cut: bool,
}

/// Reads `file` for `cfg`'s match: its whole games, checked to be this match's, after cutting
/// a partial last game off the file. A missing or empty file holds none.
pub fn read_done(cfg: &MatchConfig, file: &str) -> Result<Found, String> {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::default()),
        Err(e) => return Err(format!("-resume: cannot read '{file}': {e}")),
    };
    let (whole, found) = whole_games(cfg, file, &bytes)?;
    if whole < bytes.len() {
        let cut = std::fs::OpenOptions::new().write(true).open(file).and_then(|f| f.set_len(whole as u64));
        cut.map_err(|e| format!("-resume: cannot cut the partial game off '{file}': {e}"))?;
    }
    Ok(found)
}

/// The length of `bytes` up to the end of its last whole game, and the games.
fn whole_games(cfg: &MatchConfig, file: &str, bytes: &[u8]) -> Result<(usize, Found), String> {
    let not_ours = |why: String| format!("-resume: '{file}' is not this match's PGN: {why}");
    // A kill while writing may split a character at the end; anything else is not our text.
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""),
        Err(e) => return Err(not_ours(format!("not UTF-8 at byte {}", e.valid_up_to()))),
    };
    let line_starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(at, _)| at + 1)).collect();
    let games = read_games(text);
    let starts: Vec<usize> = games.iter().map(|g| line_starts[g.line - 1]).collect();
    if let Some(&first) = starts.first() {
        if !text[..first].trim().is_empty() {
            return Err(not_ours("text before its first game".into()));
        }
    }
    let range = cfg.game_range();
    let mut found = Found::default();
    for (j, g) in games.iter().enumerate() {
        let end = starts.get(j + 1).copied().unwrap_or(text.len());
        let chunk = &text[starts[j]..end];
        let Some(done) = whole(g, chunk) else {
            // Only the runner's own last write, cut short, is cut off: never text of another kind.
            let ours = chunk.starts_with(FIRST_TAG) || FIRST_TAG.starts_with(chunk.trim_end());
            if j + 1 < games.len() || !ours {
                return Err(not_ours(format!("its game {} (line {}) is not whole", j + 1, g.line)));
            }
            found.cut = true;
            return Ok((starts[j], found));
        };
        let i = range.start + j;
        if i >= range.end {
            return Err(not_ours(format!("it holds more than the {} games this match plays", range.len())));
        }
        belongs(cfg, i, g).map_err(|why| not_ours(format!("its game {} (line {}) {why}", j + 1, g.line)))?;
        found.games.push(done);
    }
    found.cut = text.len() < bytes.len();
    Ok((text.len(), found))
}

/// A game as the runner writes it, whole: a result, and its move text ends with that result
/// and the blank line after it.
fn whole(g: &PgnGame, text: &str) -> Option<Done> {
    let result = g.result?;
    let written = g.tag("Result")?;
    let last = text.strip_suffix("\n\n")?.split_whitespace().last()?;
    let termination = Termination::from_pgn(g.tag("Termination")?)?;
    (last == written && termination != Termination::Unterminated).then_some(Done { result, termination })
}

/// Whether `g` is game `i` (0-based) of `cfg`'s match: its players, round and opening.
fn belongs(cfg: &MatchConfig, i: usize, g: &PgnGame) -> Result<(), String> {
    let spot = cfg.spot(i);
    let (red, black) = (&cfg.engines[spot.red].name, &cfg.engines[spot.black].name);
    if (&g.red, &g.black) != (red, black) {
        return Err(format!("is {} vs {}, where this match's game {} is {red} vs {black}", g.red, g.black, i + 1));
    }
    let round = (spot.round + 1).to_string();
    if g.tag("Round") != Some(round.as_str()) {
        let theirs = g.tag("Round").unwrap_or("none");
        return Err(format!("is of round {theirs}, where this match's game {} is of round {round}", i + 1));
    }
    let opening = &cfg.openings[spot.opening];
    let (start, moves) = g.start_and_moves().map_err(|e| format!("cannot be read: {e}"))?;
    if start.to_fen() != opening.start.to_fen() || !moves.starts_with(&opening.moves) {
        return Err(format!(
            "starts from another opening than this match's game {} (other -openings or -srand?)",
            i + 1
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_whole_with_its_result_and_the_blank_line_after_it() {
        let game = "[Game \"Chinese Chess\"]\n[Red \"A\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\
                    [Termination \"normal\"]\n\n1. H2-E2 {+0.10/3 0.01s} H7-E7 {Draw by repetition} 1/2-1/2\n\n";
        let read = |text: &str| whole(&read_games(text)[0], text);
        let done = Done { result: GameResult::Draw, termination: Termination::Rules };
        assert_eq!(read(game), Some(done));
        for cut in [game.len() - 1, game.len() - 4, game.len() - 20, 60] {
            assert_eq!(read(&game[..cut]), None, "{}", &game[..cut]);
        }
        assert_eq!(read(&game.replace("\"normal\"", "\"unterminated\"")), None);
        assert!(FIRST_TAG.starts_with("[Game \"Chin") && game.starts_with(FIRST_TAG));
    }
}
