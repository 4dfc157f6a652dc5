//! A deliberately simple reference move generator for shogi, minishogi and
//! Annan Shogi, written for obviousness rather than speed, to check the
//! library against (the rules in docs/rules.md).
//!
//! It shares no code with the library: its own SFEN reader, a mailbox board,
//! movement tables written out by hand, and legality by make-and-test (play
//! the move on a copy, then ask whether the mover's king is attacked). Moves
//! are USI text. Every test file that includes it uses a different part, so
//! unused items are expected.
#![allow(dead_code)]

pub(crate) mod fixtures;

use std::collections::BTreeSet;

/// The three shogi-family games.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) enum Game {
    Shogi,
    Minishogi,
    Annan,
}

/// The `annan_dead_piece` setting, written out again here.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) enum DeadPiece {
    AllowedIfSupported,
    ByOriginalType,
    AlwaysAllowed,
}

/// The shogi start position (also Annan's standard setup).
pub(crate) const SHOGI_START: &str =
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// The minishogi start position.
pub(crate) const MINISHOGI_START: &str = "rbsgk/4p/5/P4/KGSBR b - 1";
/// Annan's traditional setup: the pawns before rook and bishop one square on.
pub(crate) const ANNAN_TRADITIONAL_START: &str =
    "lnsgkgsnl/1r5b1/p1ppppp1p/1p5p1/9/1P5P1/P1PPPPP1P/1B5R1/LNSGKGSNL b - 1";

/// Piece kinds, promoted ones included.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) enum Kind {
    Pawn,
    Lance,
    Knight,
    Silver,
    Gold,
    Bishop,
    Rook,
    King,
    Tokin,
    PromotedLance,
    PromotedKnight,
    PromotedSilver,
    Horse,
    Dragon,
}

use Kind::*;

/// The kinds a hand can hold, in SFEN order.
const HAND_KINDS: [Kind; 7] = [Rook, Bishop, Gold, Silver, Knight, Lance, Pawn];

impl Kind {
    fn letter(self) -> char {
        match self {
            Pawn | Tokin => 'P',
            Lance | PromotedLance => 'L',
            Knight | PromotedKnight => 'N',
            Silver | PromotedSilver => 'S',
            Gold => 'G',
            Bishop | Horse => 'B',
            Rook | Dragon => 'R',
            King => 'K',
        }
    }

    fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Pawn,
            'L' => Lance,
            'N' => Knight,
            'S' => Silver,
            'G' => Gold,
            'B' => Bishop,
            'R' => Rook,
            'K' => King,
            _ => return None,
        })
    }

    fn promoted(self) -> Option<Kind> {
        Some(match self {
            Pawn => Tokin,
            Lance => PromotedLance,
            Knight => PromotedKnight,
            Silver => PromotedSilver,
            Bishop => Horse,
            Rook => Dragon,
            _ => return None,
        })
    }

    fn unpromoted(self) -> Kind {
        match self {
            Tokin => Pawn,
            PromotedLance => Lance,
            PromotedKnight => Knight,
            PromotedSilver => Silver,
            Horse => Bishop,
            Dragon => Rook,
            other => other,
        }
    }

    fn hand_index(self) -> usize {
        HAND_KINDS
            .iter()
            .position(|&k| k == self.unpromoted())
            .expect("kings are never in hand")
    }

    /// How the kind moves. Every piece is symmetric left to right.
    fn movement(self) -> Movement {
        const GOLD: &[(i32, i32)] = &[(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1)];
        const SILVER: &[(i32, i32)] = &[(0, 1), (1, 1), (-1, 1), (1, -1), (-1, -1)];
        const KING: &[(i32, i32)] = &[
            (0, 1),
            (1, 1),
            (-1, 1),
            (1, 0),
            (-1, 0),
            (0, -1),
            (1, -1),
            (-1, -1),
        ];
        const DIAGONALS: &[(i32, i32)] = &[(1, 1), (-1, 1), (1, -1), (-1, -1)];
        const ORTHOGONALS: &[(i32, i32)] = &[(0, 1), (1, 0), (-1, 0), (0, -1)];
        let (steps, slides, extra): (Offsets, bool, Offsets) = match self {
            Pawn => (&[(0, 1)], false, &[]),
            Lance => (&[(0, 1)], true, &[]),
            Knight => (&[(1, 2), (-1, 2)], false, &[]),
            Silver => (SILVER, false, &[]),
            Gold | Tokin | PromotedLance | PromotedKnight | PromotedSilver => (GOLD, false, &[]),
            King => (KING, false, &[]),
            Bishop => (DIAGONALS, true, &[]),
            Rook => (ORTHOGONALS, true, &[]),
            Horse => (DIAGONALS, true, ORTHOGONALS),
            Dragon => (ORTHOGONALS, true, DIAGONALS),
        };
        Movement {
            steps,
            slides,
            extra,
        }
    }
}

