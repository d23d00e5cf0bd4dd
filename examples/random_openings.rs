//! Prints random opening lines for `chuhe match -openings file=...` (one `startpos moves ...`
//! a line), so that a self-play soak of a deterministic engine plays a different game every
//! pair instead of repeating the built-in set. Lines that end the game are skipped.
//!
//! `cargo run --release --example random_openings -- COUNT [PLIES=8] [SEED=1]`

use chuhe::board::Position;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| -> u64 {
        match args.get(i) {
            None => default,
            Some(t) => t.parse().unwrap_or_else(|_| {
                eprintln!("random_openings: '{t}' is not a number; usage: COUNT [PLIES] [SEED]");
                std::process::exit(2)
            }),
        }
    };
    let (count, plies, mut state) = (number(0, 1000), number(1, 8), number(2, 1) | 1);
    let mut next = move || {
        // xorshift64: deterministic per seed.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut printed = 0;
    while printed < count {
        let mut pos = Position::startpos();
        let mut line = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(next() % moves.len() as u64) as usize];
            pos.make_move(m);
            line.push(m.to_string());
        }
        if line.len() as u64 == plies && pos.has_legal_move() {
            println!("startpos moves {}", line.join(" "));
            printed += 1;
        }
    }
}
