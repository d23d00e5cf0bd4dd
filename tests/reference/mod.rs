//! A slow, plain reference for xiangqi movement and legality, written straight from
//! docs/rules.md and sharing no code with `src/board`: a 10x9 array of optional pieces,
//! direct rule checks per piece, and legality by "make on a copy, then see whether the
//! mover's king is attacked or the kings face". The property tests and the fuzz targets
//! compare the engine's fast board against it.

/// A side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Side {
    Red,
    Black,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }
}

/// A piece kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    King,
    Advisor,
    Elephant,
    Horse,
    Rook,
    Cannon,
    Pawn,
}

/// All kinds, with how many of each one side's set has.
pub const SET: [(Kind, usize); 7] = [
    (Kind::King, 1),
    (Kind::Advisor, 2),
    (Kind::Elephant, 2),
    (Kind::Horse, 2),
    (Kind::Rook, 2),
    (Kind::Cannon, 2),
    (Kind::Pawn, 5),
];

/// A piece on the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Man {
    pub side: Side,
    pub kind: Kind,
}

/// A point as (file 0..9, rank 0..10); signed so that steps off the board are easy to test.
pub type Pt = (i32, i32);

/// A move from one point to another.
pub type RefMove = (Pt, Pt);

/// ICCS text of a point, e.g. `h2`.
pub fn pt_text(p: Pt) -> String {
    format!("{}{}", (b'a' + p.0 as u8) as char, p.1)
}

/// ICCS text of a move, e.g. `h2e2`.
pub fn move_text(m: RefMove) -> String {
    format!("{}{}", pt_text(m.0), pt_text(m.1))
}

fn on_board(p: Pt) -> bool {
    (0..9).contains(&p.0) && (0..10).contains(&p.1)
}

fn in_palace(side: Side, p: Pt) -> bool {
    let ranks = match side {
        Side::Red => 0..=2,
        Side::Black => 7..=9,
    };
    (3..=5).contains(&p.0) && ranks.contains(&p.1)
}

fn on_own_half(side: Side, p: Pt) -> bool {
    match side {
        Side::Red => p.1 <= 4,
        Side::Black => p.1 >= 5,
    }
}

fn forward(side: Side) -> i32 {
    match side {
        Side::Red => 1,
        Side::Black => -1,
    }
}

/// Points a piece reaches in games from the start position: kings and advisors in the palace
/// on the points their steps reach from the start, elephants on their 7 points, pawns on
/// their start files before the river and anywhere past it. Composed positions may put any
/// piece but the king elsewhere. Worked out (once) by walking the moves from the
/// start points on an empty board, so it is the rules of movement and nothing else.
pub fn reachable_points(side: Side, kind: Kind) -> Vec<Pt> {
    static TABLE: std::sync::OnceLock<Vec<Vec<Pt>>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        [Side::Red, Side::Black].into_iter().flat_map(|s| SET.map(|(k, _)| walk_from_start(s, k))).collect()
    });
    let k = SET.iter().position(|&(k, _)| k == kind).expect("every kind is in SET");
    table[(side == Side::Black) as usize * SET.len() + k].clone()
}

fn walk_from_start(side: Side, kind: Kind) -> Vec<Pt> {
    let starts: Vec<Pt> = match kind {
        Kind::King => vec![(4, 0)],
        Kind::Advisor => vec![(3, 0), (5, 0)],
        Kind::Elephant => vec![(2, 0), (6, 0)],
        Kind::Horse => vec![(1, 0), (7, 0)],
        Kind::Rook => vec![(0, 0), (8, 0)],
        Kind::Cannon => vec![(1, 2), (7, 2)],
        Kind::Pawn => vec![(0, 3), (2, 3), (4, 3), (6, 3), (8, 3)],
    };
    let mirror = |p: Pt| if side == Side::Red { p } else { (8 - p.0, 9 - p.1) };
    let mut seen: Vec<Pt> = starts.into_iter().map(mirror).collect();
    let mut i = 0;
    while i < seen.len() {
        let mut board = RefBoard::empty(side);
        board.set(seen[i], Some(Man { side, kind }));
        for (_, to) in board.pseudo_moves(side) {
            if !seen.contains(&to) {
                seen.push(to);
            }
        }
        i += 1;
    }
    seen.sort();
    seen
}

/// The reference board: `grid[rank][file]`, and the side to move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefBoard {
    pub grid: [[Option<Man>; 9]; 10],
    pub to_move: Side,
}

impl RefBoard {
    /// An empty board.
    pub fn empty(to_move: Side) -> RefBoard {
        RefBoard { grid: [[None; 9]; 10], to_move }
    }

