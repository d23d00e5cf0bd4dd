//! The accumulators along a search path, kept lazily: making a move records only what it
//! changes (`Ply`); a node that evaluates brings each perspective's accumulator up from its
//! last computed ancestor, one move at a time (so siblings reuse the steps), or, when that
//! perspective's general changed king key on the way, from the refresh cache (`Finny`).
//! Nodes that never evaluate (cut off first, or in check) cost no column work.

use super::arch::palace_point;
use super::finny::Finny;
use super::{KingKey, Network, Simd};
use crate::board::{Color, Move, Piece, PieceKind, Position, Square};

/// One ply of the path.
#[derive(Clone, Copy)]
struct Ply {
    /// Whether each perspective's accumulator of this ply is up to date.
    computed: [bool; 2],
    /// Each perspective's king key in this ply's position.
    keys: [KingKey; 2],
    /// What the move that led here changed, per perspective: the input columns to subtract
    /// (the mover's old one, then a captured piece's) and to add (the mover's new one).
    sub: [[u32; 2]; 2],
    add: [u32; 2],
    /// Columns to subtract: 0 for a null move (unused at the root), 1, or 2 after a capture.
    subs: u8,
}

/// A search thread's accumulators from the root to the current node: allocated once per
/// search, nothing per node.
pub struct AccumulatorStack<'a> {
    net: &'a Network,
    /// The net's input columns, hidden width and loops, kept at hand for `step`.
    w1: &'a [i16],
    hidden: usize,
    simd: Simd,
    /// Accumulators, `(ply × 2 + perspective) × hidden`.
    acc: Vec<i16>,
    plies: Vec<Ply>,
    top: usize,
    finny: Finny,
    /// Both halves with the threat inputs added (nets with threat inputs).
    scratch: Vec<i16>,
}

