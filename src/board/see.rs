//! Static exchange evaluation: the material balance of the captures on one point, each side
//! capturing with its least valuable piece and free to stop. The exchange is played out on a
//! copy of the cells, so a cannon's screen appears or vanishes as pieces leave and arrive,
//! a horse's leg opens when the piece on it captures, and a pawn captures sideways only
//! across the river. Pins are ignored; a king captures only onto a point the other side
//! no longer attacks.

use super::mv::Move;
use super::piece::{Color, PieceKind};
use super::position::{cell_kind, side_bit, Position, EMPTY, OFF};
use super::square::{Square, ON_BOARD};
use super::tables::{forward, in_palace, own_half, DIAG, HORSE_ATTACK, ORTHO};

/// The cheapest piece of `by` that could capture on `sq` in `cells`: its cell index and kind.
/// Kinds are tried from cheap to dear by the caller's `values`.
fn least_valuable_attacker(cells: &[u8; 256], sq: Square, by: Color, values: &[i32; 7]) -> Option<(usize, PieceKind)> {
    let eb = side_bit(by);
    let k = sq.0 as i16;
    let at = |s: i16| cells[s as u8 as usize];
    let is = |s: i16, kind: PieceKind| {
        let c = at(s);
        c & eb != 0 && cell_kind(c) == kind
    };
    let mut best: Option<(usize, PieceKind)> = None;
    let mut offer = |s: i16, kind: PieceKind| {
        if best.is_none_or(|(_, b)| values[kind.index()] < values[b.index()]) {
            best = Some((s as u8 as usize, kind));
        }
    };
    if is(k - forward(by), PieceKind::Pawn) {
        offer(k - forward(by), PieceKind::Pawn);
    }
    if !own_half(sq, by) {
        for s in [k + 1, k - 1] {
            if is(s, PieceKind::Pawn) {
                offer(s, PieceKind::Pawn);
            }
        }
    }
    if in_palace(sq, by) {
        for d in DIAG {
            if is(k + d, PieceKind::Advisor) {
                offer(k + d, PieceKind::Advisor);
            }
        }
        for d in ORTHO {
            if is(k + d, PieceKind::King) {
                offer(k + d, PieceKind::King);
            }
        }
    }
    if own_half(sq, by) {
        for d in DIAG {
            let t = k + 2 * d;
            if ON_BOARD[t as u8 as usize] && at(k + d) == EMPTY && is(t, PieceKind::Elephant) {
                offer(t, PieceKind::Elephant);
            }
        }
    }
    for (leg, horses) in HORSE_ATTACK {
        if at(k + leg) == EMPTY {
            for h in horses {
                if is(k + h, PieceKind::Horse) {
                    offer(k + h, PieceKind::Horse);
                }
            }
        }
    }
    for d in ORTHO {
        let mut s = k + d;
        while at(s) == EMPTY {
            s += d;
        }
        if at(s) == OFF {
            continue;
        }
        if is(s, PieceKind::Rook) {
            offer(s, PieceKind::Rook);
        }
        s += d;
        while at(s) == EMPTY {
            s += d;
        }
        if is(s, PieceKind::Cannon) {
            offer(s, PieceKind::Cannon);
        }
    }
    best
}

