use super::*;
use crate::board::testing::random_games;

/// The opening of a published game line (central cannon against screen horses), hand-checked
/// square by square: Chinese, WXF and ICCS of each move.
const PUBLISHED: &[(&str, &str, &str)] = &[
    ("炮二平五", "C2=5", "h2e2"),
    ("马８进７", "H8+7", "h9g7"),
    ("马二进三", "H2+3", "h0g2"),
    ("车９平８", "R9=8", "i9h9"),
    ("车一平二", "R1=2", "i0h0"),
    ("马２进３", "H2+3", "b9c7"),
    ("兵七进一", "P7+1", "c3c4"),
    ("卒７进１", "P7+1", "g6g5"),
    ("车二进六", "R2+6", "h0h6"),
    ("炮８平９", "C8=9", "h7i7"),
    ("车二平三", "R2=3", "h6g6"),
    ("炮９退１", "C9-1", "i7i8"),
    ("马八进七", "H8+7", "b0c2"),
    ("士４进５", "A4+5", "d9e8"),
    ("马七进六", "H7+6", "c2d4"),
    ("炮９平７", "C9=7", "i8g8"),
    ("车三平四", "R3=4", "g6f6"),
    ("马７进８", "H7+8", "g7h5"),
];

#[test]
fn a_published_line_reads_and_writes_in_every_notation() {
    let mut pos = Position::startpos();
    for &(chinese, wxf, iccs) in PUBLISHED {
        let m = Move::parse(iccs).unwrap();
        for (text, n) in [(chinese, Notation::Chinese), (wxf, Notation::Wxf), (iccs, Notation::Iccs)] {
            assert_eq!(format_move(&pos, m, n), text);
            assert_eq!(parse_move(&pos, text), Ok(m), "{text}");
            assert_eq!(parse_move_as(&pos, text, n), Ok(m), "{text}");
        }
        pos.make_move(m);
    }
}

/// (FEN, ICCS move, Chinese, WXF): tandem pieces, hand-checked.
const TANDEM: &[(&str, &str, &str, &str)] = &[
    // Two Red rooks on file 二 (h): the front one is nearer Black.
    ("4k4/9/9/9/9/9/7R1/9/9/3K3R1 w", "h3h4", "前车进一", "+R+1"),
    ("4k4/9/9/9/9/9/7R1/9/9/3K3R1 w", "h0h1", "后车进一", "-R+1"),
    // Two Black cannons on file ８ (h): Black's front is the lower rank.
    ("4k4/9/7c1/9/7c1/9/9/9/9/3K5 b", "h5e5", "前炮平５", "+C=5"),
    ("4k4/9/7c1/9/7c1/9/9/9/9/3K5 b", "h7h8", "后炮退１", "-C-1"),
    // Three Red pawns on file 七 (c).
    ("4k4/9/2P6/2P6/2P6/9/9/9/9/3K5 w", "c7d7", "前兵平六", "+P=6"),
    ("4k4/9/2P6/2P6/2P6/9/9/9/9/3K5 w", "c6d6", "中兵平六", "P7=6"),
    ("4k4/9/2P6/2P6/2P6/9/9/9/9/3K5 w", "c5d5", "后兵平六", "-P=6"),
    // Two files with two Red pawns: numbered right file (三, g) first, front to rear.
    ("4k4/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w", "g6f6", "一兵平四", "Pa=4"),
    ("4k4/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w", "g5f5", "二兵平四", "Pb=4"),
    ("4k4/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w", "c6d6", "三兵平六", "Pc=6"),
    ("4k4/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w", "c5b5", "四兵平八", "Pd=8"),
    // Five Black pawns on file ３ (c), numbered from Black's front (rank 2) back.
    ("4k4/9/9/2p6/2p6/2p6/2p6/2p6/9/3K5 b", "c2d2", "一卒平４", "Pa=4"),
    ("4k4/9/9/2p6/2p6/2p6/2p6/2p6/9/3K5 b", "c4b4", "三卒平２", "Pc=2"),
    // Two Red horses on file 三 (g).
    ("4k4/9/9/9/9/6N2/9/6N2/9/3K5 w", "g4h6", "前马进二", "+H+2"),
    ("4k4/9/9/9/9/6N2/9/6N2/9/3K5 w", "g2e1", "后马退五", "-H-5"),
];

#[test]
fn tandem_pieces_are_named_by_place() {
    for &(fen, iccs, chinese, wxf) in TANDEM {
        let pos = Position::from_fen(&format!("{fen} - - 0 1")).unwrap();
        let m = Move::parse(iccs).unwrap();
        assert_eq!(format_move(&pos, m, Notation::Chinese), chinese, "{fen} {iccs}");
        assert_eq!(format_move(&pos, m, Notation::Wxf), wxf, "{fen} {iccs}");
        assert_eq!(parse_move(&pos, chinese), Ok(m), "{chinese}");
        assert_eq!(parse_move(&pos, wxf), Ok(m), "{wxf}");
    }
}

