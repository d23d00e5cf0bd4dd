//! Games as PGN in the Chinese-chess convention: `[Game "Chinese Chess"]`, `[Red]`/`[Black]`,
//! `[SetUp "1"]` and `[FEN]` for non-standard starts, `[Format "ICCS"]` with moves written
//! `H2-E2`, cutechess-cli's `[TimeControl]` and per-move comments (`{+0.35/12 1.2s}`). Read
//! back in any notation (`[Format "WXF"|"Chinese"]`, or detected), from UTF-8 or GBK bytes.

use super::engine::{seconds, Eval, Limit};
use super::game::{GameRecord, Termination, Thinking};
use crate::board::{Color, Move, Position};
use crate::notation::{self, Notation};
use crate::rules::GameResult;
use std::fmt::Write;

/// Header facts that are not in the record.
#[derive(Clone, Debug)]
pub struct PgnHeader<'a> {
    /// `[Event]`.
    pub event: &'a str,
    /// `[Round]`.
    pub round: usize,
    /// Red's name.
    pub red: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// `[Date]` as `YYYY.MM.DD`.
    pub date: &'a str,
    /// Red's and Black's time controls as [`time_control`] writes them.
    pub time_controls: [&'a str; 2],
}

/// A limit as cutechess-cli writes `[TimeControl]`: `40/60+0.5`, `5+0.05`, `0.5/move`, and
/// `inf` for node and depth limits.
pub fn time_control(limit: Limit) -> String {
    match limit {
        Limit::Clock { moves, base_ms, inc_ms } => {
            let mut s = if moves > 0 { format!("{moves}/") } else { String::new() };
            s += &seconds(base_ms);
            if inc_ms > 0 {
                s += &format!("+{}", seconds(inc_ms));
            }
            s
        }
        Limit::MoveTime(ms) => format!("{}/move", seconds(ms)),
        Limit::Nodes(_) | Limit::Depth(_) => "inf".to_string(),
    }
}

/// A move's comment as cutechess-cli writes it, `{+0.35/12 1.2s}` (score in pawns from the
/// mover's side, `+M5`/`-M5` for mates in moves, depth, time charged to its clock with any
/// `latency=`); none without a score.
pub fn move_comment(t: &Thinking) -> Option<String> {
    let score = match t.eval? {
        Eval::Cp(cp) => {
            let sign = if cp > 0 {
                "+"
            } else if cp < 0 {
                "-"
            } else {
                ""
            };
            format!("{sign}{}.{:02}", cp.unsigned_abs() / 100, cp.unsigned_abs() % 100)
        }
        Eval::Mate(n) if n > 0 => format!("+M{n}"),
        Eval::Mate(n) => format!("-M{}", n.unsigned_abs()),
    };
    let depth = t.depth.map(|d| format!("/{d}")).unwrap_or_default();
    Some(format!("{{{score}{depth} {}}}", short_seconds(t.ms + t.latency_ms)))
}

/// Milliseconds as seconds with three significant digits at most: `1.23s`, `0.29s`, `12.3s`.
fn short_seconds(ms: u64) -> String {
    let decimals = match ms {
        0..=999 => 3,
        1_000..=9_999 => 2,
        10_000..=99_999 => 1,
        _ => 0,
    };
    let secs = ms as f64 / 1000.0;
    let s = format!("{secs:.decimals$}");
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { &s };
    format!("{s}s")
}

/// A move in ICCS as PGN writes it: `H2-E2`.
pub fn iccs(m: Move) -> String {
    let t = m.to_string().to_ascii_uppercase();
    format!("{}-{}", &t[..2], &t[2..])
}

