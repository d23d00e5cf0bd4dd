//! A position as players draw it: 9×10 lines, the river, the palaces with their diagonals, the
//! crossing marks at the cannon and pawn points, the file numbers of both sides, pieces as
//! discs with their Chinese characters (or letters), the last move and arrows.

use super::svg::{points, El, Svg};
use crate::board::{Color, Move, PieceKind, Position, Square};

/// How pieces, file numbers and the river are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Traditional characters (帥仕相傌俥炮兵 / 將士象馬車砲卒), Red's files 九..一, Black's １..９.
    Chinese,
    /// WXF letters (K A E H R C P), files 1-9 on both sides, ICCS coordinates beside the board.
    Letters,
}

/// An arrow over the board: a move in a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// From the move's point to its target.
    pub mv: Move,
    /// An SVG colour.
    pub color: &'static str,
}

/// The default arrow colour (`chuhe diagram --arrow`).
pub const ARROW_GREEN: &str = "#2b8a3e";
/// A move played that analysis marked (`chuhe analyze --diagrams`).
pub const ARROW_RED: &str = "#e8590c";

/// What to draw.
pub struct Diagram<'a> {
    /// The position.
    pub pos: &'a Position,
    /// The move that led to it, marked on its two points.
    pub last: Option<Move>,
    /// Arrows, drawn over the pieces in order.
    pub arrows: Vec<Arrow>,
    /// Characters or letters.
    pub style: Style,
    /// Black at the bottom.
    pub flip: bool,
    /// A line of text under the board.
    pub caption: Option<String>,
}

/// The fonts the SVG names for Chinese text, best first; a renderer takes the first it has.
pub const CJK_FONTS: &str = "'Noto Serif CJK SC', 'Source Han Serif SC', 'Noto Serif CJK TC', 'Songti SC', \
    STSong, SimSun, 'AR PL UMing CN', KaiTi, 'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', \
    'Microsoft YaHei', 'WenQuanYi Zen Hei', 'WenQuanYi Micro Hei', 'Droid Sans Fallback', serif";
/// The fonts for Latin text.
pub const LATIN_FONTS: &str = "'DejaVu Sans', 'Helvetica Neue', Arial, 'Liberation Sans', sans-serif";

/// Distance between two lines.
const CELL: f64 = 50.0;
/// Left and right margin to the outer lines.
const MARGIN_X: f64 = 52.0;
/// Top and bottom margin to the outer lines (the frame and the file numbers live there).
const MARGIN_Y: f64 = 66.0;
/// Extra height for a caption.
const CAPTION_H: f64 = 30.0;
/// A disc's radius.
const PIECE_R: f64 = 0.44 * CELL;
/// Board, line and piece colours.
const WOOD: &str = "#f3dcae";
const INK: &str = "#4a2f14";
const DISC: &str = "#fbecc9";
const RED: &str = "#c0141c";
const BLACK: &str = "#1c1c1c";
const LAST_MOVE: &str = "#1c6fd1";

/// The character of a piece in the traditional set.
pub fn chinese_char(color: Color, kind: PieceKind) -> char {
    let (red, black) = match kind {
        PieceKind::King => ('帥', '將'),
        PieceKind::Advisor => ('仕', '士'),
        PieceKind::Elephant => ('相', '象'),
        PieceKind::Horse => ('傌', '馬'),
        PieceKind::Rook => ('俥', '車'),
        PieceKind::Cannon => ('炮', '砲'),
        PieceKind::Pawn => ('兵', '卒'),
    };
    if color == Color::Red {
        red
    } else {
        black
    }
}

/// A piece's WXF letter.
pub fn wxf_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

/// The file label of `side` for its file `n` (1 = its rightmost file).
fn file_label(side: Color, n: usize, style: Style) -> String {
    match (style, side) {
        (Style::Chinese, Color::Red) => "一二三四五六七八九".chars().nth(n - 1).map(String::from).unwrap_or_default(),
        (Style::Chinese, Color::Black) => "１２３４５６７８９".chars().nth(n - 1).map(String::from).unwrap_or_default(),
        (Style::Letters, _) => n.to_string(),
    }
}

