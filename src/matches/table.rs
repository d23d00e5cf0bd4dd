//! The cross table of a round-robin: engines by score, with games, points, score, Elo against
//! the field (from the engine's results against all opponents together) and the points scored
//! against each opponent.

use super::stats::Tally;

/// `t` from the other engine's side.
fn mirrored(t: &Tally) -> Tally {
    Tally { wins: t.losses, losses: t.wins, draws: t.draws }
}

/// Points: a win 1, a draw ½.
fn points(t: &Tally) -> f64 {
    t.wins as f64 + 0.5 * t.draws as f64
}

/// An Elo number for the table: one decimal, `inf`/`-inf`, `-` when undefined.
fn elo_text(x: f64) -> String {
    if x.is_nan() {
        "-".to_string()
    } else if x.is_infinite() {
        (if x > 0.0 { "inf" } else { "-inf" }).to_string()
    } else {
        format!("{:.1}", x + 0.0)
    }
}

/// The table's lines for engines `names`, from the tally of each pair in `pairs` (counted
/// from the pair's first engine's side). The opponent columns are numbered by rank.
pub fn cross_table(names: &[&str], pairs: &[(usize, usize)], tallies: &[Tally]) -> Vec<String> {
    let n = names.len();
    let mut total = vec![Tally::default(); n];
    let mut head_to_head = vec![vec![None::<Tally>; n]; n];
    for (&(a, b), t) in pairs.iter().zip(tallies) {
        let m = mirrored(t);
        for (e, r) in [(a, t), (b, &m)] {
            total[e].wins += r.wins;
            total[e].losses += r.losses;
            total[e].draws += r.draws;
        }
        head_to_head[a][b] = Some(*t);
        head_to_head[b][a] = Some(m);
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| {
        let (tx, ty) = (&total[x], &total[y]);
        ty.score().total_cmp(&tx.score()).then(points(ty).total_cmp(&points(tx))).then(x.cmp(&y))
    });
    let cell = |row: usize, col: usize| match head_to_head[row][col] {
        _ if row == col => "-".to_string(),
        Some(t) => format!("{:.1}/{}", points(&t), t.games()),
        None => String::new(),
    };
    let name_w = names.iter().map(|s| s.chars().count()).max().unwrap_or(0).max(4);
    let cell_w = order.iter().flat_map(|&r| order.iter().map(move |&c| (r, c))).map(|(r, c)| cell(r, c).len()).max();
    let cell_w = cell_w.unwrap_or(1).max(order.len().to_string().len());
    let mut header = format!(
        "{:>4}  {:<name_w$}  {:>5}  {:>6}  {:>6}  {:>7}  {:>6}",
        "Rank", "Name", "Games", "Points", "Score", "Elo", "+/-"
    );
    for k in 1..=n {
        header += &format!("  {k:<cell_w$}");
    }
    let mut lines = vec![header.trim_end().to_string()];
    for (rank, &e) in order.iter().enumerate() {
        let t = &total[e];
        let score = if t.games() == 0 { "-".to_string() } else { format!("{:.1}%", 100.0 * t.score()) };
        let mut line = format!(
            "{:>4}  {:<name_w$}  {:>5}  {:>6.1}  {:>6}  {:>7}  {:>6}",
            rank + 1,
            names[e],
            t.games(),
            points(t),
            score,
            elo_text(if t.games() == 0 { f64::NAN } else { t.elo() }),
            elo_text(t.elo_error())
        );
        for &opp in &order {
            line += &format!("  {:<cell_w$}", cell(e, opp));
        }
        lines.push(line.trim_end().to_string());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_by_score_with_head_to_head_cells() {
        let names = ["A", "Bee", "C"];
        let pairs = [(0, 1), (0, 2), (1, 2)];
        let t = |wins, losses, draws| Tally { wins, losses, draws };
        // A beats Bee 2-0 and scores 1.5 of 2 against C; Bee and C split their games.
        let lines = cross_table(&names, &pairs, &[t(2, 0, 0), t(1, 0, 1), t(1, 1, 0)]);
        assert_eq!(lines[0], "Rank  Name  Games  Points   Score      Elo     +/-  1      2      3");
        assert!(lines[1].starts_with("   1  A         4     3.5   87.5%    338.0 "), "{}", lines[1]);
        assert!(lines[1].ends_with("  -      1.5/2  2.0/2"), "{}", lines[1]);
        assert!(lines[2].starts_with("   2  C         4     1.5   37.5%    -88.7 "), "{}", lines[2]);
        assert!(lines[2].ends_with("  0.5/2  -      1.0/2"), "{}", lines[2]);
        assert!(lines[3].starts_with("   3  Bee       4     1.0   25.0%   -190.8 "), "{}", lines[3]);
        assert!(lines[3].ends_with("  0.0/2  1.0/2  -"), "{}", lines[3]);
        // No games yet: nothing undefined is printed as a number.
        let empty = cross_table(&names, &pairs, &[Tally::default(); 3]);
        assert!(empty[1].starts_with("   1  A         0     0.0       -        -       -"), "{}", empty[1]);
    }
}
