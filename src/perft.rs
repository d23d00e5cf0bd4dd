//! Perft: counts the leaf nodes of the legal move tree, the ground truth for move generation.

use crate::board::{Move, MoveList, Position};

/// Leaf count of the legal move tree `depth` plies deep (leaves counted in bulk at depth 1).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.generate_legal(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in &moves {
        let undo = pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move(m, undo);
    }
    nodes
}

/// Perft split by root move: one `(move, count)` per legal move, sorted by move text.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out: Vec<(Move, u64)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let undo = pos.make_move(m);
            let n = perft(pos, depth.saturating_sub(1));
            pos.unmake_move(m, undo);
            (m, n)
        })
        .collect();
    out.sort_by_key(|(m, _)| m.to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_shallow() {
        let mut p = Position::startpos();
        assert_eq!(perft(&mut p, 1), 44);
        assert_eq!(perft(&mut p, 2), 1920);
        assert_eq!(perft(&mut p, 3), 79666);
        let d = divide(&mut p, 2);
        assert_eq!(d.len(), 44);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 1920);
    }
}
