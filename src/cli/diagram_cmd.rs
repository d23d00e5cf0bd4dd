//! `chuhe diagram`: a picture of a position (SVG, or PNG rendered from it) with the last move
//! and arrows, as players draw the board.

use super::args::{take_list, Args};
use super::user_moves::read_move;
use crate::matches::pgn::read_games;
use crate::picture::{self, board::ARROW_GREEN, png, Arrow, Diagram, Format, Style};

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "draw a position as an SVG or PNG picture, with the last move and arrows";

/// `chuhe diagram --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe diagram [--fen FEN] [--moves M1 M2 ...] [--arrow MOVE]... [--chinese | --letters]
                [--flip] [--out] FILE.svg|FILE.png

options (--name VALUE or --name=VALUE; --moves and --arrow take the words up to the next flag):
  --fen FEN        the position (default: the start position)
  --moves M...     moves played from it first, in ICCS (h2e2 or H2-E2); the last is marked
  --arrow MOVE...  arrows to draw, from point to point in ICCS (h2e2); repeatable
  --chinese        pieces as Chinese characters, files in Chinese numerals (the default)
  --letters        pieces as WXF letters (K A E H R C P), files 1-9, ICCS coordinates beside
  --flip           Black at the bottom
  [--out] FILE     the picture: .svg (written as text) or .png (rendered with resvg); the
                   flag may be left out (a last word ending .svg/.png after a list is it too)

The board as players know it: the river (楚河 漢界), the palaces, the marks at the cannon and
pawn points, Red's files 九..一 along the bottom and Black's １..９ along the top (WXF: 9..1
and 1..9). Pieces are discs with the traditional characters, Red 帥仕相傌俥炮兵 and Black
將士象馬車砲卒. The SVG names a list of Chinese fonts with fallbacks; a PNG needs a font with
these characters installed (fonts-noto-cjk, fonts-droid-fallback...), and without one it is
drawn with letters (a note on stderr says so).

examples:
  chuhe diagram /tmp/start.svg
  chuhe diagram --moves h2e2 h9g7 --arrow h0g2 --out /tmp/board.png
  chuhe diagram --fen \"4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1\" --letters --flip --out /tmp/end.svg
";

/// Draws the diagram and writes it.
pub fn run(args: &[String]) -> Result<(), String> {
    let (mut moves, mut rest) = take_list(args, "moves");
    let (mut arrows, tail) = take_list(&rest, "arrow");
    rest = tail;
    // `--moves h2e2 h9g7 out.svg`: a picture's name ending a list is the output, not a move.
    for list in [&mut moves, &mut arrows].into_iter().flatten() {
        if list.last().is_some_and(|w| Format::of(w).is_ok()) {
            rest.extend(list.pop());
        }
    }
    let a = Args::parse_with_positional(&rest, &["fen", "out"], &["chinese", "letters", "flip"], &["out"])?;
    let out = a.value("out").ok_or(format!("--out FILE.svg|FILE.png is required {}", super::args::SEE_HELP))?;
    let format = Format::of(out)?;
    let mut pos = a.position()?;
    let mut last = None;
    for word in played(moves.unwrap_or_default())? {
        let m = read_move(&pos, &word)?;
        pos.make_move(m);
        last = Some(m);
    }
    let arrows = arrows
        .unwrap_or_default()
        .iter()
        .flat_map(|w| w.split_whitespace().map(String::from).collect::<Vec<_>>())
        .map(|w| {
            crate::notation::iccs_move(&w)
                .ok_or_else(|| format!("malformed move '{w}': expected ICCS like h2e2"))
                .map(|mv| Arrow { mv, color: ARROW_GREEN })
                .map_err(|e| format!("--arrow: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let style = match (a.flag("chinese"), a.flag("letters")) {
        (true, true) => return Err("--chinese and --letters exclude each other".into()),
        (_, true) => Style::Letters,
        _ => Style::Chinese,
    };
    let style = png_style(format, style);
    let d = Diagram { pos: &pos, last, arrows, style, flip: a.flag("flip"), caption: None };
    picture::write(out, &d.svg(), 1.0)?;
    outln!("wrote {out}: {}", pos.to_fen());
    Ok(())
}

/// The words of `--moves` as moves: PGN move numbers and results skipped.
fn played(words: Vec<String>) -> Result<Vec<String>, String> {
    let games = read_games(&words.join(" "));
    match games.as_slice() {
        [] => Ok(Vec::new()),
        [g] => Ok(g.moves.clone()),
        _ => Err("--moves holds more than one game (a result in the middle)".into()),
    }
}

/// The style a picture is drawn in: a PNG without a font for the Chinese characters is drawn
/// with letters (said on stderr), since the renderer would leave the discs blank.
pub fn png_style(format: Format, style: Style) -> Style {
    if format != Format::Png || style != Style::Chinese || png::has_chinese_font() {
        return style;
    }
    eprintln!(
        "note: no installed font has the pieces' Chinese characters (install fonts-noto-cjk or \
         fonts-droid-fallback); the PNG shows letters"
    );
    Style::Letters
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_skip_numbers_and_results() {
        let w = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert_eq!(played(w("1. h2e2 h9g7 2. H0-G2")).unwrap(), ["h2e2", "h9g7", "H0-G2"]);
        assert_eq!(played(w("h2e2 h9g7")).unwrap(), ["h2e2", "h9g7"]);
        assert!(played(w("h2e2 1-0 h9g7")).is_err());
        assert!(played(vec![]).unwrap().is_empty());
    }
}