impl Position {
    /// The static exchange value of `m` for the side making it, in the units of `values`
    /// (one per kind, by `PieceKind::index`): what it captures, less what the best sequence
    /// of replies on the same point wins back. A quiet move scores 0 or the loss of the piece.
    pub fn see(&self, m: Move, values: &[i32; 7]) -> i32 {
        let to = m.to();
        let value_at = |cells: &[u8; 256], i: usize| match cells[i] {
            EMPTY | OFF => 0,
            c => values[cell_kind(c).index()],
        };
        let mut cells = self.cells;
        // gain[d]: the balance for the side making capture d if the exchange stopped after it.
        let mut gain = [0i32; 34];
        gain[0] = value_at(&cells, to.index());
        let mut on_point = value_at(&cells, m.from().index());
        cells[to.index()] = cells[m.from().index()];
        cells[m.from().index()] = EMPTY;
        let mut side = self.side_to_move().opp();
        let mut d = 0;
        while d + 1 < gain.len() {
            let Some((from, kind)) = least_valuable_attacker(&cells, to, side, values) else {
                break;
            };
            cells[to.index()] = cells[from];
            cells[from] = EMPTY;
            if kind == PieceKind::King && least_valuable_attacker(&cells, to, side.opp(), values).is_some() {
                break;
            }
            d += 1;
            gain[d] = on_point - gain[d - 1];
            on_point = values[kind.index()];
            side = side.opp();
        }
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        gain[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V: [i32; 7] = [10_000, 200, 200, 400, 900, 450, 100];

    fn see(fen: &str, m: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let m = Move::parse(m).unwrap();
        assert!(pos.legal_moves().contains(&m), "{m} is not legal in {fen}");
        pos.see(m, &V)
    }

    #[test]
    fn free_and_defended_captures() {
        // Rook takes an undefended pawn; then a pawn the horse d8 defends (leg d7 empty).
        assert_eq!(see("3k5/9/9/9/p3R4/9/9/9/9/5K3 w - - 0 1", "e5a5"), 100);
        assert_eq!(see("4k4/3n5/9/4p4/4R4/9/9/9/9/3K5 w - - 0 1", "e5e6"), 100 - 900);
        // With the horse's leg blocked, the pawn is free.
        assert_eq!(see("4k4/3n5/3p5/4p4/4R4/9/9/9/9/3K5 w - - 0 1", "e5e6"), 100);
    }

    #[test]
    fn cannon_screens_change_as_pieces_move() {
        // Red's rook takes the horse e6; Black's cannon e9 recaptures over its advisor e8.
        assert_eq!(see("3k5/9/9/4n4/9/4R4/9/9/9/5K3 w - - 0 1", "e4e6"), 400);
        assert_eq!(see("3kc4/4a4/9/4n4/9/4R4/9/9/9/5K3 w - - 0 1", "e4e6"), 400 - 900);
        // Red's cannon e2 had the rook e4 as its screen: once the rook has gone to e6 the
        // cannon has none, so it cannot recapture.
        assert_eq!(see("3kc4/4a4/9/4n4/9/4R4/9/4C4/9/5K3 w - - 0 1", "e4e6"), 400 - 900);
        // A second rook behind the first does recapture: horse and cannon for a rook.
        assert_eq!(see("3kc4/4a4/9/4n4/9/4R4/9/4R4/9/5K3 w - - 0 1", "e4e6"), 400 - 900 + 450);
    }

    #[test]
    fn pawns_capture_sideways_only_across_the_river() {
        // Black's pawn d4 (across the river for Black) defends e4 sideways.
        assert_eq!(see("4k4/9/9/9/9/3pp4/9/9/9/3KR4 w - - 0 1", "e0e4"), 100 - 900);
        // Black's pawn d6 is on its own side: it does not defend e6 sideways.
        assert_eq!(see("4k4/9/9/3pp4/9/9/9/9/9/3KR4 w - - 0 1", "e0e6"), 100);
    }

    #[test]
    fn a_king_recaptures_only_onto_a_safe_point() {
        // Black's king e9 takes the rook on e8 unless Red's horse d6 guards that point.
        assert_eq!(see("4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1", "e1e8"), 200 - 900);
        assert_eq!(see("4k4/4a4/9/3H5/9/9/9/9/4R4/3K5 w - - 0 1", "e1e8"), 200);
    }

    #[test]
    fn quiet_moves_onto_attacked_points_lose_the_piece() {
        // Black's rook d9 covers d4 down the open file, not f4.
        assert_eq!(see("3rk4/9/9/9/9/9/9/4H4/9/5K3 w - - 0 1", "e2d4"), -400);
        assert_eq!(see("3rk4/9/9/9/9/9/9/4H4/9/5K3 w - - 0 1", "e2f4"), 0);
    }

    #[test]
    fn exchanges_are_bounded_by_what_is_at_stake() {
        // On random positions: a capture wins at most its victim and at least the victim less
        // the capturing piece (the capturer may stop after one recapture); a quiet move never
        // gains. (A victim `attacked_by` calls undefended may still be defended once the
        // mover has left: a cannon's screen or a horse's leg changes.)
        super::super::testing::random_games(7, 40, 120, |pos, moves, _, _| {
            for &m in moves {
                let s = pos.see(m, &V);
                match pos.piece_at(m.to()) {
                    Some(victim) => {
                        let v = V[victim.kind().index()];
                        assert!(s <= v, "{m}: {s} > {v}");
                        let mover = V[pos.piece_at(m.from()).unwrap().kind().index()];
                        assert!(s >= v - mover, "{m}: {s} below victim less mover");
                    }
                    None => assert!(s <= 0, "{m}: a quiet move gained {s}"),
                }
            }
        });
    }
}
