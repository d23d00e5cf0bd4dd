//! The board as text lines for a terminal: 22 lines, 38 columns, the side at the bottom as
//! given. Chinese characters or letters on a coloured board, or plain ASCII letters (upper case
//! Red, lower case Black) when the terminal cannot draw colours. The river, the palaces'
//! diagonals, both sides' file numbers as players count them (each from its own right) and the
//! ICCS letters and ranks that moves are typed in. The last move's points are highlighted
//! (plain text: `(X)` around the piece that moved, `*` on the point it left).

use crate::board::{Color, Move, Piece, PieceKind, Position, Square};
use crossterm::style::{Color as Tc, Stylize};

/// How pieces and lines are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Coloured board, pieces as Chinese characters.
    Chinese,
    /// Coloured board, pieces as letters.
    Letters,
    /// No colours or escape codes: ASCII letters, upper case Red, lower case Black.
    Plain,
}

/// Columns of the drawn board.
pub const WIDTH: usize = 38;
/// Lines of the drawn board.
pub const HEIGHT: usize = 22;
/// Column of the leftmost file.
const LEFT: usize = 3;
/// The coloured board's background spans these columns.
const BOARD_COLS: std::ops::RangeInclusive<usize> = 2..=36;

/// What a character is: it picks the colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ink {
    Grid,
    Label,
    Red,
    Black,
}

/// One column of a line: a character (with its ink and whether it is highlighted) or the
/// right half of a wide character before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Char(char, Ink, bool),
    Covered,
}

/// One line under construction.
struct Line(Vec<Slot>);

impl Line {
    fn new() -> Line {
        Line(vec![Slot::Char(' ', Ink::Grid, false); WIDTH])
    }

    /// Puts `c` at `col`; a wide character covers the next column too.
    fn put(&mut self, col: usize, c: char, ink: Ink, wide: bool) {
        self.0[col] = Slot::Char(c, ink, false);
        if wide {
            self.0[col + 1] = Slot::Covered;
        }
    }

    /// Highlights the character at `col` (a wide one's covered half goes with it).
    fn highlight(&mut self, col: usize) {
        if let Slot::Char(_, _, hl) = &mut self.0[col] {
            *hl = true;
        }
    }

    /// The text, with colours unless `look` is plain; consecutive columns of one style share
    /// one escape sequence.
    fn render(&self, look: Look) -> String {
        let mut out = String::new();
        let mut run = String::new();
        let mut style: Option<(Ink, bool, bool)> = None;
        for (col, slot) in self.0.iter().enumerate() {
            let Slot::Char(c, ink, hl) = *slot else { continue };
            let this = (ink, hl, BOARD_COLS.contains(&col));
            if look != Look::Plain && style.is_some_and(|s| s != this) {
                out += &paint(&run, style.unwrap());
                run.clear();
            }
            style = Some(this);
            run.push(c);
        }
        match style {
            Some(s) if look != Look::Plain => out += &paint(&run, s),
            _ => out += &run,
        }
        out.trim_end().to_string()
    }
}

/// `text` in the colours of (ink, highlighted, on the board).
fn paint(text: &str, (ink, hl, on_board): (Ink, bool, bool)) -> String {
    let fg = match ink {
        Ink::Grid => Tc::DarkGrey,
        Ink::Label => Tc::Reset,
        Ink::Red => Tc::DarkRed,
        Ink::Black => Tc::Black,
    };
    let styled = text.with(fg);
    let styled = if matches!(ink, Ink::Red | Ink::Black) { styled.bold() } else { styled };
    let styled = match (hl, on_board) {
        (true, _) => styled.on(Tc::Cyan),
        (false, true) => styled.on(Tc::DarkYellow),
        (false, false) => styled,
    };
    styled.to_string()
}

/// A piece's character and whether it is two columns wide.
fn glyph(p: Piece, look: Look) -> (char, bool) {
    if look != Look::Chinese {
        return (p.letter(), false);
    }
    let red = p.color() == Color::Red;
    let c = match p.kind() {
        PieceKind::King => ['帥', '將'],
        PieceKind::Advisor => ['仕', '士'],
        PieceKind::Elephant => ['相', '象'],
        PieceKind::Horse => ['傌', '馬'],
        PieceKind::Rook => ['俥', '車'],
        PieceKind::Cannon => ['炮', '砲'],
        PieceKind::Pawn => ['兵', '卒'],
    }[usize::from(!red)];
    (c, true)
}