#[test]
fn other_published_tandem_forms_are_read() {
    let fen = |f: &str| Position::from_fen(&format!("{f} - - 0 1")).unwrap();
    let rooks = fen("4k4/9/9/9/9/9/7R1/9/9/3K3R1 w");
    let m = |s| Ok(Move::parse(s).unwrap());
    // The WXF's letter-first forms and their Chinese order (车前, 車後).
    assert_eq!(parse_move(&rooks, "R++1"), m("h3h4"));
    assert_eq!(parse_move(&rooks, "R-.4"), m("h0f0"));
    assert_eq!(parse_move(&rooks, "車後平四"), m("h0f0"));
    // Four pawns on one file: WXF ++ / P+ / P- / -- are the first, second, third and last.
    let four = fen("4k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w");
    assert_eq!(parse_move(&four, "++.6"), m("c8d8"));
    assert_eq!(parse_move(&four, "P+.6"), m("c7d7"));
    assert_eq!(parse_move(&four, "P-.6"), m("c6d6"));
    assert_eq!(parse_move(&four, "--.6"), m("c5d5"));
    assert_eq!(parse_move(&four, "后兵平六"), m("c5d5"));
    // Two files: WXF 3+.4 / 33.4 and Chinese 前兵三 name a file and a place on it.
    let two = fen("4k4/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w");
    assert_eq!(parse_move(&two, "7-.6"), m("c5d5"));
    assert_eq!(parse_move(&two, "前兵三平四"), m("g6f6"));
    let three = fen("4k4/9/2P6/2P6/2P6/9/9/9/9/3K5 w");
    assert_eq!(parse_move(&three, "77.6"), m("c6d6"));
    assert_eq!(parse_move(&three, "P..6"), m("c6d6"));
}

#[test]
fn errors_say_what_is_wrong_in_one_line() {
    let pos = Position::startpos();
    let err = |text: &str| parse_move(&pos, text).unwrap_err().to_string();
    assert_eq!(err("车一进四"), "'车一进四' is not a legal move for Red here");
    assert_eq!(err("h2h8"), "'h2h8' is not a legal move for Red here");
    let any = "expected ICCS (h2e2), WXF (C2=5) or Chinese (炮二平五)";
    assert_eq!(err("C2=5x"), format!("malformed move 'C2=5x': {any}"));
    assert_eq!(err("炮二走五"), format!("malformed move '炮二走五': {any}"));
    let as_ = |text, n| parse_move_as(&pos, text, n).unwrap_err().to_string();
    assert_eq!(as_("C2=5x", Notation::Wxf), "malformed move 'C2=5x': expected WXF like C2=5, H8+7 or +R-1");
    assert_eq!(
        as_("炮二走五", Notation::Chinese),
        "malformed move '炮二走五': expected Chinese like 炮二平五 or 马８进７"
    );
    assert_eq!(err("  "), "malformed move '  ': expected ICCS (h2e2), WXF (C2=5) or Chinese (炮二平五)");
    assert_eq!(
        parse_move_as(&pos, "C2=5", Notation::Iccs).unwrap_err().to_string(),
        "malformed move 'C2=5': expected ICCS like h2e2 or H2-E2"
    );
    // A file on which two pawns could both make the move.
    let two = Position::from_fen("4k4/9/9/2P6/2P6/9/9/9/9/3K5 w - - 0 1").unwrap();
    assert_eq!(
        parse_move(&two, "兵七平六").unwrap_err().to_string(),
        "ambiguous move '兵七平六': it could be c6d6 or c5d5"
    );
    assert_eq!(parse_move(&two, "兵七进一"), Ok(Move::parse("c6c7").unwrap()), "only the front pawn can advance");
}

#[test]
fn every_legal_move_of_random_games_round_trips() {
    random_games(0x5EED_2031, 12, 150, |pos, moves, _, _| {
        for &m in moves {
            for n in Notation::ALL {
                let text = format_move(pos, m, n);
                assert_eq!(parse_move(pos, &text), Ok(m), "{} {text}", pos.to_fen());
                assert_eq!(parse_move_as(pos, &text, n), Ok(m), "{} {text}", pos.to_fen());
            }
        }
    });
}

#[test]
fn move_lists_and_detection() {
    let start = Position::startpos();
    let moves: Vec<Move> = PUBLISHED.iter().map(|p| Move::parse(p.2).unwrap()).collect();
    let chinese = format_moves(&start, &moves, Notation::Chinese);
    assert_eq!(chinese, PUBLISHED.iter().map(|p| p.0).collect::<Vec<_>>());
    assert_eq!(parse_moves(&start, chinese.iter().map(String::as_str), None), Ok(moves.clone()));
    let wxf = format_moves(&start, &moves, Notation::Wxf);
    assert_eq!(parse_moves(&start, wxf.iter().map(String::as_str), Some(Notation::Wxf)), Ok(moves.clone()));
    assert_eq!(
        parse_moves(&start, ["C2=5", "炮８平５"], Some(Notation::Wxf)).unwrap_err(),
        "move 2: malformed move '炮８平５': expected WXF like C2=5, H8+7 or +R-1"
    );
    // An illegal ICCS move is kept for the judge; the words after it stay ICCS.
    let bad = parse_moves(&start, ["h2e2", "h2h9", "a0a1"], None).unwrap();
    assert_eq!(bad.iter().map(Move::to_string).collect::<Vec<_>>(), ["h2e2", "h2h9", "a0a1"]);
    assert!(parse_moves(&start, ["h2h8", "C2=5"], None).is_err());
    assert_eq!(format_moves(&start, &[Move::parse("h2h8").unwrap()], Notation::Chinese), ["h2h8"]);
    for (text, n) in
        [("h2e2", Notation::Iccs), ("H2-E2", Notation::Iccs), ("C2.5", Notation::Wxf), ("马8进7", Notation::Chinese)]
    {
        assert_eq!(Notation::detect(text), Some(n), "{text}");
    }
    assert_eq!(Notation::from_name(" wxf "), Some(Notation::Wxf));
    assert_eq!(Notation::from_name("XQF"), None);
}
