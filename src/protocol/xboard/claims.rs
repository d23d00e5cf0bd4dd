//! Game ends the engine claims to XBoard, from the shared `rules` verdict.

use crate::rules::{Game, GameResult, Rule, Verdict};

/// A claim line: `1-0 {Black loses: checkmate}`.
pub fn claim(v: &Verdict) -> String {
    format!("{} {{{}}}", v.result, v.reason)
}

/// Whether to claim the rules' verdict on `game` to XBoard, which checks claims with its own
/// rules (`-testClaims`) and forfeits a claim it finds false (both cases seen with 4.9.1):
/// - a draw before any move was played from the start position: XBoard judges by the status
///   of the last position reached by a move, so it calls the claim false;
/// - a perpetual *chase*: XBoard's chase test is not the Asian rules of `rules`, and it called
///   a correct perpetual-chase win false.
///
/// Then the engine plays on and XBoard adjudicates itself. Everything else (mate, stalemate,
/// perpetual check, repetition and 60-move draws, insufficient material) is claimed.
pub fn claimable(game: &Game) -> Option<Verdict> {
    game.verdict()
        .filter(|v| v.rule != Rule::PerpetualChase && (v.result != GameResult::Draw || !game.moves().is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Position};

    #[test]
    fn what_is_claimed() {
        let game = |fen: &str, moves: &str| {
            let mut g = Game::new(Position::from_fen(fen).unwrap());
            for m in moves.split_whitespace() {
                g.play(Move::parse(m).unwrap()).unwrap();
            }
            g
        };
        let mated = "3k5/4r4/9/9/5r3/9/9/4K4/9/9 w - - 0 1";
        let v = claimable(&game(mated, "")).unwrap();
        assert_eq!(claim(&v), "0-1 {Red loses: checkmate}");
        let bare = "4k4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1";
        assert!(game(bare, "").verdict().is_some() && claimable(&game(bare, "")).is_none());
        assert!(claimable(&game(bare, "d0d1")).is_some_and(|v| v.result == GameResult::Draw));
        assert!(claimable(&Game::new(Position::startpos())).is_none());
        // A game from the XBoard match: Black's cannon attacks Red's rook (b7/b8) over a screen
        // on every move of a threefold cycle. The rules say Black loses; XBoard 4.9.1 called
        // that claim false, so it is not made.
        let chase = game(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "h2e2 b9c7 b2c2 c6c5 c3c4 c7d5 c4c5 d5f4 a0a1 f4e2 c0e2 g6g5 h0g2 h9g7 i0h0 h7h5 c5c6 b7b3 \
             h0h3 i9h9 a1b1 a9b9 c2c9 b9c9 b1b3 c9c6 b3b7 g7e8 h3h4 e8c7 d0e1 i6i5 a3a4 g9e7 b0a2 d9e8 \
             a2b4 c6c1 b4a6 c7d9 a6b4 d9c7 a4a5 e7c9 a5a6 h5h7 b7b8 h7h8 b8b7 h8h7 b7b8 h7h8 b8b7 h8h7",
        );
        assert_eq!(chase.verdict().map(|v| (v.rule, v.result)), Some((Rule::PerpetualChase, GameResult::RedWins)));
        assert!(claimable(&chase).is_none());
    }
}