    /// The piece on `p` (which must be on the board).
    pub fn at(&self, p: Pt) -> Option<Man> {
        self.grid[p.1 as usize][p.0 as usize]
    }

    /// Puts `man` (or nothing) on `p`.
    pub fn set(&mut self, p: Pt, man: Option<Man>) {
        self.grid[p.1 as usize][p.0 as usize] = man;
    }

    /// Reads the placement and side fields of a FEN; checks nothing about the position.
    pub fn parse_fen(fen: &str) -> Result<RefBoard, String> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or("empty")?;
        let to_move = match fields.next() {
            None | Some("w" | "W" | "r" | "R") => Side::Red,
            Some("b" | "B") => Side::Black,
            Some(_) => return Err("side".into()),
        };
        let mut board = RefBoard::empty(to_move);
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != 10 {
            return Err("rows".into());
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as i32;
            let mut file = 0;
            for ch in row.chars() {
                if let Some(d @ 1..=9) = ch.to_digit(10) {
                    file += d as i32;
                } else {
                    let kind = match ch.to_ascii_lowercase() {
                        'k' => Kind::King,
                        'a' => Kind::Advisor,
                        'b' | 'e' => Kind::Elephant,
                        'n' | 'h' => Kind::Horse,
                        'r' => Kind::Rook,
                        'c' => Kind::Cannon,
                        'p' => Kind::Pawn,
                        _ => return Err(format!("letter {ch:?}")),
                    };
                    let side = if ch.is_ascii_uppercase() { Side::Red } else { Side::Black };
                    if file >= 9 {
                        return Err("long row".into());
                    }
                    board.set((file, rank), Some(Man { side, kind }));
                    file += 1;
                }
                if file > 9 {
                    return Err("long row".into());
                }
            }
            if file != 9 {
                return Err("short row".into());
            }
        }
        Ok(board)
    }

    /// The placement field of the FEN (UCCI letters: K A B N R C P).
    pub fn placement(&self) -> String {
        let mut out = String::new();
        for rank in (0..10).rev() {
            let mut gap = 0;
            for file in 0..9 {
                match self.at((file, rank)) {
                    None => gap += 1,
                    Some(m) => {
                        if gap > 0 {
                            out += &gap.to_string();
                            gap = 0;
                        }
                        let c = match m.kind {
                            Kind::King => 'k',
                            Kind::Advisor => 'a',
                            Kind::Elephant => 'b',
                            Kind::Horse => 'n',
                            Kind::Rook => 'r',
                            Kind::Cannon => 'c',
                            Kind::Pawn => 'p',
                        };
                        out.push(if m.side == Side::Red { c.to_ascii_uppercase() } else { c });
                    }
                }
            }
            if gap > 0 {
                out += &gap.to_string();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// Where `side`'s king stands, if it is on the board.
    pub fn king(&self, side: Side) -> Option<Pt> {
        self.all_points().find(|&p| self.at(p) == Some(Man { side, kind: Kind::King }))
    }

    /// All 90 points.
    pub fn all_points(&self) -> impl Iterator<Item = Pt> {
        (0..10).flat_map(|r| (0..9).map(move |f| (f, r)))
    }

    /// Whether `p` is on the board and does not hold a piece of `side`.
    fn can_land(&self, side: Side, p: Pt) -> bool {
        on_board(p) && self.at(p).is_none_or(|m| m.side != side)
    }

    /// The moves the piece on `from` can make by its own movement rule, ignoring its king.
    pub fn piece_moves(&self, from: Pt) -> Vec<RefMove> {
        let Some(man) = self.at(from) else { return Vec::new() };
        let side = man.side;
        let mut targets: Vec<Pt> = Vec::new();
        let orth = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let add = |a: Pt, d: Pt| (a.0 + d.0, a.1 + d.1);
        match man.kind {
            Kind::King => {
                for d in orth {
                    let t = add(from, d);
                    if in_palace(side, t) && self.can_land(side, t) {
                        targets.push(t);
                    }
                }
            }
            Kind::Advisor => {
                for d in diag {
                    let t = add(from, d);
                    if in_palace(side, t) && self.can_land(side, t) {
                        targets.push(t);
                    }
                }
            }
            Kind::Elephant => {
                for d in diag {
                    let eye = add(from, d);
                    let t = add(eye, d);
                    if on_board(t) && on_own_half(side, t) && self.at(eye).is_none() && self.can_land(side, t) {
                        targets.push(t);
                    }
                }
            }
            Kind::Horse => {
                for d in orth {
                    let leg = add(from, d);
                    if !on_board(leg) || self.at(leg).is_some() {
                        continue;
                    }
                    // Outward diagonals: keep going along d, and step sideways.
                    let sides = if d.0 == 0 { [(1, 0), (-1, 0)] } else { [(0, 1), (0, -1)] };
                    for s in sides {
                        let t = add(add(leg, d), s);
                        if self.can_land(side, t) {
                            targets.push(t);
                        }
                    }
                }
            }
            Kind::Rook | Kind::Cannon => {
                for d in orth {
                    let mut t = add(from, d);
                    while on_board(t) && self.at(t).is_none() {
                        targets.push(t);
                        t = add(t, d);
                    }
                    if !on_board(t) {
                        continue;
                    }
                    if man.kind == Kind::Rook {
                        if self.can_land(side, t) {
                            targets.push(t);
                        }
                        continue;
                    }
                    // Cannon: `t` is the screen; capture the first piece behind it if enemy.
                    let mut c = add(t, d);
                    while on_board(c) && self.at(c).is_none() {
                        c = add(c, d);
                    }
                    if on_board(c) && self.can_land(side, c) {
                        targets.push(c);
                    }
                }
            }
            Kind::Pawn => {
                let t = (from.0, from.1 + forward(side));
                if self.can_land(side, t) {
                    targets.push(t);
                }
                if !on_own_half(side, from) {
                    for t in [(from.0 - 1, from.1), (from.0 + 1, from.1)] {
                        if self.can_land(side, t) {
                            targets.push(t);
                        }
                    }
                }
            }
        }
        targets.into_iter().map(|t| (from, t)).collect()
    }

    /// Every move of `side`'s pieces by their movement rules, ignoring king safety.
    pub fn pseudo_moves(&self, side: Side) -> Vec<RefMove> {
        let mine: Vec<Pt> = self.all_points().filter(|&p| self.at(p).is_some_and(|m| m.side == side)).collect();
        mine.into_iter().flat_map(|p| self.piece_moves(p)).collect()
    }

    /// Whether the two kings stand on one file with nothing between them.
    pub fn kings_face(&self) -> bool {
        let (Some(r), Some(b)) = (self.king(Side::Red), self.king(Side::Black)) else { return false };
        r.0 == b.0 && (r.1.min(b.1) + 1..r.1.max(b.1)).all(|rank| self.at((r.0, rank)).is_none())
    }

    /// Whether `side`'s king is attacked: some enemy piece could move onto it, or the kings face.
    pub fn king_attacked(&self, side: Side) -> bool {
        let Some(k) = self.king(side) else { return false };
        self.kings_face() || self.pseudo_moves(side.other()).iter().any(|&(_, to)| to == k)
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.to_move)
    }

    /// The board after `m`, with the turn passed.
    pub fn after(&self, m: RefMove) -> RefBoard {
        let mut b = self.clone();
        b.set(m.1, b.at(m.0));
        b.set(m.0, None);
        b.to_move = b.to_move.other();
        b
    }

    /// Whether the move, made by the owner of the piece on its origin, leaves that owner's
    /// king safe (not attacked, kings not facing).
    pub fn legal_for_owner(&self, m: RefMove) -> bool {
        let Some(man) = self.at(m.0) else { return false };
        let next = self.after(m);
        !next.king_attacked(man.side)
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        self.pseudo_moves(self.to_move).into_iter().filter(|&m| self.legal_for_owner(m)).collect()
    }

    /// Whether `m` captures.
    pub fn is_capture(&self, m: RefMove) -> bool {
        self.at(m.1).is_some()
    }

    /// Why this board could not be played with `to_move` to move, if so: wrong king count,
    /// more pieces than the set, a king outside its palace, facing kings, or the side not to
    /// move in check. Any other piece may stand on any point (composed positions).
    pub fn problem(&self) -> Option<String> {
        for side in [Side::Red, Side::Black] {
            for (kind, most) in SET {
                let here: Vec<Pt> = self.all_points().filter(|&p| self.at(p) == Some(Man { side, kind })).collect();
                if here.len() > most {
                    return Some(format!("too many {side:?} {kind:?}"));
                }
                if kind == Kind::King && here.is_empty() {
                    return Some(format!("no {side:?} king"));
                }
                if let Some(p) = here.iter().find(|&&p| kind == Kind::King && !in_palace(side, p)) {
                    return Some(format!("{side:?} king outside its palace on {}", pt_text(*p)));
                }
            }
        }
        if self.kings_face() {
            return Some("kings face".into());
        }
        if self.king_attacked(self.to_move.other()) {
            return Some("side not to move is in check".into());
        }
        None
    }
}
