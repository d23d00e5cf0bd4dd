//! WXF notation: `C2=5`, `H8+7`, `+R-1`, the tandem-pawn forms (`Pa=4`, `P3=4`, `++.4`, `3+.4`).

use super::naming::{Dir, Pick, Place, Written};
use crate::board::PieceKind;

/// The WXF letter of a kind (K A E H R C P).
fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        k => k.letter(),
    }
}

/// `w` in WXF; `file` is the moving piece's file (the middle of three pawns is written by it).
pub(super) fn render(w: &Written, file: u8) -> String {
    let l = letter(w.kind);
    let digit = |n: u8| char::from(b'0' + n.clamp(1, 9));
    let mut s = String::new();
    match w.pick {
        Pick::File(f) => s.extend([l, digit(f)]),
        Pick::Tandem(Place::Front) => s.extend(['+', l]),
        Pick::Tandem(Place::Rear) => s.extend(['-', l]),
        Pick::Tandem(Place::Middle) => s.extend([l, digit(file)]),
        Pick::Tandem(Place::Nth(k)) => s.extend([l, char::from(b'a' + k.clamp(1, 5) - 1)]),
        Pick::Beside(front) => s.extend([l, if front { '+' } else { '-' }]),
        Pick::OnFile(f, p) => s.extend([
            digit(f),
            match p {
                Place::Front => '+',
                Place::Rear => '-',
                Place::Middle => digit(f),
                Place::Nth(k) => char::from(b'a' + k.clamp(1, 5) - 1),
            },
        ]),
    }
    s.push(match w.dir {
        Dir::Forward => '+',
        Dir::Back => '-',
        Dir::Across => '=',
    });
    s.push(digit(w.number));
    s
}

/// A direction sign: `+`, `-`, and `=` or `.` for along the rank.
fn dir(c: char) -> Option<Dir> {
    match c {
        '+' => Some(Dir::Forward),
        '-' => Some(Dir::Back),
        '=' | '.' => Some(Dir::Across),
        _ => None,
    }
}

/// A digit 1..9.
fn digit(c: char) -> Option<u8> {
    matches!(c, '1'..='9').then(|| c as u8 - b'0')
}

/// Reads a WXF move: `None` when it is not one. Letters in either case; E or B, H or N.
pub(super) fn parse(text: &str) -> Option<Written> {
    let c: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let kind = |c: char| PieceKind::from_letter(c).filter(|_| c.is_ascii_alphabetic());
    let (kind, pick, d, n) = match c[..] {
        // C25: along the rank without a sign (some Chinese manuals).
        [l, f, n] => (kind(l)?, Pick::File(digit(f)?), Dir::Across, n),
        [a, b, d, n] => {
            let pick = match (kind(a), b) {
                (Some(_), '1'..='9') => Pick::File(digit(b)?),
                (Some(_), '+' | '-') => Pick::Beside(b == '+'),
                (Some(_), '.') => Pick::Tandem(Place::Middle),
                (Some(_), 'a'..='e') => Pick::Tandem(Place::Nth(b as u8 - b'a' + 1)),
                (None, _) => match (a, b) {
                    ('+', '+') => Pick::Tandem(Place::Front),
                    ('-', '-') => Pick::Tandem(Place::Rear),
                    ('+' | '-', _) if kind(b).is_some() => {
                        Pick::Tandem(if a == '+' { Place::Front } else { Place::Rear })
                    }
                    ('1'..='9', '+') => Pick::OnFile(digit(a)?, Place::Front),
                    ('1'..='9', '-') => Pick::OnFile(digit(a)?, Place::Rear),
                    ('1'..='9', _) if a == b => Pick::OnFile(digit(a)?, Place::Middle),
                    _ => return None,
                },
                _ => return None,
            };
            let k = match (kind(a), kind(b)) {
                (Some(k), _) => k,
                (None, Some(k)) if matches!(a, '+' | '-') => k,
                _ => PieceKind::Pawn,
            };
            (k, pick, dir(d)?, n)
        }
        _ => return None,
    };
    Some(Written { kind, pick, dir: d, number: digit(n)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_published_forms() {
        let w = |kind, pick, dir, number| Some(Written { kind, pick, dir, number });
        use PieceKind::*;
        assert_eq!(parse("C2=5"), w(Cannon, Pick::File(2), Dir::Across, 5));
        assert_eq!(parse("c2.5"), parse("C2=5"));
        assert_eq!(parse("C25"), parse("C2=5"));
        assert_eq!(parse("H8+7"), w(Horse, Pick::File(8), Dir::Forward, 7));
        assert_eq!(parse("N8+7"), parse("H8+7"));
        assert_eq!(parse("B3+5"), w(Elephant, Pick::File(3), Dir::Forward, 5));
        assert_eq!(parse("+R-1"), w(Rook, Pick::Tandem(Place::Front), Dir::Back, 1));
        assert_eq!(parse("R+.3"), w(Rook, Pick::Beside(true), Dir::Across, 3));
        assert_eq!(parse("C--1"), w(Cannon, Pick::Beside(false), Dir::Back, 1));
        assert_eq!(parse("P..4"), w(Pawn, Pick::Tandem(Place::Middle), Dir::Across, 4));
        assert_eq!(parse("Pc=4"), w(Pawn, Pick::Tandem(Place::Nth(3)), Dir::Across, 4));
        assert_eq!(parse("++.4"), w(Pawn, Pick::Tandem(Place::Front), Dir::Across, 4));
        assert_eq!(parse("--+1"), w(Pawn, Pick::Tandem(Place::Rear), Dir::Forward, 1));
        assert_eq!(parse("3+.4"), w(Pawn, Pick::OnFile(3, Place::Front), Dir::Across, 4));
        assert_eq!(parse("33.4"), w(Pawn, Pick::OnFile(3, Place::Middle), Dir::Across, 4));
        assert_eq!(parse("7-.6"), w(Pawn, Pick::OnFile(7, Place::Rear), Dir::Across, 6));
        for bad in ["", "C2", "C2=0", "C0=5", "X2=5", "C2*5", "C2=55", "34.4", "+2=5", "Cf=4", "h2e2"] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn writes_what_it_reads() {
        use PieceKind::*;
        let picks = [
            Pick::File(2),
            Pick::Tandem(Place::Front),
            Pick::Tandem(Place::Rear),
            Pick::Tandem(Place::Nth(4)),
            Pick::Beside(false),
            Pick::OnFile(3, Place::Front),
            Pick::OnFile(3, Place::Middle),
        ];
        for pick in picks {
            let w = Written { kind: Pawn, pick, dir: Dir::Forward, number: 1 };
            assert_eq!(parse(&render(&w, 3)), Some(w), "{pick:?}");
        }
        let w = Written { kind: Horse, pick: Pick::File(8), dir: Dir::Forward, number: 7 };
        assert_eq!(render(&w, 8), "H8+7");
        let mid = Written { kind: Pawn, pick: Pick::Tandem(Place::Middle), dir: Dir::Across, number: 4 };
        assert_eq!(render(&mid, 3), "P3=4");
    }
}