impl Diagram<'_> {
    /// The centre of a board point on the picture.
    fn at(&self, sq: Square) -> (f64, f64) {
        let (f, r) = (sq.file() as f64, sq.rank() as f64);
        let (col, row) = if self.flip { (8.0 - f, r) } else { (f, 9.0 - r) };
        (MARGIN_X + col * CELL, MARGIN_Y + row * CELL)
    }

    /// The picture as SVG text.
    pub fn svg(&self) -> String {
        let width = 2.0 * MARGIN_X + 8.0 * CELL;
        let height = 2.0 * MARGIN_Y + 9.0 * CELL + if self.caption.is_some() { CAPTION_H } else { 0.0 };
        let mut s = Svg::new(width, height, &format!("xiangqi position {}", self.pos.to_fen()));
        s.add(El::new("rect").num("width", width).num("height", height).at("fill", WOOD));
        self.grid(&mut s);
        self.marks(&mut s);
        self.river(&mut s);
        self.labels(&mut s);
        self.last_move(&mut s);
        self.pieces(&mut s);
        for a in &self.arrows {
            self.arrow(&mut s, *a);
        }
        if let Some(c) = &self.caption {
            let t = El::new("text").num("x", width / 2.0).num("y", height - 14.0).at("text-anchor", "middle");
            s.add_text(t.num("font-size", 15.0).at("font-family", LATIN_FONTS).at("fill", INK), c);
        }
        s.finish()
    }

    /// The lines: ranks, files broken by the river, the frame, the palaces' diagonals.
    fn grid(&self, s: &mut Svg) {
        let (x0, y0) = (MARGIN_X, MARGIN_Y);
        let (x1, y1) = (x0 + 8.0 * CELL, y0 + 9.0 * CELL);
        let line = |s: &mut Svg, a: (f64, f64), b: (f64, f64)| {
            s.add(El::new("line").num("x1", a.0).num("y1", a.1).num("x2", b.0).num("y2", b.1));
        };
        s.open(El::new("g").at("stroke", INK).num("stroke-width", 1.4).at("stroke-linecap", "square"));
        for row in 0..10 {
            let y = y0 + row as f64 * CELL;
            line(s, (x0, y), (x1, y));
        }
        for col in 0..9 {
            let x = x0 + col as f64 * CELL;
            if col == 0 || col == 8 {
                line(s, (x, y0), (x, y1));
            } else {
                line(s, (x, y0), (x, y0 + 4.0 * CELL));
                line(s, (x, y0 + 5.0 * CELL), (x, y1));
            }
        }
        for top in [0.0, 7.0] {
            let (ya, yb) = (y0 + top * CELL, y0 + (top + 2.0) * CELL);
            line(s, (x0 + 3.0 * CELL, ya), (x0 + 5.0 * CELL, yb));
            line(s, (x0 + 5.0 * CELL, ya), (x0 + 3.0 * CELL, yb));
        }
        s.close();
        let m = PIECE_R + 5.0;
        let frame = El::new("rect").num("x", x0 - m).num("y", y0 - m).num("width", x1 - x0 + 2.0 * m);
        let frame = frame.num("height", y1 - y0 + 2.0 * m).at("fill", "none").at("stroke", INK);
        s.add(frame.num("stroke-width", 3.0));
    }

    /// The small corner marks around the cannons' and pawns' starting points.
    fn marks(&self, s: &mut Svg) {
        let (gap, len) = (4.0, 10.0);
        let mut d = String::new();
        let cannons = [(1, 2), (7, 2), (1, 7), (7, 7)];
        let pawns = (0..9).step_by(2).flat_map(|c| [(c, 3), (c, 6)]);
        for (col, row) in cannons.into_iter().chain(pawns) {
            let (x, y) = (MARGIN_X + col as f64 * CELL, MARGIN_Y + row as f64 * CELL);
            for (dx, dy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
                if (col == 0 && dx < 0.0) || (col == 8 && dx > 0.0) {
                    continue;
                }
                let ps = [
                    (x + dx * gap, y + dy * (gap + len)),
                    (x + dx * gap, y + dy * gap),
                    (x + dx * (gap + len), y + dy * gap),
                ];
                d += &format!("M{}", points(&ps).replace(' ', " L"));
            }
        }
        s.add(El::new("path").at("d", &d).at("fill", "none").at("stroke", INK).num("stroke-width", 1.2));
    }

    /// The river's words: 楚河 漢界, or their Latin names.
    fn river(&self, s: &mut Svg) {
        let y = MARGIN_Y + 4.5 * CELL;
        let (left, right, font, size) = match self.style {
            Style::Chinese => ("楚 河", "漢 界", CJK_FONTS, 0.62 * CELL),
            Style::Letters => ("CHU RIVER", "HAN BORDER", LATIN_FONTS, 0.34 * CELL),
        };
        for (col, text) in [(2.0, left), (6.0, right)] {
            let t = El::new("text").num("x", MARGIN_X + col * CELL).num("y", y + 0.36 * size);
            s.add_text(
                t.at("text-anchor", "middle").at("font-family", font).num("font-size", size).at("fill", INK),
                text,
            );
        }
    }

    /// The file numbers above and below the board, each side's in its own writing and colour;
    /// in letters mode also ICCS's file letters and rank digits.
    fn labels(&self, s: &mut Svg) {
        let (bottom, top) = if self.flip { (Color::Black, Color::Red) } else { (Color::Red, Color::Black) };
        let font = if self.style == Style::Chinese { CJK_FONTS } else { LATIN_FONTS };
        let size = 0.36 * CELL;
        for col in 0..9 {
            let x = MARGIN_X + col as f64 * CELL;
            for (side, n, y) in [(bottom, 9 - col, MARGIN_Y + 9.0 * CELL + 50.0), (top, col + 1, MARGIN_Y - 36.0)] {
                let t = El::new("text").num("x", x).num("y", y).at("text-anchor", "middle");
                let t = t.at("font-family", font).num("font-size", size).at("fill", side_color(side));
                s.add_text(t, &file_label(side, n, self.style));
            }
        }
        if self.style == Style::Letters {
            let small = |x: f64, y: f64| {
                let t = El::new("text").num("x", x).num("y", y).at("text-anchor", "middle");
                t.at("font-family", LATIN_FONTS).num("font-size", 11.0).at("fill", "#7a6040")
            };
            for f in 0..9u8 {
                let (x, y) = self.at(Square::new(f, if self.flip { 9 } else { 0 }));
                s.add_text(small(x, y + 63.0), &((b'a' + f) as char).to_string());
            }
            for r in 0..10u8 {
                let (_, y) = self.at(Square::new(0, r));
                s.add_text(small(MARGIN_X - 38.0, y + 4.0), &r.to_string());
            }
        }
    }

    /// The last move: a ring where the piece stands now and a dashed one where it came from.
    fn last_move(&self, s: &mut Svg) {
        let Some(m) = self.last else { return };
        let (fx, fy) = self.at(m.from());
        let (tx, ty) = self.at(m.to());
        let ring = |x: f64, y: f64, r: f64| El::new("circle").num("cx", x).num("cy", y).num("r", r).at("fill", "none");
        s.add(ring(fx, fy, 0.3 * CELL).at("stroke", LAST_MOVE).num("stroke-width", 2.0).at("stroke-dasharray", "4 3"));
        s.add(ring(tx, ty, PIECE_R + 3.5).at("stroke", LAST_MOVE).num("stroke-width", 3.0));
    }

    /// Every piece: a disc with a ring and its character or letter.
    fn pieces(&self, s: &mut Svg) {
        for side in [Color::Red, Color::Black] {
            for (kind, sq) in self.pos.pieces(side) {
                let (x, y) = self.at(sq);
                let ink = side_color(side);
                let dark = self.style == Style::Letters && side == Color::Black;
                let (fill, text_fill) = if dark { (BLACK, "#f4f4f4") } else { (DISC, ink) };
                let disc = El::new("circle").num("cx", x).num("cy", y).num("r", PIECE_R).at("fill", fill);
                s.add(disc.at("stroke", ink).num("stroke-width", 2.0));
                let inner = El::new("circle").num("cx", x).num("cy", y).num("r", PIECE_R - 4.0).at("fill", "none");
                s.add(inner.at("stroke", if dark { "#f4f4f4" } else { ink }).num("stroke-width", 1.0));
                let (text, font, size) = match self.style {
                    Style::Chinese => (chinese_char(side, kind), CJK_FONTS, 0.56 * CELL),
                    Style::Letters => (wxf_letter(kind), LATIN_FONTS, 0.5 * CELL),
                };
                let t = El::new("text").num("x", x).num("y", y + 0.36 * size).at("text-anchor", "middle");
                let t = t.at("font-family", font).num("font-size", size).at("fill", text_fill);
                s.add_text(t.at("font-weight", "bold"), &text.to_string());
            }
        }
    }

    /// An arrow from a move's point to its target, over the pieces.
    fn arrow(&self, s: &mut Svg, a: Arrow) {
        let ((x1, y1), (x2, y2)) = (self.at(a.mv.from()), self.at(a.mv.to()));
        let len = ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt();
        if len < 1.0 {
            return;
        }
        let (ux, uy) = ((x2 - x1) / len, (y2 - y1) / len);
        let (px, py) = (-uy, ux);
        let (shaft, head_len, head_w) = (0.07 * CELL, 0.42 * CELL, 0.22 * CELL);
        let tip = (x2 - ux * 0.15 * CELL, y2 - uy * 0.15 * CELL);
        let base = (tip.0 - ux * head_len, tip.1 - uy * head_len);
        let start = (x1 + ux * 0.12 * CELL, y1 + uy * 0.12 * CELL);
        let ps = [
            (start.0 + px * shaft, start.1 + py * shaft),
            (base.0 + px * shaft, base.1 + py * shaft),
            (base.0 + px * head_w, base.1 + py * head_w),
            tip,
            (base.0 - px * head_w, base.1 - py * head_w),
            (base.0 - px * shaft, base.1 - py * shaft),
            (start.0 - px * shaft, start.1 - py * shaft),
        ];
        let poly = El::new("polygon").at("points", &points(&ps)).at("fill", a.color).num("fill-opacity", 0.78);
        s.add(poly.at("stroke", "#ffffff").num("stroke-width", 1.0).num("stroke-opacity", 0.6));
    }
}

