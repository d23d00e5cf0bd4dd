//! `chuhe analyze GAME.pgn`: every move of a game searched and graded, printed as a table,
//! written as annotated PGN, drawn as an evaluation graph and as diagrams of the mistakes.

use super::args::Args;
use super::user_moves::{write_move, Notation};
use crate::analysis::{analyse, annotate, Analysis};
use crate::board::{Color, Move, Position};
use crate::matches::pgn::{read_games, PgnGame};
use crate::picture::{self, board, Arrow, Diagram, EvalGraph, Format, Style};
use crate::search::{Engine, Limits};
use std::io::IsTerminal;

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "grade every move of a PGN game: evaluations, best lines, ?! ? ??, graph";

/// `chuhe analyze --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe analyze [--pgn] GAME.pgn [--game N] [--movetime MS | --depth D | --nodes N] [--threads T]
                [--hash MB] [--out FILE.pgn] [--graph FILE.svg|FILE.png] [--diagrams DIR]

options (--name VALUE or --name=VALUE):
  [--pgn] FILE    the game's PGN file (required; the flag may be left out)
  --game N        which game of the file, from 1 (default 1)
  --movetime MS   search each position this long (default 1000)
  --depth D       search each position to depth D, 1 to 60, instead
  --nodes N       search each position N nodes instead
  --threads T     search threads (default 1; more than one: results vary from run to run)
  --hash MB       transposition table (default 64)
  --out FILE      write the game as annotated PGN: every move's evaluation in Red's view as
                  {+0.35/14} (pawns/depth), its mark, and the engine's line where it
                  preferred another move, as a variation
  --graph FILE    the evaluation graph (Red's expected score after each move, marks as dots)
  --diagrams DIR  one SVG diagram per marked move: the move played (orange arrow) and the
                  engine's choice (green) in the position before it

Prints one line per move: number, move, mark, evaluation after it in Red's view, and the
engine's choice with its line where it differs; then each side's count of marks and average
loss. A move is marked by the expected score (win 1, draw 1/2) its mover lost against the
engine's best move: ?! from 0.10, ? from 0.20, ?? from 0.30 (lichess's thresholds); the
expected score is 1/(1+e^(-cp/K)) with K the evaluation's fitted scale (510 for the shipped
net). With --depth or --nodes and one thread the output is the same on every run. A progress
bar on stderr shows when stderr is a terminal.

examples:
  chuhe analyze samples/blunder.pgn --depth 6
  chuhe analyze samples/games.pgn --game 2 --movetime 200 --out /tmp/annotated.pgn
  chuhe analyze samples/blunder.pgn --nodes 20000 --graph /tmp/eval.svg --diagrams /tmp/mistakes
";

