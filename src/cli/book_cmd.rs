//! `chuhe book build ...` (an opening book from PGN games) and `chuhe book probe ...` (a
//! position's book moves with their weights), over `crate::book`.

use super::args::{take_list, Args};
use crate::board::Position;
use crate::book::build::{build, GameLine, Limits};
use crate::book::{eleeye, native, total_weight, Book, Format};
use crate::matches::pgn::read_games;
use crate::matches::text::read_file;
use crate::notation::parse_moves;

/// One line for `chuhe --help`.
pub(super) const ABOUT: &str = "make an opening book from PGN games; list a position's book moves";

/// `chuhe book --help`.
pub(super) const HELP: &str = "\
usage:
  chuhe book build --pgn FILE... --out FILE [--depth PLIES] [--min-games N]
                   [--format chuhe|eleeye]
  chuhe book probe [--book] FILE [--fen FEN] [--moves \"M1 M2 ...\"]

build (--name VALUE or --name=VALUE; --pgn takes the words up to the next flag):
  --pgn FILE...     PGN games (chuhe match's -pgnout, or another tool's): moves in ICCS, WXF
                    or Chinese notation ([Format] tag, else detected), UTF-8 or GBK
  --out FILE        the book to write (replaced if it exists)
  --depth PLIES     plies from each game's start that go into the book (default 20)
  --min-games N     keep positions reached in at least N games (default 2)
  --format F        chuhe (Chuhe's own format, the default) or eleeye (ElephantEye's BOOK.DAT
                    layout, for ElephantEye and UCCI GUIs)

  Each finished game ('*' games are skipped) counts every position once with the move played
  and the mover's points: 2 for a win, 1 for a draw, 0 for a loss. A move's weight is the sum
  of its points (2 x wins + draws); moves of weight 0 are left out.

probe:
  [--book] FILE     a book in either format (detected from the file)
  --fen FEN         the position (default: the start position)
  --moves \"...\"     moves played from it first, in ICCS (h2e2, H2-E2), WXF (C2=5) or
                    Chinese (炮二平五)

  Lists the book's legal moves for the position, heaviest first: move, weight, share. A
  position that is not in the book is looked up as its left-right mirror.

The engine plays from a book with UCCI 'setoption bookfiles FILE' (and usebook, on by
default), UCI 'setoption name OwnBook value true' and 'setoption name BookFile value FILE',
CECP 'option OwnBook=1' and 'option BookFile=FILE' (see docs/book.md).

examples:
  chuhe book build --pgn samples/games.pgn --out /tmp/chuhe-help.book --min-games 1
  chuhe book probe --book /tmp/chuhe-help.book
  chuhe book probe --book=/tmp/chuhe-help.book --moves \"h2e2\"
  chuhe book build --pgn samples/games.pgn --out=/tmp/chuhe-help.dat --format=eleeye --min-games 1
  chuhe book probe --book /tmp/chuhe-help.dat --moves \"b2e2\"     # the mirror of h2e2
";

/// Runs `build` or `probe`.
pub fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("build") => run_build(&args[1..]),
        Some("probe") => run_probe(&args[1..]),
        Some(other) => Err(format!("unknown subcommand '{other}': expected build or probe (see --help)")),
        None => Err("expected build or probe (see --help)".to_string()),
    }
}

fn run_build(args: &[String]) -> Result<(), String> {
    let (files, rest) = take_list(args, "pgn");
    let files =
        files.filter(|f| !f.is_empty()).ok_or(format!("--pgn FILE... is required {}", super::args::SEE_HELP))?;
    let a = Args::parse(&rest, &["out", "depth", "min-games", "format"], &[])?;
    let out = a.value("out").ok_or(format!("--out FILE is required {}", super::args::SEE_HELP))?;
    let depth = a.number("depth", 1, 1000, Some(20))? as usize;
    let min_games = a.number("min-games", 1, u64::from(u32::MAX), Some(2))? as u32;
    let format = match a.value("format") {
        None => Format::Chuhe,
        Some(f) => Format::parse(f).ok_or_else(|| format!("--format '{f}' must be chuhe or eleeye"))?,
    };
    let mut games = Vec::new();
    for f in &files {
        let pgn = read_games(&read_file(f)?);
        if pgn.is_empty() {
            return Err(format!("{f}: no PGN games"));
        }
        for (i, g) in pgn.iter().enumerate() {
            let (start, moves) =
                g.start_and_moves().map_err(|e| format!("{f} game {} (line {}): {e}", i + 1, g.line))?;
            games.push(GameLine { start, moves, result: g.result });
        }
    }
    let (entries, s) = build(&games, Limits { depth, min_games });
    let bytes = match format {
        Format::Chuhe => native::write(&entries),
        Format::Eleeye => eleeye::write(&entries),
    };
    if entries.is_empty() {
        return Err(format!(
            "no position was reached in {min_games} or more finished games within {depth} plies; nothing written"
        ));
    }
    std::fs::write(out, &bytes).map_err(|e| format!("cannot write '{out}': {e}"))?;
    let mut notes = String::new();
    if s.unfinished > 0 {
        notes += &format!(", {} unfinished skipped", s.unfinished);
    }
    if s.illegal > 0 {
        notes += &format!(", {} cut at an illegal move", s.illegal);
    }
    outln!(
        "{out}: {} book, {} positions, {} moves, from {} games{notes} (depth {depth}, min-games {min_games})",
        format.name(),
        s.positions,
        s.moves,
        s.games
    );
    Ok(())
}

fn run_probe(args: &[String]) -> Result<(), String> {
    let a = Args::parse_with_positional(args, &["book", "fen", "moves"], &[], &["book"])?;
    let path = a.value("book").ok_or(format!("--book FILE is required {}", super::args::SEE_HELP))?;
    let mut pos: Position = a.position()?;
    let texts = a.value("moves").unwrap_or("").split_whitespace();
    for (i, m) in parse_moves(&pos, texts, None)?.into_iter().enumerate() {
        if !pos.is_legal(m) {
            return Err(format!("move {}: '{m}' is not legal in {}", i + 1, pos.to_fen()));
        }
        pos.make_move(m);
    }
    let book = Book::load(path)?;
    let moves = book.moves(&pos);
    let head = format!("{path}: {} book, {} records", book.format().name(), book.records());
    if moves.is_empty() {
        outln!("{head}; the position is not in the book");
        return Ok(());
    }
    let total = total_weight(&moves);
    let n = moves.len();
    outln!("{head}; {n} move{}, total weight {total}", if n == 1 { "" } else { "s" });
    for b in &moves {
        outln!("{}  {:>6}  {:5.1}%", b.mv, b.weight, 100.0 * f64::from(b.weight) / total as f64);
    }
    Ok(())
}
