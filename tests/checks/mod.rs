//! Checks shared by the property tests, the fuzz targets (which include this file by path)
//! and the fuzz regression tests: the engine's board against the reference rules, and the
//! "never panic, round-trip exactly" contracts of the text parsers. Each check panics with
//! a message naming the position and the move when something disagrees.

pub mod protocol;

use crate::reference::{move_text, RefBoard, RefMove};
use chuhe::board::{Color, Move, MoveList, Piece, PieceKind, Position, Square};

/// Sorted ICCS texts of a move list.
fn texts(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Sorted ICCS texts of reference moves.
fn ref_texts(moves: &[RefMove]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|&m| move_text(m)).collect();
    v.sort();
    v
}

/// The placement field of a FEN.
pub fn placement(fen: &str) -> &str {
    fen.split(' ').next().unwrap_or("")
}

/// The reference board for `pos`, read from its FEN text.
pub fn reference_of(pos: &Position) -> RefBoard {
    RefBoard::parse_fen(&pos.to_fen()).unwrap_or_else(|e| panic!("reference cannot read {:?}: {e}", pos.to_fen()))
}

/// Every agreement between `pos` and the reference that does not play a move: placement,
/// counts, move sets (legal, captures, pseudo), check, per-piece captures and their
/// legality for the owner, `is_legal` over the moves of every own piece, FEN round trip,
/// key, null move. Returns the reference board and the legal moves for the caller to use.
pub fn check_static(pos: &Position) -> (RefBoard, MoveList) {
    let fen = pos.to_fen();
    let rb = reference_of(pos);
    assert_eq!(rb.placement(), placement(&fen), "placement of {fen}");
    assert_eq!(rb.problem(), None, "engine holds a position the reference calls impossible: {fen}");
    assert_eq!(pos.key(), pos.compute_key(), "incremental key of {fen}");
    let side = if pos.side_to_move() == Color::Red { "w" } else { "b" };
    assert_eq!(fen.split(' ').nth(1), Some(side), "side field of {fen}");

    // Piece-by-piece view.
    for color in [Color::Red, Color::Black] {
        let total: u32 = PieceKind::ALL.iter().map(|&k| pos.count(color, k)).sum();
        assert_eq!(total as usize, pos.pieces(color).count(), "counts of {fen}");
        let k = pos.king_square(color);
        assert_eq!(pos.piece_at(k).map(|p| (p.color(), p.kind())), Some((color, PieceKind::King)), "king of {fen}");
        for (kind, sq) in pos.pieces(color) {
            assert_eq!(pos.piece_at(sq), Some(Piece::new(color, kind)), "pieces() of {fen}");
            let id = pos.piece_id_at(sq).expect("piece has an id");
            assert_eq!(pos.square_of_id(id), Some(sq), "id of {sq} in {fen}");
        }
    }

    // Move sets.
    let legal = pos.legal_moves();
    let ref_legal = rb.legal_moves();
    assert_eq!(texts(&legal), ref_texts(&ref_legal), "legal moves of {fen}");
    let mut caps = MoveList::new();
    pos.generate_legal_captures(&mut caps);
    let ref_caps: Vec<RefMove> = ref_legal.iter().copied().filter(|&m| rb.is_capture(m)).collect();
    assert_eq!(texts(&caps), ref_texts(&ref_caps), "legal captures of {fen}");
    let mut pseudo = MoveList::new();
    pos.generate_pseudo(&mut pseudo);
    assert_eq!(texts(&pseudo), ref_texts(&rb.pseudo_moves(rb.to_move)), "pseudo-legal moves of {fen}");
    assert_eq!(pos.in_check(), rb.in_check(), "in_check of {fen}");
    assert_eq!(pos.has_legal_move(), !ref_legal.is_empty(), "has_legal_move of {fen}");
    for m in &legal {
        assert_eq!(pos.is_capture(*m), pos.piece_at(m.to()).is_some(), "is_capture {m} in {fen}");
    }

    // Per-piece captures for the owner, whoever is to move, and their legality for it.
    for p in rb.all_points() {
        if rb.at(p).is_none() {
            continue;
        }
        let sq = Square::new(p.0 as u8, p.1 as u8);
        let mut list = MoveList::new();
        pos.captures_from(sq, &mut list);
        let want: Vec<RefMove> = rb.piece_moves(p).into_iter().filter(|&m| rb.is_capture(m)).collect();
        assert_eq!(texts(&list), ref_texts(&want), "captures_from {sq} in {fen}");
        for m in &list {
            let r = want.iter().find(|&&w| move_text(w) == m.to_string()).expect("same set");
            assert_eq!(pos.is_legal_for_owner(*m), rb.legal_for_owner(*r), "is_legal_for_owner {m} in {fen}");
        }
    }

    // is_legal on every move of every own piece to every point, and on a few junk moves.
    let legal_set = texts(&legal);
    let own = pos.side_to_move();
    for (_, from) in pos.pieces(own) {
        for to in Square::all() {
            let m = Move::new(from, to);
            let want = legal_set.binary_search(&m.to_string()).is_ok();
            assert_eq!(pos.is_legal(m), want, "is_legal {m} in {fen}");
        }
    }
    for raw in [0u16, 0xFFFF, 0x3333, 0x0033, 0x3300] {
        let m = Move(raw);
        if !legal.contains(&m) {
            assert!(!pos.is_legal(m), "is_legal accepted junk {raw:#x} in {fen}");
        }
    }

    // FEN round trip.
    let again = Position::from_fen(&fen).unwrap_or_else(|e| panic!("own FEN {fen} rejected: {e}"));
    assert_eq!(again.to_fen(), fen, "FEN round trip");
    assert_eq!(again.key(), pos.key(), "key after FEN round trip of {fen}");

    // Null move.
    let mut p = pos.clone();
    let u = p.make_null();
    assert_eq!(p.key(), p.compute_key(), "key after null move in {fen}");
    assert_ne!(p.side_to_move(), pos.side_to_move());
    p.unmake_null(u);
    assert!(p == *pos, "null move round trip in {fen}");
    (rb, legal)
}