/// Red's or Black's ink.
fn side_color(side: Color) -> &'static str {
    if side == Color::Red {
        RED
    } else {
        BLACK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_numbered_from_each_side_s_right() {
        assert_eq!(file_label(Color::Red, 1, Style::Chinese), "一");
        assert_eq!(file_label(Color::Red, 9, Style::Chinese), "九");
        assert_eq!(file_label(Color::Black, 5, Style::Chinese), "５");
        assert_eq!(file_label(Color::Black, 7, Style::Letters), "7");
    }

    #[test]
    fn points_land_on_the_grid_both_ways_up() {
        let pos = Position::startpos();
        let d = |flip| Diagram { pos: &pos, last: None, arrows: vec![], style: Style::Chinese, flip, caption: None };
        let a0 = Square::parse("a0").unwrap();
        assert_eq!(d(false).at(a0), (MARGIN_X, MARGIN_Y + 9.0 * CELL));
        assert_eq!(d(true).at(a0), (MARGIN_X + 8.0 * CELL, MARGIN_Y));
        assert_eq!(d(false).at(Square::parse("i9").unwrap()), (MARGIN_X + 8.0 * CELL, MARGIN_Y));
    }

    #[test]
    fn the_start_position_has_32_discs_with_both_sets_of_characters() {
        let pos = Position::startpos();
        let svg =
            Diagram { pos: &pos, last: None, arrows: vec![], style: Style::Chinese, flip: false, caption: None }.svg();
        for c in "帥仕相傌俥炮兵將士象馬車砲卒楚河漢界九一１９".chars() {
            assert!(svg.contains(c), "{c}");
        }
        assert_eq!(svg.matches(&format!("r=\"{}\"", super::super::svg::num(PIECE_R))).count(), 32);
        let letters =
            Diagram { pos: &pos, last: None, arrows: vec![], style: Style::Letters, flip: true, caption: None };
        let svg = letters.svg();
        assert!(!svg.contains('帥') && svg.contains(">K</text>") && svg.contains("HAN BORDER"));
    }
}