/// The character of an empty point at display row `dr`, column `dc` (box corners and edges,
/// the river's banks as edges; `+` in plain text).
fn point(dr: usize, dc: usize, look: Look) -> char {
    if look == Look::Plain {
        return '+';
    }
    let (top, bottom) = (dr == 0 || dr == 5, dr == 9 || dr == 4);
    let (left, right) = (dc == 0, dc == 8);
    match (top, bottom, left, right) {
        (true, _, true, _) => '┌',
        (true, _, _, true) => '┐',
        (_, true, true, _) => '└',
        (_, true, _, true) => '┘',
        (true, ..) => '┬',
        (_, true, ..) => '┴',
        (_, _, true, _) => '├',
        (_, _, _, true) => '┤',
        _ => '┼',
    }
}

/// A side's number for a file (0 = a): each side counts 1 to 9 from its own right.
pub fn file_number(side: Color, file: u8) -> u8 {
    match side {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// The board from `bottom`'s side (that side's pieces at the bottom), `last` highlighted.
pub fn draw(pos: &Position, last: Option<Move>, bottom: Color, look: Look) -> Vec<String> {
    let flipped = bottom == Color::Black;
    let file_at = |dc: usize| if flipped { 8 - dc as u8 } else { dc as u8 };
    let rank_at = |dr: usize| if flipped { dr as u8 } else { 9 - dr as u8 };
    let (h, v) = if look == Look::Plain { ('-', '|') } else { ('─', '│') };
    let mut lines = vec![numbers(bottom.opp(), &file_at, look)];
    for dr in 0..10 {
        let mut line = Line::new();
        let rank = rank_at(dr);
        for (i, c) in format!("{rank:>2}").chars().enumerate() {
            line.put(i, c, Ink::Label, false);
        }
        for dc in 0..9 {
            let col = LEFT + 4 * dc;
            let sq = Square::new(file_at(dc), rank);
            let (c, ink, wide) = match pos.piece_at(sq) {
                Some(p) => {
                    let (c, wide) = glyph(p, look);
                    (c, if p.color() == Color::Red { Ink::Red } else { Ink::Black }, wide)
                }
                None => (point(dr, dc, look), Ink::Grid, false),
            };
            if dc < 8 {
                for x in col + 1..col + 4 {
                    line.put(x, h, Ink::Grid, false);
                }
            }
            line.put(col, c, ink, wide);
            mark(&mut line, col, sq, last, look);
        }
        lines.push(line.render(look));
        if dr < 9 {
            lines.push(between(dr, v, look).render(look));
        }
    }
    lines.push(numbers(bottom, &file_at, look));
    let mut letters = Line::new();
    for dc in 0..9 {
        letters.put(LEFT + 4 * dc, char::from(b'a' + file_at(dc)), Ink::Label, false);
    }
    lines.push(letters.render(look));
    lines
}

/// Marks the last move on the point at `col`: highlighted, or in plain text `(X)` around
/// the piece that moved and `*` on the point it left.
fn mark(line: &mut Line, col: usize, sq: Square, last: Option<Move>, look: Look) {
    let Some(m) = last else { return };
    if sq != m.to() && sq != m.from() {
        return;
    }
    if look != Look::Plain {
        line.highlight(col);
    } else if sq == m.to() {
        line.put(col - 1, '(', Ink::Grid, false);
        line.put(col + 1, ')', Ink::Grid, false);
    } else {
        line.put(col, '*', Ink::Grid, false);
    }
}

/// The line between display rows `dr` and `dr + 1`: the files' lines and the palaces'
/// diagonals, or the river.
fn between(dr: usize, v: char, look: Look) -> Line {
    let mut line = Line::new();
    if dr == 4 {
        line.put(LEFT, v, Ink::Grid, false);
        line.put(LEFT + 32, v, Ink::Grid, false);
        if look == Look::Chinese {
            for (i, c) in ['楚', '河', '漢', '界'].into_iter().enumerate() {
                line.put(LEFT + 5 + 4 * i + 4 * (i / 2) * 2, c, Ink::Grid, true);
            }
        } else {
            for (i, c) in "Chu River      Han Border".chars().enumerate() {
                line.put(LEFT + 4 + i, c, Ink::Grid, false);
            }
        }
        return line;
    }
    for dc in 0..9 {
        line.put(LEFT + 4 * dc, v, Ink::Grid, false);
    }
    let (down, up) = if look == Look::Plain { ('\\', '/') } else { ('╲', '╱') };
    let first = match dr {
        0 | 7 => Some((down, up)),
        1 | 8 => Some((up, down)),
        _ => None,
    };
    if let Some((a, b)) = first {
        line.put(LEFT + 4 * 3 + 2, a, Ink::Grid, false);
        line.put(LEFT + 4 * 4 + 2, b, Ink::Grid, false);
    }
    line
}

/// The file numbers of `side` across the board: Red's in Chinese numerals, Black's in
/// full-width digits on the Chinese board; ASCII digits otherwise.
fn numbers(side: Color, file_at: &dyn Fn(usize) -> u8, look: Look) -> String {
    const RED: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    const BLACK: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
    let mut line = Line::new();
    for dc in 0..9 {
        let n = file_number(side, file_at(dc));
        let (c, wide) = match (look, side) {
            (Look::Chinese, Color::Red) => (RED[n as usize - 1], true),
            (Look::Chinese, Color::Black) => (BLACK[n as usize - 1], true),
            _ => (char::from(b'0' + n), false),
        };
        line.put(LEFT + 4 * dc, c, Ink::Label, wide);
    }
    line.render(look)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(pos: &Position, last: Option<Move>, bottom: Color) -> Vec<String> {
        draw(pos, last, bottom, Look::Plain)
    }

    #[test]
    fn plain_start_position_from_reds_side() {
        let lines = plain(&Position::startpos(), None, Color::Red);
        assert_eq!(lines.len(), HEIGHT);
        assert_eq!(lines[0], "   1   2   3   4   5   6   7   8   9");
        assert_eq!(lines[1], " 9 r---n---b---a---k---a---b---n---r");
        assert_eq!(lines[2], "   |   |   |   | \\ | / |   |   |   |");
        assert_eq!(lines[4], "   |   |   |   | / | \\ |   |   |   |");
        assert_eq!(lines[10], "   |   Chu River      Han Border   |");
        assert_eq!(lines[19], " 0 R---N---B---A---K---A---B---N---R");
        assert_eq!(lines[20], "   9   8   7   6   5   4   3   2   1");
        assert_eq!(lines[21], "   a   b   c   d   e   f   g   h   i");
        assert!(lines.iter().all(|l| l.is_ascii() && l.chars().count() <= WIDTH));
    }

    #[test]
    fn flipped_board_puts_black_at_the_bottom_with_its_numbers() {
        let lines = plain(&Position::startpos(), None, Color::Black);
        assert_eq!(lines[0], "   1   2   3   4   5   6   7   8   9", "Red's numbers read 1..9 from the top");
        assert_eq!(lines[1], " 0 R---N---B---A---K---A---B---N---R");
        assert_eq!(lines[20], "   9   8   7   6   5   4   3   2   1");
        assert_eq!(lines[21], "   i   h   g   f   e   d   c   b   a");
        // The numbers name the same files as the unflipped board's.
        assert_eq!(file_number(Color::Red, 7), 2, "h is Red's file 2");
        assert_eq!(file_number(Color::Black, 7), 8, "h is Black's file 8");
    }

    #[test]
    fn plain_last_move_is_marked() {
        let mut pos = Position::startpos();
        let m = Move::parse("h2e2").unwrap();
        pos.make_move(m);
        let lines = plain(&pos, Some(m), Color::Red);
        assert_eq!(lines[15], " 2 +---C---+---+--(C)--+---+---*---+");
    }

    #[test]
    fn colour_boards_are_chinese_or_letters_and_fit_the_width() {
        let pos = Position::startpos();
        let m = Move::parse("h2e2").unwrap();
        for look in [Look::Chinese, Look::Letters] {
            let lines = draw(&pos, Some(m), Color::Red, look);
            assert_eq!(lines.len(), HEIGHT);
            assert!(lines.iter().any(|l| l.contains('\x1b')), "{look:?}: coloured");
        }
        let chinese = draw(&pos, None, Color::Red, Look::Chinese).concat();
        for c in ['車', '帥', '將', '楚', '界', '九', '１'] {
            assert!(chinese.contains(c), "{c}");
        }
    }
}