/// One game as PGN text, ending with a blank line.
pub fn write_game(h: &PgnHeader, g: &GameRecord) -> String {
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(s, "[{k} \"{v}\"]");
    };
    tag(&mut s, "Game", "Chinese Chess");
    tag(&mut s, "Event", h.event);
    tag(&mut s, "Site", "?");
    tag(&mut s, "Date", h.date);
    tag(&mut s, "Round", &h.round.to_string());
    tag(&mut s, "Red", h.red);
    tag(&mut s, "Black", h.black);
    let result = if g.termination == Termination::Unterminated { "*".to_string() } else { g.result.to_string() };
    tag(&mut s, "Result", &result);
    if !g.standard {
        tag(&mut s, "SetUp", "1");
        tag(&mut s, "FEN", &g.start.to_fen());
    }
    match h.time_controls {
        [red, black] if red == black => tag(&mut s, "TimeControl", red),
        [red, black] => {
            tag(&mut s, "RedTimeControl", red);
            tag(&mut s, "BlackTimeControl", black);
        }
    }
    tag(&mut s, "Format", "ICCS");
    tag(&mut s, "PlyCount", &g.moves.len().to_string());
    tag(&mut s, "Termination", g.termination.pgn());
    s.push('\n');
    let words = g.moves.iter().enumerate().map(|(i, &m)| {
        let comment = g.thinking.get(i).copied().flatten().as_ref().and_then(move_comment);
        (iccs(m), comment)
    });
    let mut tokens = numbered(&g.start, words);
    // The reason may quote an engine's text; a brace in it would end the comment early.
    tokens.push(format!("{{{}}}", g.reason.replace('{', "(").replace('}', ")")));
    tokens.push(result);
    s.push_str(&wrap(&tokens));
    s.push_str("\n\n");
    s
}

/// Move words (each with an optional comment after it) from `start`, with PGN's move numbers:
/// `1.` before Red's moves, `N. ...` before a first move by Black.
fn numbered(start: &Position, words: impl Iterator<Item = (String, Option<String>)>) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut number = start.fullmove_number().max(1);
    let mut side = start.side_to_move();
    for (i, (word, comment)) in words.enumerate() {
        // A move number stays on the line of its move.
        tokens.push(match side {
            Color::Red => format!("{number}. {word}"),
            Color::Black if i == 0 => format!("{number}. ... {word}"),
            Color::Black => word,
        });
        tokens.extend(comment);
        if side == Color::Black {
            number += 1;
        }
        side = side.opp();
    }
    tokens
}

/// Tokens joined by spaces in lines of at most 79 columns, a Chinese character taking two
/// (a longer token gets a line alone).
fn wrap(tokens: &[String]) -> String {
    let width = |t: &str| t.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum::<usize>();
    let mut s = String::new();
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && width(&line) + 1 + width(t) > 79 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    s.push_str(&line);
    s
}

/// A game's moves as PGN move text in `notation` (move numbers, lines of at most 79
/// columns, no result): what a tool writing a game back in its own notation prints. Moves
/// from the first one that is not legal on are written in ICCS.
pub fn move_text(start: &Position, moves: &[Move], notation: Notation) -> String {
    let words = notation::format_moves(start, moves, notation).into_iter().map(|w| (w, None));
    wrap(&numbered(start, words))
}

/// A game read back from PGN text (this runner's or another xiangqi tool's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// `[Red]` (or `[White]`, as some tools write it).
    pub red: String,
    /// `[Black]`.
    pub black: String,
    /// `[Result]` (or, without the tag, the result ending the move text); `None` for `*`.
    pub result: Option<GameResult>,
    /// Every tag, in order, escapes undone.
    pub tags: Vec<(String, String)>,
    /// The moves as written, without move numbers, comments, variations and annotations.
    pub moves: Vec<String>,
    /// Each move's first comment (outside variations), braces removed: `+0.35/12 1.2s`.
    pub comments: Vec<Option<String>>,
    /// The 1-based line the game starts on.
    pub line: usize,
}

impl PgnGame {
    /// The value of tag `name` (any case), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The notation its `[Format]` tag names (ICCS, WXF, Chinese), if it names one.
    pub fn format(&self) -> Option<Notation> {
        self.tag("Format").and_then(Notation::from_name)
    }

    /// The notation its moves are written in: the `[Format]` tag's, else the first move's
    /// (ICCS for a game without moves). Tools writing moves back use it.
    pub fn notation(&self) -> Notation {
        self.format().or_else(|| self.moves.first().and_then(|m| Notation::detect(m))).unwrap_or(Notation::Iccs)
    }

    /// The game's start (`[FEN]`, else the start position) and its moves, read in the notation
    /// of its `[Format]` tag or, without one (or an unknown one), each in the notation it is
    /// written in: what `chuhe judge` and `chuhe book build` replay. An ICCS move that is not
    /// legal is kept (the judge rules on it) and ends the replay: the moves after it must be ICCS.
    pub fn start_and_moves(&self) -> Result<(Position, Vec<Move>), String> {
        let start = match (self.tag("FEN"), self.tag("SetUp")) {
            (Some(fen), _) => Position::from_fen(fen).map_err(|e| format!("[FEN]: {e}"))?,
            (None, Some("1")) => return Err("[SetUp \"1\"] without a [FEN] tag".to_string()),
            (None, _) => Position::startpos(),
        };
        let moves = notation::parse_moves(&start, self.moves.iter().map(String::as_str), self.format()).map_err(
            |e| match self.tag("Format") {
                Some(f) if self.format().is_none() => format!("{e} (the game's [Format] is '{f}')"),
                _ => e,
            },
        )?;
        Ok((start, moves))
    }
}

