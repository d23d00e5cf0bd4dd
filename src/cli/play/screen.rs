//! The screen: the board on the left, a panel on the right (the players, the engine's
//! settings, the clocks, the moves or the commands), the last messages under them. In colour
//! the screen is cleared and drawn afresh each time (80×24 fits); in plain text it is printed
//! below the last one, with no escape codes at all.

use super::board::{self, Look};
use super::state::Play;
use crate::board::Color;
use crossterm::terminal::{Clear, ClearType};
use crossterm::Command as _;

/// Columns of the panel.
const PANEL: usize = 40;

/// Why the board is drawn in plain text, if it is: `--plain`, an output that is not a
/// terminal, `NO_COLOR` set (to anything but empty), `TERM` unset or `dumb`.
pub fn plain_reason(plain: bool, is_tty: bool, no_color: Option<&str>, term: Option<&str>) -> Option<&'static str> {
    if plain {
        Some("--plain")
    } else if !is_tty {
        Some("the output is not a terminal")
    } else if no_color.is_some_and(|v| !v.is_empty()) {
        Some("NO_COLOR is set")
    } else if term.is_none_or(|t| t.is_empty() || t == "dumb") {
        Some("the terminal (TERM) cannot draw colours")
    } else {
        None
    }
}

/// The commands, as the panel shows them on `help`.
pub const COMMANDS: &[&str] = &[
    "a move     h2e2: file a-i, rank 0-9",
    "undo       take back your last move",
    "hint       the engine's best move",
    "draw       offer a draw",
    "resign     give up the game",
    "flip       turn the board round",
    "save FILE  write the game as PGN",
    "quit       leave (the game is saved)",
];

/// How the screen is drawn.
pub struct Screen {
    /// Chinese, letters or plain.
    pub look: Look,
    /// The side at the bottom of the board.
    pub bottom: Color,
}

impl Screen {
    /// The whole screen as text: board and panel side by side, then `messages`. With
    /// `commands` the panel lists the commands instead of the moves.
    pub fn render(&self, play: &Play, messages: &[String], commands: bool) -> String {
        let board = board::draw(play.position(), play.last_move(), self.bottom, self.look);
        let panel = panel(play, commands);
        let mut out = String::new();
        if self.look != Look::Plain {
            let _ = Clear(ClearType::All).write_ansi(&mut out);
            let _ = crossterm::cursor::MoveTo(0, 0).write_ansi(&mut out);
        }
        for (i, line) in board.iter().enumerate() {
            let right = panel.get(i).map_or("", String::as_str);
            if right.is_empty() {
                out += line;
            } else {
                let pad = board::WIDTH + 1 - visible_width(line);
                out += &format!("{line}{:pad$}{right}", "");
            }
            out.push('\n');
        }
        if self.look == Look::Plain {
            messages.iter().for_each(|m| out += &format!("{m}\n"));
        } else {
            // One line, so board, messages and prompt fit 24 rows.
            out += &fit(&messages.join("  "), 79);
            out.push('\n');
        }
        out
    }
}

/// `s` (no escape codes) cut to `cols` columns.
fn fit(s: &str, cols: usize) -> String {
    let mut width = 0;
    s.chars()
        .take_while(|&c| {
            width += visible_width(c.encode_utf8(&mut [0; 4]));
            width <= cols
        })
        .collect()
}

/// Columns `s` takes on a terminal: escape sequences take none, CJK characters two.
fn visible_width(s: &str) -> usize {
    let mut width = 0;
    let mut escape = false;
    for c in s.chars() {
        match c {
            '\x1b' => escape = true,
            c if escape => escape = !c.is_ascii_alphabetic(),
            c if (c as u32) >= 0x2E80 => width += 2,
            _ => width += 1,
        }
    }
    width
}

/// The panel's lines: who plays what, the engine's settings, the clocks, the book, then the
/// moves (the latest that fit) or the commands.
fn panel(play: &Play, commands: bool) -> Vec<String> {
    let cfg = play.config();
    let you = cfg.side;
    let mut lines =
        vec![format!("You: {}   Chuhe: {}", you.name(), you.opp().name()), format!("Chuhe: {}", cfg.engine_text())];
    if let Some([red, black]) = play.clocks {
        lines.push(format!("Clock: Red {}  Black {}", clock_text(red), clock_text(black)));
    }
    if let Some(b) = &cfg.book_text {
        lines.push(format!("Book: {b}"));
    }
    lines.push(String::new());
    if commands {
        lines.push("Commands:".into());
        lines.extend(COMMANDS.iter().map(|c| format!(" {c}")));
        return lines.into_iter().map(|l| l.chars().take(PANEL).collect()).collect();
    }
    lines.push("Moves:".into());
    let rows = move_rows(play);
    let room = board::HEIGHT.saturating_sub(lines.len());
    if rows.len() > room {
        lines.extend(rows[rows.len() - room..].iter().cloned());
    } else {
        lines.extend(rows);
    }
    lines.into_iter().map(|l| l.chars().take(PANEL).collect()).collect()
}

/// The moves two a line, `12. h2e2     h9g7`, numbered from the start position's move number.
fn move_rows(play: &Play) -> Vec<String> {
    let texts = play.move_texts(play.config().notation);
    let start = play.game.start();
    let mut number = start.fullmove_number().max(1);
    let mut rows = Vec::new();
    let mut i = 0;
    if start.side_to_move() == Color::Black && !texts.is_empty() {
        rows.push(format!("{number:>3}. {:<10}{}", "...", texts[0]));
        number += 1;
        i = 1;
    }
    while i < texts.len() {
        rows.push(format!("{number:>3}. {:<10}{}", texts[i], texts.get(i + 1).map_or("", String::as_str)));
        number += 1;
        i += 2;
    }
    rows
}

/// Milliseconds as `m:ss.t`.
fn clock_text(ms: i64) -> String {
    let ms = ms.max(0);
    format!("{}:{:02}.{}", ms / 60_000, ms / 1000 % 60, ms / 100 % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn when_the_board_is_plain() {
        assert_eq!(plain_reason(false, true, None, Some("xterm-256color")), None);
        assert_eq!(plain_reason(true, true, None, Some("xterm")), Some("--plain"));
        assert_eq!(plain_reason(false, false, None, Some("xterm")), Some("the output is not a terminal"));
        assert_eq!(plain_reason(false, true, Some("1"), Some("xterm")), Some("NO_COLOR is set"));
        assert_eq!(plain_reason(false, true, Some(""), Some("xterm")), None, "NO_COLOR empty counts as unset");
        assert!(plain_reason(false, true, None, Some("dumb")).unwrap().contains("TERM"));
        assert!(plain_reason(false, true, None, None).is_some());
    }

    #[test]
    fn widths_and_clocks() {
        assert_eq!(visible_width("\x1b[31m車\x1b[0m─a"), 4);
        assert_eq!(clock_text(299_950), "4:59.9");
        assert_eq!(fit("ab車d", 3), "ab");
        assert_eq!(fit("ab車d", 4), "ab車");
        assert_eq!(clock_text(-5), "0:00.0");
        assert!(COMMANDS.iter().all(|c| c.chars().count() < PANEL));
    }
}
