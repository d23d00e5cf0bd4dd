//! The evaluation graph of an analysed game: Red's expected score after each move (Red's share
//! below the curve, Black's above it), the moves analysis marked as dots.

use super::board::LATIN_FONTS;
use super::svg::{points, El, Svg};
use crate::board::Color;

/// What the graph shows.
pub struct EvalGraph<'a> {
    /// The line above the graph (the players).
    pub title: &'a str,
    /// Red's expected score (0..1) in the start position, then after each move.
    pub red_chance: Vec<f64>,
    /// The marked moves: ply (1 = the first move), the mover and the mark (`?!`, `?`, `??`).
    pub marks: Vec<(usize, Color, &'static str)>,
    /// The move number of the first move and whether Black makes it.
    pub first_move: (u32, bool),
}

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 300.0;
/// The plot's edges.
const LEFT: f64 = 74.0;
const RIGHT: f64 = WIDTH - 16.0;
const TOP: f64 = 46.0;
const BOTTOM: f64 = HEIGHT - 36.0;
/// Red's share, Black's share, the curve.
const RED_AREA: &str = "#f3b8b4";
const BLACK_AREA: &str = "#c9c9c9";
const CURVE: &str = "#8a1c1c";
const TEXT: &str = "#333333";

/// A mark's colour: yellow, orange, red.
pub fn mark_color(mark: &str) -> &'static str {
    match mark {
        "??" => "#c92a2a",
        "?" => "#e8590c",
        _ => "#e0a800",
    }
}