impl<'a> AccumulatorStack<'a> {
    /// The stack at `root` for paths of at most `max_height` moves.
    pub fn new(net: &'a Network, root: &Position, max_height: usize) -> AccumulatorStack<'a> {
        let keys = [net.arch.king_key(root, Color::Red), net.arch.king_key(root, Color::Black)];
        let mut stack = AccumulatorStack {
            net,
            w1: &net.w1,
            hidden: net.arch.hidden,
            simd: net.simd,
            acc: vec![0; (max_height + 1) * 2 * net.arch.hidden],
            plies: vec![Ply { computed: [true; 2], keys, sub: [[0; 2]; 2], add: [0; 2], subs: 0 }; max_height + 1],
            top: 0,
            finny: Finny::new(net),
            scratch: vec![0; 2 * net.arch.hidden],
        };
        for persp in [Color::Red, Color::Black] {
            let h = net.arch.hidden;
            let out = &mut stack.acc[persp.index() * h..(persp.index() + 1) * h];
            stack.finny.refresh(net, root, persp, keys[persp.index()], out);
        }
        stack
    }

    /// Before `m` is made in `pos`: records the columns it changes.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        let Some(mover) = pos.piece_at(m.from()) else {
            // Not a move of this position (the search never plays one): nothing changes.
            return self.push_null();
        };
        let (from, to, arch) = (m.from(), m.to(), &self.net.arch);
        let mut keys = self.plies[self.top].keys;
        if mover.kind() == PieceKind::King {
            keys[mover.color().index()] = arch.key_of_point(palace_point(mover.color(), to));
        }
        let captured = pos.piece_at(to);
        let mut ply =
            Ply { computed: [false; 2], keys, sub: [[0; 2]; 2], add: [0; 2], subs: 1 + captured.is_some() as u8 };
        for persp in [Color::Red, Color::Black] {
            let (p, key) = (persp.index(), keys[persp.index()]);
            let column = |piece: Piece, sq: Square| arch.index(key, persp, piece, sq) as u32;
            ply.sub[p] = [column(mover, from), captured.map_or(0, |c| column(c, to))];
            ply.add[p] = column(mover, to);
        }
        self.top += 1;
        self.plies[self.top] = ply;
    }

    /// Before a null move: the pieces stay.
    #[inline]
    pub fn push_null(&mut self) {
        let keys = self.plies[self.top].keys;
        self.top += 1;
        self.plies[self.top] = Ply { computed: [false; 2], keys, sub: [[0; 2]; 2], add: [0; 2], subs: 0 };
    }

    /// After a move or null move is unmade.
    #[inline]
    pub fn pop(&mut self) {
        self.top -= 1;
    }

    /// The evaluation of `pos`, the position at the top of the path, from the side to move's view.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let top = self.top;
        if self.plies[top].computed != [true; 2] {
            // The common case, inline: the parent is current and neither general changed key.
            let (parent, ply) = (&self.plies[top - 1], &self.plies[top]);
            if parent.computed == [true; 2] && parent.keys == ply.keys {
                self.step_both(top);
            } else {
                self.catch_up(pos);
            }
        }
        let h = self.hidden;
        let at = 2 * top * h;
        let (red, black) = self.acc[at..at + 2 * h].split_at(h);
        let (us, them) = if pos.side_to_move() == Color::Red { (red, black) } else { (black, red) };
        self.net.output_for(pos, us, them, &mut self.scratch)
    }

    /// Computes both perspectives' accumulators of `ply` from the ply below (same keys).
    #[inline(always)]
    fn step_both(&mut self, ply: usize) {
        match self.hidden {
            256 => self.step_both_n::<256>(ply),
            512 => self.step_both_n::<512>(ply),
            768 => self.step_both_n::<768>(ply),
            _ => self.step_both_n::<1024>(ply),
        }
    }

    /// `step_both` at the width `H` (`Arch` allows only `HIDDEN_SIZES`), so that the slices
    /// become arrays and the loops know their length.
    #[inline(always)]
    fn step_both_n<const H: usize>(&mut self, ply: usize) {
        let (w1, simd) = (self.w1, self.simd);
        let at = 2 * ply * H;
        let (below, above) = self.acc.split_at_mut(at);
        let change = &mut self.plies[ply];
        let column = |i: u32| -> &[i16; H] { w1[i as usize * H..][..H].try_into().expect("H wide") };
        let (new_red, new_black) = above[..2 * H].split_at_mut(H);
        let old = [&below[at - 2 * H..at - H], &below[at - H..]];
        for (p, new) in [new_red, new_black].into_iter().enumerate() {
            let old: &[i16; H] = old[p].try_into().expect("H wide");
            let new: &mut [i16; H] = new.try_into().expect("H wide");
            let (sub, add) = (change.sub[p], column(change.add[p]));
            match change.subs {
                0 => new.copy_from_slice(old),
                1 => simd.sub_add_n(old, new, column(sub[0]), add),
                _ => simd.sub_sub_add_n(old, new, column(sub[0]), column(sub[1]), add),
            }
        }
        change.computed = [true; 2];
    }

    /// Makes the top ply's accumulators current when the one-step case does not apply: both
    /// step up together from the last fully computed ancestor when neither general changed
    /// key on the way, else each perspective on its own (`bring_up`).
    #[inline(never)]
    fn catch_up(&mut self, pos: &Position) {
        let top = self.top;
        let mut i = top;
        // The root is always computed, so `i` stays above 0 in the loop.
        while self.plies[i].computed != [true; 2] {
            if self.plies[i - 1].keys != self.plies[i].keys {
                self.bring_up(pos, Color::Red);
                self.bring_up(pos, Color::Black);
                return;
            }
            i -= 1;
        }
        for ply in i + 1..=top {
            self.step_both(ply);
        }
    }

    /// Makes `persp`'s accumulator of the top ply current: steps up from its last computed
    /// ancestor, or a cached refresh when its general changed key on the way.
    fn bring_up(&mut self, pos: &Position, persp: Color) {
        let p = persp.index();
        let top = self.top;
        if self.plies[top].computed[p] {
            return;
        }
        let mut i = top;
        while !self.plies[i].computed[p] {
            // The root is always computed, so `i` stays above 0 here.
            if self.plies[i - 1].keys[p] != self.plies[i].keys[p] {
                let h = self.net.arch.hidden;
                let at = (2 * self.top + p) * h;
                self.finny.refresh(self.net, pos, persp, self.plies[self.top].keys[p], &mut self.acc[at..at + h]);
                self.plies[self.top].computed[p] = true;
                return;
            }
            i -= 1;
        }
        for ply in i + 1..=self.top {
            self.step(ply, persp);
            self.plies[ply].computed[p] = true;
        }
    }

    /// Computes `persp`'s accumulator of `ply` from the ply below (same king key).
    #[inline(always)]
    fn step(&mut self, ply: usize, persp: Color) {
        let (h, p, w1) = (self.hidden, persp.index(), self.w1);
        let at = (2 * ply + p) * h;
        let (below, above) = self.acc.split_at_mut(at);
        let (old, new) = (&below[at - 2 * h..at - h], &mut above[..h]);
        let change = &self.plies[ply];
        let column = |i: u32| &w1[i as usize * h..][..h];
        let (sub, add) = (change.sub[p], column(change.add[p]));
        match change.subs {
            0 => new.copy_from_slice(old),
            1 => self.simd.sub_add(old, new, column(sub[0]), add),
            _ => self.simd.sub_sub_add(old, new, column(sub[0]), column(sub[1]), add),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{random_arch_net, test_archs};
    use super::*;
    use crate::board::testing::random_games;

    #[test]
    fn every_move_evaluates_as_from_scratch() {
        // Every legal move (captures and general moves included) of positions along random
        // games, against the evaluation of the position it reaches from scratch.
        for arch in test_archs() {
            let net = random_arch_net(arch, 11);
            random_games(5, 3, 100, |pos, moves, _, _| {
                let mut stack = AccumulatorStack::new(&net, pos, 2);
                for &m in moves.iter() {
                    stack.push_move(pos, m);
                    let mut next = pos.clone();
                    next.make_move(m);
                    assert_eq!(stack.evaluate(&next), net.evaluate_position(&next), "{arch:?} {} {m}", pos.to_fen());
                    stack.pop();
                }
            });
        }
    }
}
