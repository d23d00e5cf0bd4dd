//! Chinese notation (中文纵线格式): 炮二平五, 马８进７, 前车进一, 中兵平四, 一兵平四.

use super::naming::{Dir, Pick, Place, Written};
use crate::board::{Color, PieceKind};

/// Red's file and step numerals.
const RED_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
/// Black's: full-width Arabic digits.
const BLACK_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The piece's character as printed for `side` (simplified, xqbase's set).
fn piece_char(side: Color, kind: PieceKind) -> char {
    let (red, black) = match kind {
        PieceKind::King => ('帅', '将'),
        PieceKind::Advisor => ('仕', '士'),
        PieceKind::Elephant => ('相', '象'),
        PieceKind::Horse => ('马', '马'),
        PieceKind::Rook => ('车', '车'),
        PieceKind::Cannon => ('炮', '炮'),
        PieceKind::Pawn => ('兵', '卒'),
    };
    if side == Color::Red {
        red
    } else {
        black
    }
}

/// One character of a written move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sign {
    Piece(PieceKind),
    Digit(u8),
    Place(Place),
    Dir(Dir),
}

/// What `c` means, accepting simplified and traditional forms, both sides' piece names and
/// every digit style (Chinese numerals, full-width and half-width digits).
fn sign(c: char) -> Option<Sign> {
    use PieceKind::*;
    let kind = match c {
        '帅' | '帥' | '将' | '將' => Some(King),
        '仕' | '士' => Some(Advisor),
        '相' | '象' => Some(Elephant),
        '马' | '馬' | '傌' | '㐷' => Some(Horse),
        '车' | '車' | '俥' | '伡' => Some(Rook),
        '炮' | '砲' | '包' => Some(Cannon),
        '兵' | '卒' => Some(Pawn),
        _ => None,
    };
    if let Some(k) = kind {
        return Some(Sign::Piece(k));
    }
    if let Some(i) = RED_DIGITS.iter().chain(&BLACK_DIGITS).position(|&d| d == c) {
        return Some(Sign::Digit(i as u8 % 9 + 1));
    }
    Some(match c {
        '1'..='9' => Sign::Digit(c as u8 - b'0'),
        '前' => Sign::Place(Place::Front),
        '中' => Sign::Place(Place::Middle),
        '后' | '後' => Sign::Place(Place::Rear),
        '进' | '進' => Sign::Dir(Dir::Forward),
        '退' => Sign::Dir(Dir::Back),
        '平' => Sign::Dir(Dir::Across),
        _ => return None,
    })
}

/// `w` in Chinese for `side`.
pub(super) fn render(side: Color, w: &Written) -> String {
    let digits = if side == Color::Red { &RED_DIGITS } else { &BLACK_DIGITS };
    let digit = |n: u8| digits[usize::from(n.clamp(1, 9)) - 1];
    let piece = piece_char(side, w.kind);
    let place = |p: Place| match p {
        Place::Front => '前',
        Place::Middle => '中',
        Place::Rear => '后',
        Place::Nth(k) => RED_DIGITS[usize::from(k.clamp(1, 9)) - 1],
    };
    let mut s = String::new();
    match w.pick {
        Pick::File(f) => s.extend([piece, digit(f)]),
        Pick::Tandem(p) => s.extend([place(p), piece]),
        Pick::Beside(front) => s.extend([piece, if front { '前' } else { '后' }]),
        Pick::OnFile(f, p) => s.extend([place(p), piece, digit(f)]),
    }
    s.push(match w.dir {
        Dir::Forward => '进',
        Dir::Back => '退',
        Dir::Across => '平',
    });
    s.push(digit(w.number));
    s
}

/// Reads a Chinese move: `None` when it is not one.
pub(super) fn parse(text: &str) -> Option<Written> {
    let signs: Vec<Sign> = text.chars().filter(|c| !c.is_whitespace()).map(sign).collect::<Option<_>>()?;
    use Sign::*;
    let (kind, pick, dir, number) = match signs[..] {
        // 炮二平五
        [Piece(k), Digit(f), Dir(d), Digit(n)] => (k, Pick::File(f), d, n),
        // 前车进一, 中兵平四
        [Place(p), Piece(k), Dir(d), Digit(n)] => (k, Pick::Tandem(p), d, n),
        // 一兵平四 .. 五兵平四 (4 or 5 tandem pawns)
        [Digit(i), Piece(k), Dir(d), Digit(n)] if i <= 5 => (k, Pick::Tandem(self::Place::Nth(i)), d, n),
        // 车前进一 (the WXF's Chinese order)
        [Piece(k), Place(p), Dir(d), Digit(n)] if p != self::Place::Middle => {
            (k, Pick::Beside(p == self::Place::Front), d, n)
        }
        // 前兵三平四, 二兵三平四: a place within the named file
        [Place(p), Piece(k), Digit(f), Dir(d), Digit(n)] => (k, Pick::OnFile(f, p), d, n),
        [Digit(i), Piece(k), Digit(f), Dir(d), Digit(n)] if i <= 5 => (k, Pick::OnFile(f, self::Place::Nth(i)), d, n),
        _ => return None,
    };
    Some(Written { kind, pick, dir, number })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_variants_and_writes_xqbase_characters() {
        let w = parse("炮二平五").unwrap();
        assert_eq!(w, Written { kind: PieceKind::Cannon, pick: Pick::File(2), dir: Dir::Across, number: 5 });
        assert_eq!(render(Color::Red, &w), "炮二平五");
        assert_eq!(render(Color::Black, &w), "炮２平５");
        for same in ["砲二平五", "包2平5", "炮 二 平 五", "炮２平５"] {
            assert_eq!(parse(same), Some(w), "{same}");
        }
        let w = parse("後俥進1").unwrap();
        assert_eq!(w, Written { kind: PieceKind::Rook, pick: Pick::Tandem(Place::Rear), dir: Dir::Forward, number: 1 });
        assert_eq!(render(Color::Red, &w), "后车进一");
        assert_eq!(render(Color::Black, &w), "后车进１");
        let w = parse("三卒平４").unwrap();
        assert_eq!(render(Color::Black, &w), "三卒平４");
        assert_eq!(parse("车前平三").unwrap().pick, Pick::Beside(true));
        assert_eq!(parse("前兵三平四").unwrap().pick, Pick::OnFile(3, Place::Front));
        for bad in ["", "炮二平", "炮二平五六", "车中进一", "六兵平四", "炮二走五", "h2e2"] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