/// Analyses the game and writes what was asked.
pub fn run(args: &[String]) -> Result<(), String> {
    let valued = ["pgn", "game", "movetime", "depth", "nodes", "threads", "hash", "out", "graph", "diagrams"];
    let a = Args::parse_with_positional(args, &valued, &[], &["pgn"])?;
    let path = a.value("pgn").ok_or(format!("GAME.pgn is required {}", super::args::SEE_HELP))?;
    let limits = limits(&a)?;
    let graph = a.value("graph").map(|g| Format::of(g).map(|f| (g, f))).transpose()?;
    let games = read_games(&crate::matches::text::read_file(path)?);
    let n = a.number("game", 1, u64::from(u32::MAX), Some(1))? as usize;
    let game = games.get(n - 1).ok_or_else(|| match games.len() {
        0 => format!("{path}: no games"),
        k => format!("--game {n}: {path} has {k} game{}", if k == 1 { "" } else { "s" }),
    })?;
    let (start, moves) = replay(game).map_err(|e| format!("{path} game {n} (line {}): {e}", game.line))?;
    let mut engine = Engine::new();
    engine.set_threads(a.number("threads", 1, 512, Some(1))? as usize);
    if let Some(note) = engine.set_hash_mb(a.number("hash", 1, 1 << 20, Some(64))? as usize) {
        eprintln!("note: {note}");
    }
    let analysis = with_progress(moves.len() + 1, |tick| analyse(&mut engine, &start, &moves, &limits, tick));
    let notation = game.notation();
    print_table(&start, &moves, &analysis, notation);
    if let Some(out) = a.value("out") {
        let annotator = format!("Chuhe {}, {}", env!("CARGO_PKG_VERSION"), limits_text(&limits));
        let write = |p: &Position, m: Move| write_move(p, m, notation);
        let annotated = annotate::Annotated {
            tags: &game.tags,
            result: game.result,
            start: &start,
            moves: &moves,
            analysis: &analysis,
            annotator: &annotator,
            format: notation.name(),
            write_move: &write,
        };
        std::fs::write(out, annotate::write(&annotated)).map_err(|e| format!("cannot write '{out}': {e}"))?;
        outln!("wrote {out}");
    }
    if let Some((file, format)) = graph {
        draw_graph(game, &start, &analysis, file, format)?;
        outln!("wrote {file}");
    }
    if let Some(dir) = a.value("diagrams") {
        let n = draw_mistakes(dir, &start, &moves, &analysis, notation)?;
        outln!("wrote {n} diagram{} in {dir}", if n == 1 { "" } else { "s" });
    }
    Ok(())
}

/// The search limit: one of --movetime, --depth, --nodes (default: a second a position).
fn limits(a: &Args) -> Result<Limits, String> {
    let given: Vec<&str> = ["movetime", "depth", "nodes"].into_iter().filter(|f| a.value(f).is_some()).collect();
    if given.len() > 1 {
        return Err(format!("--{} and --{} exclude each other", given[0], given[1]));
    }
    Ok(match given.first() {
        Some(&"depth") => Limits { depth: Some(a.number("depth", 1, 60, None)? as u32), ..Limits::default() },
        Some(&"nodes") => Limits { nodes: Some(a.number("nodes", 1, u64::MAX, None)?), ..Limits::default() },
        _ => Limits { movetime_ms: Some(a.number("movetime", 1, 86_400_000, Some(1000))?), ..Limits::default() },
    })
}

/// The limits as `[Annotator]` names them.
fn limits_text(l: &Limits) -> String {
    match (l.depth, l.nodes, l.movetime_ms) {
        (Some(d), _, _) => format!("depth {d}"),
        (_, Some(n), _) => format!("{n} nodes"),
        (_, _, Some(ms)) => format!("{ms} ms"),
        _ => "no limit".into(),
    }
}

/// The game's start and its moves, each checked legal in turn.
fn replay(game: &PgnGame) -> Result<(Position, Vec<Move>), String> {
    let (start, moves) = game.start_and_moves()?;
    let mut pos = start.clone();
    for (i, &m) in moves.iter().enumerate() {
        if !pos.is_legal(m) {
            return Err(format!("move {} '{}' is illegal in {}", i + 1, game.moves[i], pos.to_fen()));
        }
        pos.make_move(m);
    }
    Ok((start, moves))
}

/// Runs `work` with a progress bar of `len` steps on stderr (hidden when stderr is not a
/// terminal); `work` calls its argument with the steps done.
fn with_progress<T>(len: usize, work: impl FnOnce(&mut dyn FnMut(usize)) -> T) -> T {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    if let Ok(style) = ProgressStyle::with_template("analysing {bar:40} {pos}/{len} positions, {eta} left") {
        bar.set_style(style);
    }
    let result = work(&mut |done| bar.set_position(done as u64));
    bar.finish_and_clear();
    result
}

/// The move's number as players write it: `12.` for Red, `12...` for Black.
fn move_number(pos: &Position) -> String {
    let n = pos.fullmove_number().max(1);
    if pos.side_to_move() == Color::Red {
        format!("{n}.")
    } else {
        format!("{n}...")
    }
}