/// (sideways, forward) offsets from a piece's square, for its owner.
type Offsets = &'static [(i32, i32)];

/// A kind's movement.
struct Movement {
    /// The offsets it moves by.
    steps: Offsets,
    /// Whether it slides along `steps` until blocked.
    slides: bool,
    /// Single steps added to a sliding piece (dragon and horse).
    extra: Offsets,
}

/// A square: file 1..=n as in USI (counted from Sente's right) and rank
/// 0..n (0 is rank `a`, Gote's back rank).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) struct Sq {
    file: i32,
    rank: i32,
}

impl Sq {
    fn usi(self) -> String {
        format!("{}{}", self.file, (b'a' + self.rank as u8) as char)
    }
}

/// A piece on the board.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
struct Piece {
    sente: bool,
    kind: Kind,
}

/// A move: from a square (with or without promotion) or a drop from hand.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) enum Move {
    Board { from: Sq, to: Sq, promote: bool },
    Drop { kind: Kind, to: Sq },
}

impl Move {
    /// The move in USI.
    pub(crate) fn usi(self) -> String {
        match self {
            Move::Board { from, to, promote } => {
                format!(
                    "{}{}{}",
                    from.usi(),
                    to.usi(),
                    if promote { "+" } else { "" }
                )
            }
            Move::Drop { kind, to } => format!("{}*{}", kind.letter(), to.usi()),
        }
    }
}

/// A position of one of the three games.
#[derive(Clone, Debug)]
pub(crate) struct Pos {
    game: Game,
    dead_piece: DeadPiece,
    n: i32,
    /// `board[rank][file - 1]`; minishogi uses the first 5 ranks and files.
    board: [[Option<Piece>; 9]; 9],
    /// `hands[0]` is Sente's, counted in `HAND_KINDS` order.
    hands: [[u32; 7]; 2],
    sente_to_move: bool,
}