/// Plays `m` (legal) on `pos` and checks it against the reference: `gives_check`, the
/// placement after it, the key, the counters, and that unmake restores everything
/// (`pos` is left as it was).
pub fn check_move(pos: &mut Position, rb: &RefBoard, m: Move) {
    let fen = pos.to_fen();
    let before = pos.clone();
    let r = rb
        .pseudo_moves(rb.to_move)
        .into_iter()
        .find(|&r| move_text(r) == m.to_string())
        .filter(|&r| rb.legal_for_owner(r))
        .unwrap_or_else(|| panic!("{m} is not legal for the reference in {fen}"));
    let next = rb.after(r);
    let predicted = pos.gives_check(m);
    let captured = pos.piece_at(m.to());
    let undo = pos.make_move(m);
    assert_eq!(undo.captured(), captured, "captured piece of {m} in {fen}");
    let after = pos.to_fen();
    assert_eq!(placement(&after), next.placement(), "placement after {m} in {fen}");
    assert_eq!(predicted, pos.in_check(), "gives_check {m} vs in_check after it, in {fen}");
    assert_eq!(predicted, next.in_check(), "gives_check {m} vs reference, in {fen}");
    assert_eq!(pos.key(), pos.compute_key(), "key after {m} in {fen}");
    assert!(!pos.king_attacked(before.side_to_move()), "{m} left its own king attacked in {fen}");
    let clock = if captured.is_some() { 0 } else { (before.halfmove_clock() + 1).min(u16::MAX as u32) };
    assert_eq!(pos.halfmove_clock(), clock, "ply clock after {m} in {fen}");
    pos.unmake_move(m, undo);
    assert!(*pos == before, "unmake {m}: {:?} != {fen}", pos.to_fen());
}

/// Fuzz entry: arbitrary bytes as a FEN. Must never panic; when accepted, the position must
/// agree with the reference in everything, and every legal move must check out.
pub fn check_fen_bytes(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(mut pos) = Position::from_fen(&text) else { return };
    let (rb, legal) = check_static(&pos);
    for m in legal {
        check_move(&mut pos, &rb, m);
    }
}

/// Positions the move-text fuzz target plays on, chosen by the first byte.
pub const MOVE_TEXT_FENS: [&str; 4] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabr1/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2",
    "3k5/4P4/9/9/9/9/9/9/4C4/4K4 w - - 0 1",
    "3akab2/9/4b4/9/2C6/6R2/9/9/4A4/4K4 w - - 0 1",
];

/// Fuzz entry: arbitrary bytes as move text. The first byte picks a position; the rest, read
/// as words, are parsed as ICCS moves and played when legal. Parsing must never panic, must
/// print back what it read (lower-cased), and `is_legal` must agree with the legal list.
pub fn check_move_text_bytes(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    let mut pos = Position::from_fen(MOVE_TEXT_FENS[pick as usize % MOVE_TEXT_FENS.len()]).expect("fixed FEN");
    let text = String::from_utf8_lossy(rest);
    for word in text.split_whitespace().take(64) {
        if let Some(sq) = Square::parse(word) {
            assert_eq!(sq.to_string(), word.to_ascii_lowercase(), "square text {word:?}");
        }
        let Ok(m) = Move::parse(word) else { continue };
        assert_eq!(m.to_string(), word.to_ascii_lowercase(), "move text {word:?}");
        assert_eq!(Move::parse(&m.to_string()), Ok(m), "reparse of {word:?}");
        let legal = pos.legal_moves();
        assert_eq!(pos.is_legal(m), legal.contains(&m), "is_legal {m} in {}", pos.to_fen());
        if legal.contains(&m) {
            let rb = reference_of(&pos);
            check_move(&mut pos, &rb, m);
            pos.make_move(m);
        }
    }
}