/// One line per move, then each side's summary.
fn print_table(start: &Position, moves: &[Move], a: &Analysis, notation: Notation) {
    let mut pos = start.clone();
    let mut out = String::new();
    for (i, &m) in moves.iter().enumerate() {
        let r = &a.moves[i];
        let after = &a.positions[i + 1];
        let mut line = format!(
            "{:<7}{:<10}{:<3}{:>7}/{:<3}",
            move_number(&pos),
            write_move(&pos, m, notation),
            r.mark.map_or("", |k| k.glyph()),
            after.score.text(),
            after.depth
        );
        if a.best_differs(i) {
            let here = &a.positions[i];
            let mut p = pos.clone();
            let mut words = Vec::new();
            for &lm in here.line.iter().take(annotate::LINE_PLIES) {
                words.push(write_move(&p, lm, notation));
                p.make_move(lm);
            }
            line += &format!("  best {}: {}", here.score.text(), words.join(" "));
        }
        out += line.trim_end();
        out.push('\n');
        pos.make_move(m);
    }
    for side in [Color::Red, Color::Black] {
        use crate::analysis::Mark::*;
        let n = |k| a.count(side, k);
        out += &format!(
            "{:<6} ?! {}  ? {}  ?? {}  average loss {:.1}% of the expected score\n",
            side.name(),
            n(Inaccuracy),
            n(Mistake),
            n(Blunder),
            a.average_loss(side)
        );
    }
    out!("{out}");
}

/// Writes the evaluation graph.
fn draw_graph(game: &PgnGame, start: &Position, a: &Analysis, file: &str, format: Format) -> Result<(), String> {
    let name = |n: &str| if n.is_empty() { "?".to_string() } else { n.to_string() };
    let title = format!("{} vs {}", name(&game.red), name(&game.black));
    let marks = a.moves.iter().enumerate().filter_map(|(i, r)| r.mark.map(|k| (i + 1, r.mover, k.glyph()))).collect();
    let first = (start.fullmove_number().max(1), start.side_to_move() == Color::Black);
    let g = EvalGraph {
        title: &title,
        red_chance: a.positions.iter().map(|p| p.red_expected).collect(),
        marks,
        first_move: first,
    };
    if format == Format::Png && !picture::png::has_latin_font() {
        eprintln!("note: no installed font has Latin letters; the PNG graph has no text");
    }
    picture::write(file, &g.svg(), 1.5)
}

/// One SVG diagram per marked move, in `dir` (made if missing); returns how many.
fn draw_mistakes(
    dir: &str,
    start: &Position,
    moves: &[Move],
    a: &Analysis,
    notation: Notation,
) -> Result<usize, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make '{dir}': {e}"))?;
    let mut pos = start.clone();
    let mut written = 0;
    for (i, &m) in moves.iter().enumerate() {
        if let Some(mark) = a.moves[i].mark {
            let mut arrows = vec![Arrow { mv: m, color: board::ARROW_RED }];
            let best = a.positions[i].line.first().copied();
            arrows.extend(best.map(|b| Arrow { mv: b, color: board::ARROW_GREEN }));
            let played = write_move(&pos, m, notation);
            let caption = match best {
                Some(b) => format!(
                    "{} {played}{} ({}): played in orange, {} in green",
                    move_number(&pos),
                    mark.glyph(),
                    mark.name(),
                    write_move(&pos, b, notation)
                ),
                None => format!("{} {played}{} ({})", move_number(&pos), mark.glyph(), mark.name()),
            };
            let last = i.checked_sub(1).map(|j| moves[j]);
            let d = Diagram {
                pos: &pos,
                last,
                arrows,
                style: Style::Chinese,
                flip: pos.side_to_move() == Color::Black,
                caption: Some(caption),
            };
            let side = if pos.side_to_move() == Color::Red { "red" } else { "black" };
            let file = std::path::Path::new(dir).join(format!("move-{:03}-{side}.svg", pos.fullmove_number().max(1)));
            picture::write(&file.to_string_lossy(), &d.svg(), 1.0)?;
            written += 1;
        }
        pos.make_move(m);
    }
    Ok(written)
}