impl EvalGraph<'_> {
    /// The point of ply `i` with Red's chance `p`.
    fn at(&self, i: usize, p: f64) -> (f64, f64) {
        let plies = (self.red_chance.len().max(2) - 1) as f64;
        (LEFT + (RIGHT - LEFT) * i as f64 / plies, BOTTOM - (BOTTOM - TOP) * p.clamp(0.0, 1.0))
    }

    /// The graph as SVG text.
    pub fn svg(&self) -> String {
        let mut s = Svg::new(WIDTH, HEIGHT, &format!("evaluation graph: {}", self.title));
        s.add(El::new("rect").num("width", WIDTH).num("height", HEIGHT).at("fill", "#ffffff"));
        let text = |x: f64, y: f64, anchor: &str, size: f64| {
            let t = El::new("text").num("x", x).num("y", y).at("text-anchor", anchor);
            t.num("font-size", size).at("font-family", LATIN_FONTS)
        };
        s.add_text(text(LEFT, 20.0, "start", 15.0).at("font-weight", "bold").at("fill", TEXT), self.title);
        s.add_text(
            text(LEFT, 37.0, "start", 11.0).at("fill", TEXT),
            "Red's expected score after each move (engine's view)",
        );
        let plot = El::new("rect").num("x", LEFT).num("y", TOP).num("width", RIGHT - LEFT);
        s.add(plot.num("height", BOTTOM - TOP).at("fill", BLACK_AREA));
        let mut curve: Vec<(f64, f64)> = self.red_chance.iter().enumerate().map(|(i, &p)| self.at(i, p)).collect();
        if curve.len() == 1 {
            curve.push(self.at(1, self.red_chance[0]));
        }
        let mut area = vec![(LEFT, BOTTOM)];
        area.extend(&curve);
        area.push((curve.last().map_or(LEFT, |p| p.0), BOTTOM));
        s.add(El::new("polygon").at("points", &points(&area)).at("fill", RED_AREA));
        let mid = BOTTOM - (BOTTOM - TOP) / 2.0;
        let dash = El::new("line").num("x1", LEFT).num("y1", mid).num("x2", RIGHT).num("y2", mid);
        s.add(dash.at("stroke", "#777777").num("stroke-width", 1.0).at("stroke-dasharray", "4 4"));
        let line = El::new("polyline").at("points", &points(&curve)).at("fill", "none").at("stroke", CURVE);
        s.add(line.num("stroke-width", 2.0).at("stroke-linejoin", "round"));
        for (y, label) in [(TOP, "Red 100%"), (mid, "50%"), (BOTTOM, "Black 100%")] {
            s.add_text(text(LEFT - 6.0, y + 4.0, "end", 10.0).at("fill", TEXT), label);
        }
        self.x_axis(&mut s, &text);
        self.dots(&mut s, &text);
        s.finish()
    }

    /// Move numbers under the plot at Red's moves, about ten of them.
    fn x_axis(&self, s: &mut Svg, text: &dyn Fn(f64, f64, &str, f64) -> El) {
        let plies = self.red_chance.len().saturating_sub(1);
        let (first, black_first) = self.first_move;
        let moves = (plies + usize::from(black_first)).div_ceil(2).max(1);
        let step = [1, 2, 5, 10, 20, 25, 50, 100].into_iter().find(|s| moves / s < 12).unwrap_or(200);
        // Ply `p` (1 = the first move) is Red's when its parity says so.
        for p in (1..=plies).filter(|p| (p % 2 == 1) != black_first) {
            let number = first as usize + (p - 1 + usize::from(black_first)) / 2;
            if !number.is_multiple_of(step) {
                continue;
            }
            let (x, _) = self.at(p, 0.0);
            let tick = El::new("line").num("x1", x).num("y1", BOTTOM).num("x2", x).num("y2", BOTTOM + 4.0);
            s.add(tick.at("stroke", TEXT).num("stroke-width", 1.0));
            s.add_text(text(x, BOTTOM + 16.0, "middle", 10.0).at("fill", TEXT), &number.to_string());
        }
        s.add_text(text(RIGHT, HEIGHT - 6.0, "end", 10.0).at("fill", TEXT), "move");
    }

    /// A dot per marked move, coloured by its mark, with the mark beside it.
    fn dots(&self, s: &mut Svg, text: &dyn Fn(f64, f64, &str, f64) -> El) {
        for &(ply, side, mark) in &self.marks {
            let Some(&p) = self.red_chance.get(ply) else { continue };
            let (x, y) = self.at(ply, p);
            let ring = if side == Color::Red { "#ffffff" } else { "#000000" };
            let dot = El::new("circle").num("cx", x).num("cy", y).num("r", 4.5).at("fill", mark_color(mark));
            s.add(dot.at("stroke", ring).num("stroke-width", 1.2));
            let dy = if p > 0.85 { 16.0 } else { -8.0 };
            s.add_text(text(x, y + dy, "middle", 10.0).at("fill", mark_color(mark)).at("font-weight", "bold"), mark);
        }
        let mut x = RIGHT;
        for (mark, name) in [("??", "blunder"), ("?", "mistake"), ("?!", "inaccuracy")] {
            let label = format!("{mark} {name}");
            x -= 8.0 + 6.5 * label.len() as f64;
            s.add(El::new("circle").num("cx", x - 7.0).num("cy", 33.0).num("r", 4.0).at("fill", mark_color(mark)));
            s.add_text(text(x, 37.0, "start", 11.0).at("fill", TEXT), &label);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_spans_the_plot_and_dots_follow_marks() {
        let g = EvalGraph {
            title: "A vs B",
            red_chance: vec![0.5, 0.55, 0.2, 0.25, 0.9],
            marks: vec![(2, Color::Black, "??"), (2, Color::Red, "?!")],
            first_move: (1, false),
        };
        assert_eq!(g.at(0, 1.0), (LEFT, TOP));
        assert_eq!(g.at(4, 0.0), (RIGHT, BOTTOM));
        let svg = g.svg();
        assert_eq!(svg.matches("<polyline").count(), 1);
        assert!(svg.contains(mark_color("??")) && svg.contains(">??</text>") && svg.contains(">A vs B</text>"));
        // A game of one position still draws.
        let one = EvalGraph { title: "x", red_chance: vec![0.5], marks: vec![], first_move: (7, true) };
        assert!(one.svg().contains("<polyline"));
    }
}