/// `[Name "value"]` as (name, value), escapes undone.
fn tag(line: &str) -> Option<(&str, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' { chars.next().unwrap_or(c) } else { c });
    }
    Some((name, value))
}

/// A game result as PGN writes it.
fn result_of(text: &str) -> Option<Option<GameResult>> {
    match text {
        "1-0" => Some(Some(GameResult::RedWins)),
        "0-1" => Some(Some(GameResult::BlackWins)),
        "1/2-1/2" => Some(Some(GameResult::Draw)),
        "*" => Some(None),
        _ => None,
    }
}

/// One token of move text.
#[derive(Debug, PartialEq, Eq)]
enum Token<'a> {
    /// A move (or anything else that is not a number, a NAG or a result), annotations removed.
    Move(&'a str),
    /// A game-ending result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    End(Option<GameResult>),
    /// A `{comment}` outside variations, braces removed (lines joined by a space).
    Comment(String),
}

/// The meaning of a whitespace-free word of move text, if any: move numbers (`12.`, `3...`,
/// `...`, also glued to a move as `1.H2-E2`) and NAGs (`$1`) carry none.
fn token(word: &str) -> Option<Token<'_>> {
    if let Some(r) = result_of(word) {
        return Some(Token::End(r));
    }
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let word = match word[digits..].trim_start_matches('.') {
        rest if rest.len() < word.len() - digits => rest,
        _ => word,
    };
    let word = word.trim_end_matches(['!', '?', '+', '#']);
    (!word.is_empty() && !word.starts_with('$')).then_some(Token::Move(word))
}

/// The move-text reader's state across lines: inside a `{comment}` (and its text so far)
/// or `(variation)`.
#[derive(Default)]
struct MoveText {
    in_comment: bool,
    comment: String,
    depth: usize,
}

impl MoveText {
    /// The tokens of one line of move text; `;` comments end the line.
    fn tokens<'a>(&mut self, line: &'a str, out: &mut Vec<Token<'a>>) {
        let mut word_at = None;
        for (i, c) in line.char_indices().chain([(line.len(), ' ')]) {
            let separator = c.is_whitespace() || "{};()".contains(c);
            if let (Some(at), true) = (word_at, separator) {
                out.extend(token(&line[at..i]));
                word_at = None;
            }
            if self.in_comment {
                self.in_comment = c != '}';
                match c {
                    '}' if self.depth == 0 => out.push(Token::Comment(std::mem::take(&mut self.comment))),
                    '}' => self.comment.clear(),
                    _ => self.comment.push(c),
                }
                continue;
            }
            match c {
                '{' => self.in_comment = true,
                ';' => return,
                '(' => self.depth += 1,
                ')' => self.depth = self.depth.saturating_sub(1),
                _ if separator => {}
                _ if self.depth == 0 && word_at.is_none() => word_at = Some(i),
                _ => {}
            }
        }
    }
}

