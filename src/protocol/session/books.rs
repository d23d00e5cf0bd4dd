//! The opening book's part in a session: whether it is on, its choice at `go`, and CECP's
//! `bk` listing.

use super::Session;
use crate::board::{Move, Position};
use crate::book::{self, BookMove};
use crate::protocol::options::Key;
use crate::protocol::policy::Decision;

impl Session {
    /// Whether the dialect's book switch is on (UCCI `usebook`, UCI and CECP `OwnBook`).
    pub(super) fn book_on(&self) -> bool {
        if self.replies.options().has(Key::OwnBook) {
            self.opts.own_book
        } else {
            self.opts.use_book
        }
    }

    /// A book move for `pos` among the moves allowed at the root (legal, not banned, in
    /// `searchmoves`), chosen at random by weight, with the weight of all those moves.
    pub(super) fn book_choice(&mut self, pos: &Position, root: &[Move]) -> Option<(BookMove, u64)> {
        let mut moves = self.books.moves(pos);
        moves.retain(|b| root.contains(&b.mv));
        let total = book::total_weight(&moves);
        book::pick(&moves, self.book_rng.next_u64()).map(|b| (b, total))
    }

    /// Announces a book move at once, as a finished search would (CECP then plays it).
    pub(super) fn play_book_move(&mut self, b: BookMove, total: u64) {
        self.lock_history().draw_offered = false;
        let d = Decision { best: Some(b.mv), ponder_move: None, draw: false, resign: false };
        let mut lines = vec![self.replies.message(&format!("book move {} (weight {} of {total})", b.mv, b.weight))];
        lines.extend(self.replies.bestmove(&d));
        *self.decision.lock().unwrap_or_else(|e| e.into_inner()) = Some(d);
        self.out.lines(&lines);
    }

    /// CECP `bk`: the book moves of the current position with their weights and shares, each
    /// line tab-indented, then a blank line.
    pub(crate) fn book_listing(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.books.is_empty() {
            lines.push("\tno opening book".to_string());
        } else {
            let moves = self.books.moves(self.game.position());
            let total = book::total_weight(&moves).max(1);
            if moves.is_empty() {
                lines.push("\tno book moves for this position".to_string());
            }
            for b in &moves {
                let share = 100.0 * f64::from(b.weight) / total as f64;
                lines.push(format!("\t{} weight {} ({share:.1}%)", b.mv, b.weight));
            }
        }
        lines.push(String::new());
        lines
    }
}