impl Pos {
    /// Reads an SFEN (9x9 for shogi and annan, 5x5 for minishogi).
    pub(crate) fn from_sfen(game: Game, dead_piece: DeadPiece, sfen: &str) -> Result<Pos, String> {
        let n = if game == Game::Minishogi { 5 } else { 9 };
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        if fields.len() < 3 {
            return Err(format!("too few fields in {sfen:?}"));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != n as usize {
            return Err(format!("{} ranks, expected {n}", rows.len()));
        }
        let mut board = [[None; 9]; 9];
        for (rank, row) in rows.iter().enumerate() {
            // Columns run from file n (left) down to file 1.
            let mut column = 0;
            let mut promoted = false;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    column += d as i32;
                    continue;
                }
                if c == '+' {
                    promoted = true;
                    continue;
                }
                let kind = Kind::from_letter(c).ok_or(format!("bad piece {c:?}"))?;
                let kind = if promoted {
                    kind.promoted().ok_or(format!("{c} cannot promote"))?
                } else {
                    kind
                };
                promoted = false;
                if column >= n {
                    return Err(format!("rank {rank} too long"));
                }
                board[rank][(n - 1 - column) as usize] = Some(Piece {
                    sente: c.is_ascii_uppercase(),
                    kind,
                });
                column += 1;
            }
            if column != n {
                return Err(format!("rank {rank} has {column} files"));
            }
        }
        let sente_to_move = match fields[1] {
            "b" => true,
            "w" => false,
            other => return Err(format!("bad side {other:?}")),
        };
        let mut hands = [[0; 7]; 2];
        if fields[2] != "-" {
            let mut count = 0;
            for c in fields[2].chars() {
                if let Some(d) = c.to_digit(10) {
                    count = count * 10 + d;
                    continue;
                }
                let kind = Kind::from_letter(c).ok_or(format!("bad hand piece {c:?}"))?;
                if kind == King {
                    return Err("king in hand".into());
                }
                let side = usize::from(!c.is_ascii_uppercase());
                hands[side][kind.hand_index()] += count.max(1);
                count = 0;
            }
        }
        Ok(Pos {
            game,
            dead_piece,
            n,
            board,
            hands,
            sente_to_move,
        })
    }

    /// The position as SFEN (move number 1).
    pub(crate) fn to_sfen(&self) -> String {
        let mut rows = Vec::new();
        for rank in 0..self.n {
            let mut row = String::new();
            let mut empty = 0;
            for file in (1..=self.n).rev() {
                match self.at(Sq { file, rank }) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            row += &empty.to_string();
                            empty = 0;
                        }
                        if p.kind.unpromoted() != p.kind {
                            row.push('+');
                        }
                        let c = p.kind.letter();
                        row.push(if p.sente { c } else { c.to_ascii_lowercase() });
                    }
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        let mut hands = String::new();
        for (side, hand) in self.hands.iter().enumerate() {
            for (i, &count) in hand.iter().enumerate() {
                if count > 1 {
                    hands += &count.to_string();
                }
                if count > 0 {
                    let c = HAND_KINDS[i].letter();
                    hands.push(if side == 0 { c } else { c.to_ascii_lowercase() });
                }
            }
        }
        format!(
            "{} {} {} 1",
            rows.join("/"),
            if self.sente_to_move { "b" } else { "w" },
            if hands.is_empty() { "-" } else { &hands }
        )
    }

    fn on_board(&self, sq: Sq) -> bool {
        (1..=self.n).contains(&sq.file) && (0..self.n).contains(&sq.rank)
    }

    fn at(&self, sq: Sq) -> Option<Piece> {
        self.board[sq.rank as usize][(sq.file - 1) as usize]
    }

    fn set(&mut self, sq: Sq, piece: Option<Piece>) {
        self.board[sq.rank as usize][(sq.file - 1) as usize] = piece;
    }

    fn squares(&self) -> Vec<Sq> {
        let mut all = Vec::new();
        for rank in 0..self.n {
            for file in 1..=self.n {
                all.push(Sq { file, rank });
            }
        }
        all
    }

    /// The square `forward` steps ahead of `sq` for the given side (and
    /// `sideways` across; the direction across does not matter).
    fn ahead(sq: Sq, sente: bool, sideways: i32, forward: i32) -> Sq {
        let dir = if sente { -1 } else { 1 };
        Sq {
            file: sq.file + sideways,
            rank: sq.rank + dir * forward,
        }
    }

    /// How the piece on `sq` moves now: in Annan like the friendly piece
    /// directly behind it, if any; otherwise like itself.
    fn moves_like(&self, sq: Sq) -> Kind {
        let piece = self.at(sq).expect("a piece");
        if self.game == Game::Annan {
            let behind = Pos::ahead(sq, piece.sente, 0, -1);
            if self.on_board(behind) {
                if let Some(back) = self.at(behind) {
                    if back.sente == piece.sente {
                        return back.kind;
                    }
                }
            }
        }
        piece.kind
    }

    /// The squares the piece on `sq` can move to (empty or enemy-held).
    fn targets(&self, sq: Sq) -> Vec<Sq> {
        let piece = self.at(sq).expect("a piece");
        let Movement {
            steps,
            slides,
            extra,
        } = self.moves_like(sq).movement();
        let mut out = Vec::new();
        for &(sideways, forward) in steps {
            let mut to = Pos::ahead(sq, piece.sente, sideways, forward);
            while self.on_board(to) {
                match self.at(to) {
                    None => out.push(to),
                    Some(p) => {
                        if p.sente != piece.sente {
                            out.push(to);
                        }
                        break;
                    }
                }
                if !slides {
                    break;
                }
                to = Pos::ahead(to, piece.sente, sideways, forward);
            }
        }
        for &(sideways, forward) in extra {
            let to = Pos::ahead(sq, piece.sente, sideways, forward);
            if self.on_board(to) && self.at(to).is_none_or(|p| p.sente != piece.sente) {
                out.push(to);
            }
        }
        out
    }

    /// Whether the piece on `sq`, with the support it has there, has at least
    /// one move target on the board, ignoring every other piece.
    fn can_move_from(&self, sq: Sq) -> bool {
        let sente = self.at(sq).expect("a piece").sente;
        let Movement { steps, extra, .. } = self.moves_like(sq).movement();
        steps
            .iter()
            .chain(extra)
            .any(|&(sideways, forward)| self.on_board(Pos::ahead(sq, sente, sideways, forward)))
    }

    /// Whether `side`'s pieces attack `sq`.
    fn attacked_by(&self, sq: Sq, sente: bool) -> bool {
        self.squares().into_iter().any(|from| {
            self.at(from).is_some_and(|p| p.sente == sente) && self.targets(from).contains(&sq)
        })
    }

    /// Whether the given side's king is attacked.
    fn king_attacked(&self, sente: bool) -> bool {
        let king = self
            .squares()
            .into_iter()
            .find(|&sq| self.at(sq) == Some(Piece { sente, kind: King }));
        king.is_some_and(|sq| self.attacked_by(sq, !sente))
    }

    /// Whether the side to move is in check.
    pub(crate) fn is_check(&self) -> bool {
        self.king_attacked(self.sente_to_move)
    }

    /// Whether the side that has just moved is in check (no valid position
    /// allows it: the king could be taken).
    pub(crate) fn mover_in_check(&self) -> bool {
        self.king_attacked(!self.sente_to_move)
    }

    /// How many ranks `sq` lies short of the given side's last rank.
    fn ranks_left(&self, sq: Sq, sente: bool) -> i32 {
        if sente { sq.rank } else { self.n - 1 - sq.rank }
    }

    fn in_zone(&self, sq: Sq, sente: bool) -> bool {
        let depth = if self.game == Game::Minishogi { 1 } else { 3 };
        self.ranks_left(sq, sente) < depth
    }

    /// Whether an unpromoted `kind` is a dead piece standing on `sq` by the
    /// plain shogi rule: pawn or lance on the last rank, knight on the last two.
    fn dead_by_type(&self, kind: Kind, sq: Sq, sente: bool) -> bool {
        let left = self.ranks_left(sq, sente);
        match kind {
            Pawn | Lance => left == 0,
            Knight => left <= 1,
            _ => false,
        }
    }

    /// Whether the unpromoted piece that has just arrived on `sq` (in this
    /// position, after the move or drop) may stay there.
    fn may_stand(&self, sq: Sq) -> bool {
        let piece = self.at(sq).expect("a piece");
        if !self.dead_by_type(piece.kind, sq, piece.sente) {
            return true;
        }
        match (self.game, self.dead_piece) {
            (Game::Annan, DeadPiece::AlwaysAllowed) => true,
            (Game::Annan, DeadPiece::AllowedIfSupported) => self.can_move_from(sq),
            _ => false,
        }
    }

    /// Nifu: whether `sente` has two unpromoted pawns on one file.
    fn has_double_pawn(&self, sente: bool) -> bool {
        (1..=self.n).any(|file| {
            (0..self.n)
                .filter(|&rank| self.at(Sq { file, rank }) == Some(Piece { sente, kind: Pawn }))
                .count()
                > 1
        })
    }

    /// The position after `mv`, which is not checked.
    pub(crate) fn after(&self, mv: Move) -> Pos {
        let mut next = self.clone();
        let side = usize::from(!self.sente_to_move);
        match mv {
            Move::Board { from, to, promote } => {
                let mut piece = self.at(from).expect("a piece to move");
                if let Some(captured) = self.at(to) {
                    next.hands[side][captured.kind.hand_index()] += 1;
                }
                if promote {
                    piece.kind = piece.kind.promoted().expect("a piece that promotes");
                }
                next.set(from, None);
                next.set(to, Some(piece));
            }
            Move::Drop { kind, to } => {
                next.hands[side][kind.hand_index()] -= 1;
                next.set(
                    to,
                    Some(Piece {
                        sente: self.sente_to_move,
                        kind,
                    }),
                );
            }
        }
        next.sente_to_move = !self.sente_to_move;
        next
    }

    /// Every move that obeys the movement, promotion, dead-piece and nifu
    /// rules, before the king-safety and pawn-drop-mate tests.
    fn candidates(&self) -> Vec<Move> {
        let sente = self.sente_to_move;
        let mut out = Vec::new();
        for from in self.squares() {
            let Some(piece) = self.at(from).filter(|p| p.sente == sente) else {
                continue;
            };
            for to in self.targets(from) {
                let may_promote = piece.kind.promoted().is_some()
                    && (self.in_zone(from, sente) || self.in_zone(to, sente));
                for promote in [false, true] {
                    if promote && !may_promote {
                        continue;
                    }
                    let mv = Move::Board { from, to, promote };
                    let next = self.after(mv);
                    if !promote && !next.may_stand(to) {
                        continue;
                    }
                    if next.has_double_pawn(sente) {
                        continue;
                    }
                    out.push(mv);
                }
            }
        }
        for (i, &kind) in HAND_KINDS.iter().enumerate() {
            if self.hands[usize::from(!sente)][i] == 0 {
                continue;
            }
            for to in self.squares() {
                if self.at(to).is_some() {
                    continue;
                }
                let mv = Move::Drop { kind, to };
                let next = self.after(mv);
                if next.may_stand(to) && !next.has_double_pawn(sente) {
                    out.push(mv);
                }
            }
        }
        out
    }

    /// Whether `mv`, a candidate, is legal: it leaves the mover's king safe
    /// and is not a pawn drop after which the opponent is in check with no
    /// legal move.
    fn is_legal_candidate(&self, mv: Move) -> bool {
        let next = self.after(mv);
        if next.king_attacked(self.sente_to_move) {
            return false;
        }
        if let Move::Drop { kind: Pawn, .. } = mv {
            if next.is_check() && !next.has_legal_move() {
                return false;
            }
        }
        true
    }

    /// Every legal move.
    pub(crate) fn legal_moves(&self) -> Vec<Move> {
        self.candidates()
            .into_iter()
            .filter(|&mv| self.is_legal_candidate(mv))
            .collect()
    }

    /// Whether the side to move has any legal move.
    pub(crate) fn has_legal_move(&self) -> bool {
        self.candidates()
            .into_iter()
            .any(|mv| self.is_legal_candidate(mv))
    }

    /// Whether `mv` takes an enemy piece.
    pub(crate) fn is_capture(&self, mv: Move) -> bool {
        matches!(mv, Move::Board { to, .. } if self.at(to).is_some())
    }

    /// Every legal move in USI, sorted as strings.
    pub(crate) fn legal_usi(&self) -> Vec<String> {
        let set: BTreeSet<String> = self.legal_moves().into_iter().map(Move::usi).collect();
        set.into_iter().collect()
    }

    /// The number of leaf nodes `depth` plies deep.
    pub(crate) fn perft(&self, depth: u32) -> u64 {
        let moves = self.legal_moves();
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        moves
            .into_iter()
            .map(|mv| self.after(mv).perft(depth - 1))
            .sum()
    }
}

/// A small deterministic random number generator (SplitMix64) for playouts.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