/// Every game in PGN text: this runner's, or another xiangqi tool's Chinese-chess PGN. A game
/// starts at a tag after move text, at a tag its game already has, or at moves after a result.
pub fn read_games(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game: Option<PgnGame> = None;
    let mut movetext = MoveText::default();
    let mut in_moves = false;
    let mut ended: Option<Option<GameResult>> = None;
    let mut finish = |game: &mut Option<PgnGame>, ended: Option<Option<GameResult>>| {
        if let Some(mut g) = game.take() {
            let get = |names: &[&str]| names.iter().find_map(|n| g.tag(n)).map(String::from);
            let (red, black, result) = (get(&["Red", "White"]), get(&["Black"]), get(&["Result"]));
            g.red = red.unwrap_or_default();
            g.black = black.unwrap_or_default();
            g.result = match result {
                Some(r) => result_of(r.trim()).flatten(),
                None => ended.flatten(),
            };
            games.push(g);
        }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (n, line) in text.lines().enumerate() {
        let outside = !movetext.in_comment && movetext.depth == 0;
        let trimmed = line.trim();
        if outside && trimmed.starts_with('%') {
            continue;
        }
        let new_game = |line: usize| PgnGame {
            red: String::new(),
            black: String::new(),
            result: None,
            tags: Vec::new(),
            moves: Vec::new(),
            comments: Vec::new(),
            line,
        };
        match tag(trimmed).filter(|_| outside) {
            Some((name, value)) => {
                let repeated = game.as_ref().is_some_and(|g| g.tags.iter().any(|(t, _)| t == name));
                if in_moves || repeated {
                    finish(&mut game, ended.take());
                    in_moves = false;
                }
                game.get_or_insert_with(|| new_game(n + 1)).tags.push((name.to_string(), value));
            }
            None => {
                let mut tokens = Vec::new();
                movetext.tokens(line, &mut tokens);
                in_moves |= game.is_some() && !trimmed.is_empty();
                for t in tokens {
                    if let Token::Comment(c) = t {
                        // A comment belongs to the move before it; others carry nothing we read.
                        let last = game.as_mut().filter(|_| ended.is_none()).and_then(|g| g.comments.last_mut());
                        if let Some(slot @ None) = last {
                            *slot = Some(c.trim().to_string());
                        }
                        continue;
                    }
                    if ended.is_some() {
                        finish(&mut game, ended.take());
                    }
                    let g = game.get_or_insert_with(|| new_game(n + 1));
                    in_moves = true;
                    match t {
                        Token::Move(m) => {
                            g.moves.push(m.to_string());
                            g.comments.push(None);
                        }
                        Token::End(r) => ended = Some(r),
                        Token::Comment(_) => {}
                    }
                }
            }
        }
    }
    finish(&mut game, ended);
    games
}

/// Today's UTC date as `YYYY.MM.DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::matches::game::Termination;
    use crate::rules::GameResult;

    #[test]
    fn writes_chinese_chess_pgn() {
        let moves = ["h2e2", "h9g7", "h0g2"].iter().map(|m| Move::parse(m).unwrap()).collect();
        let g = GameRecord {
            start: Position::startpos(),
            standard: true,
            moves,
            thinking: vec![None; 3],
            result: GameResult::BlackWins,
            reason: "Red makes an illegal move: a0a9".into(),
            termination: Termination::IllegalMove,
        };
        let h = PgnHeader { event: "m", round: 3, red: "A", black: "B", date: "2026.11.29", time_controls: ["inf"; 2] };
        let text = write_game(&h, &g);
        assert!(text.starts_with("[Game \"Chinese Chess\"]\n"));
        assert!(text.contains("[Red \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n"));
        assert!(text.contains("[Format \"ICCS\"]") && !text.contains("[FEN") && !text.contains("[SetUp"));
        assert!(text.contains("[TimeControl \"inf\"]"));
        assert!(text.contains("[Termination \"illegal move\"]"));
        assert!(text.contains("\n1. H2-E2 H9-G7 2. H0-G2 {Red makes an illegal move: a0a9} 0-1\n\n"));

        let black_first = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/3K1R3 b - - 0 7").unwrap();
        let g2 = GameRecord {
            start: black_first,
            standard: false,
            moves: vec![Move::parse("e9e8").unwrap()],
            thinking: vec![Some(Thinking {
                eval: Some(Eval::Cp(-35)),
                depth: Some(12),
                ms: 1234,
                latency_ms: 0,
                cpu_ms: None,
            })],
            result: GameResult::Draw,
            reason: "x".into(),
            termination: Termination::Rules,
        };
        let h2 = PgnHeader { time_controls: ["40/60+0.5", "0.5/move"], ..h };
        let text = write_game(&h2, &g2);
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"4k4/9/9/9/9/9/9/9/4A4/3K1R3 b - - 0 7\"]"), "{text}");
        assert!(text.contains("[RedTimeControl \"40/60+0.5\"]\n[BlackTimeControl \"0.5/move\"]"), "{text}");
        assert!(text.contains("\n7. ... E9-E8 {-0.35/12 1.23s} {x} 1/2-1/2\n"), "{text}");
        // The reader takes back what the writer wrote, comments and all.
        let back = read_games(&text);
        assert_eq!((back[0].moves.clone(), back[0].result), (vec!["E9-E8".to_string()], Some(GameResult::Draw)));
        assert_eq!(back[0].tag("FEN"), Some("4k4/9/9/9/9/9/9/9/4A4/3K1R3 b - - 0 7"));
    }

    #[test]
    fn reads_back_players_and_results() {
        let moves = vec![Move::parse("h2e2").unwrap()];
        let g = |result| GameRecord {
            start: Position::startpos(),
            standard: true,
            moves: moves.clone(),
            thinking: vec![None],
            result,
            reason: "r".into(),
            termination: Termination::Rules,
        };
        let h = PgnHeader {
            event: "m",
            round: 1,
            red: "A \"x\"",
            black: "B",
            date: "2026.11.29",
            time_controls: ["5+0.05"; 2],
        };
        let ours = write_game(&h, &g(GameResult::RedWins)) + &write_game(&h, &g(GameResult::Draw));
        // Another tool's: [White] for Red, no blank line between games, an unfinished game.
        let other = "[Game \"Chinese Chess\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"0-1\"]\n1. C3-C4 0-1\n\
                     [Game \"Chinese Chess\"]\n[Red \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n*\n";
        let got = read_games(&(ours + other));
        let summary: Vec<(&str, &str, Option<GameResult>, Vec<&str>)> = got
            .iter()
            .map(|g| (g.red.as_str(), g.black.as_str(), g.result, g.moves.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("A \"x\"", "B", Some(GameResult::RedWins), vec!["H2-E2"]),
                ("A \"x\"", "B", Some(GameResult::Draw), vec!["H2-E2"]),
                ("C", "D", Some(GameResult::BlackWins), vec!["C3-C4"]),
                ("C", "D", None, vec![]),
            ]
        );
        assert_eq!(got[0].tag("format"), Some("ICCS"));
        assert_eq!(got.iter().map(|g| g.line).collect::<Vec<_>>(), [1, 16, 31, 36]);
        // each of ours has a [TimeControl] line
    }

    #[test]
    fn move_text_without_numbers_comments_variations_or_annotations() {
        let text = "\u{feff}% an escaped line\n[Red \"A\"]\n[FEN \"4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1\"]\n\n\
                    1.A1-A9 {check; [Red \"not a tag\"]\n still the comment} E9-E8 ; to the end of the line\n\
                    2. a9a8!? (2. A9-B9 (2. A9-C9) E8-E7) e8e9 $1 3. ... {x}A8-A9+ 1-0\n\
                    1. C3-C4 *\n";
        let games = read_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, ["A1-A9", "E9-E8", "a9a8", "e8e9", "A8-A9"]);
        assert_eq!((games[0].red.as_str(), games[0].result), ("A", Some(GameResult::RedWins)));
        assert_eq!(games[0].tag("FEN"), Some("4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1"));
        // Untagged move text after a result is the next game; its result comes from the text.
        assert_eq!((games[1].moves.clone(), games[1].result, games[1].line), (vec!["C3-C4".to_string()], None, 8));
        assert_eq!(read_games("1. H2-E2 H9-G7 1/2-1/2")[0].result, Some(GameResult::Draw));
        assert!(read_games("\n  \n{only a comment}\n").is_empty());
    }

    #[test]
    fn time_controls_and_comments_in_cutechess_style() {
        let clock = |moves, base_ms, inc_ms| time_control(Limit::Clock { moves, base_ms, inc_ms });
        assert_eq!(clock(40, 60_000, 500), "40/60+0.5");
        assert_eq!(clock(0, 5_000, 50), "5+0.05");
        assert_eq!(clock(0, 90_000, 0), "90");
        assert_eq!(time_control(Limit::MoveTime(2_000)), "2/move");
        assert_eq!(time_control(Limit::Nodes(1000)), "inf");
        assert_eq!(time_control(Limit::Depth(5)), "inf");
        let c = |eval, depth, ms| move_comment(&Thinking { eval, depth, ms, latency_ms: 0, cpu_ms: None });
        assert_eq!(c(Some(Eval::Cp(35)), Some(12), 1_200).unwrap(), "{+0.35/12 1.2s}");
        assert_eq!(c(Some(Eval::Cp(-1205)), Some(3), 290).unwrap(), "{-12.05/3 0.29s}");
        assert_eq!(c(Some(Eval::Cp(0)), Some(1), 0).unwrap(), "{0.00/1 0s}");
        assert_eq!(c(Some(Eval::Mate(5)), Some(20), 12_345).unwrap(), "{+M5/20 12.3s}");
        assert_eq!(c(Some(Eval::Mate(-2)), None, 123_456).unwrap(), "{-M2 123s}");
        assert_eq!(c(None, Some(5), 100), None);
        let lagged = Thinking { eval: Some(Eval::Cp(1)), depth: Some(9), ms: 240, latency_ms: 50, cpu_ms: None };
        assert_eq!(move_comment(&lagged).unwrap(), "{+0.01/9 0.29s}");
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
