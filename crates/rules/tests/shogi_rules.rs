//! Rule-by-rule tests of shogi, minishogi and annan shogi, each on a position
//! built for the rule, with the expected answer reasoned from the rules (docs/rules.md).

use rules::shogi::{Color, Piece, Position, PositionError, Role, SfenError, SfenPart, Square};
use rules::{
    AnnanDeadPiece, EndReason, Handicap, IllegalMove, Impasse, ImpasseError, Outcome,
    Position as _, Settings, Side, Variant,
};

fn pos(sfen: &str, variant: Variant) -> Position {
    Position::from_sfen(sfen, variant, AnnanDeadPiece::default())
        .unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn annan(sfen: &str, dead_piece: AnnanDeadPiece) -> Position {
    Position::from_sfen(sfen, Variant::Annan, dead_piece).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// The verdict on `usi` in `p`, checked against membership in the legal move list.
fn check(p: &Position, usi: &str) -> Result<(), IllegalMove> {
    let mv = p.parse_move(usi).unwrap();
    let verdict = p.check_move(mv);
    assert_eq!(
        verdict.is_ok(),
        p.legal_moves().contains(&mv),
        "{usi} in {p}"
    );
    verdict
}

fn play(p: &Position, usi: &str) -> Position {
    let mv = p.parse_move(usi).unwrap();
    assert_eq!(p.check_move(mv), Ok(()), "{usi} in {p}");
    let mut next = p.clone();
    next.play_unchecked(mv);
    next
}

#[test]
fn nifu() {
    let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", Variant::Shogi);
    assert_eq!(check(&p, "P*5e"), Err(IllegalMove::DoublePawn));
    assert_eq!(check(&p, "P*4e"), Ok(()));
    // A tokin does not count.
    let p = pos("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1", Variant::Shogi);
    assert_eq!(check(&p, "P*5e"), Ok(()));
}

#[test]
fn uchifuzume() {
    // Gote king 1a; the gold on 3b covers 2a and 2b, the silver on 2c guards 1b.
    let mate = pos("8k/6G2/7S1/9/9/9/9/9/4K4 b P 1", Variant::Shogi);
    assert_eq!(check(&mate, "P*1b"), Err(IllegalMove::PawnDropMate));
    // Without the gold the king escapes to 2a: the checking drop is legal.
    let check_only = pos("8k/9/7S1/9/9/9/9/9/4K4 b P 1", Variant::Shogi);
    assert_eq!(check(&check_only, "P*1b"), Ok(()));
    assert!(play(&check_only, "P*1b").is_check());
    // Mate by a moved pawn is legal.
    let moved = pos("8k/6G2/7SP/9/9/9/9/9/4K4 b - 1", Variant::Shogi);
    let after = play(&moved, "1c1b");
    assert_eq!(
        after.end(),
        Some(Outcome::win(Side::First, EndReason::Checkmate))
    );
}

#[test]
fn promotion_forced_and_optional() {
    let p = pos("k8/4P4/2G6/4N1P2/4S4/9/9/9/K8 b - 1", Variant::Shogi);
    assert_eq!(check(&p, "5b5a+"), Ok(()));
    assert_eq!(check(&p, "5b5a"), Err(IllegalMove::DeadPiece));
    assert_eq!(check(&p, "5d4b+"), Ok(()));
    assert_eq!(check(&p, "5d4b"), Err(IllegalMove::DeadPiece));
    assert_eq!(check(&p, "3d3c+"), Ok(()));
    assert_eq!(check(&p, "3d3c"), Ok(()));
    assert_eq!(check(&p, "7c7b+"), Err(IllegalMove::CannotPromote));
    assert_eq!(check(&p, "7c7b"), Ok(()));
    assert_eq!(check(&p, "5e5d"), Err(IllegalMove::OwnPieceOnTarget));
    assert_eq!(check(&p, "5e5c"), Err(IllegalMove::CannotReach));
    assert_eq!(check(&p, "9i9h+"), Err(IllegalMove::CannotPromote));
    assert_eq!(check(&p, "8h8g"), Err(IllegalMove::NoPieceToMove));
    assert_eq!(check(&p, "9a9b"), Err(IllegalMove::NoPieceToMove));
    assert_eq!(check(&p, "9i7g"), Err(IllegalMove::CannotReach));
    // A move out of the zone may promote too.
    let p = pos("k8/9/4S4/9/9/9/9/9/K8 b - 1", Variant::Shogi);
    assert_eq!(check(&p, "5c4d+"), Ok(()));
    assert_eq!(check(&p, "5c4d"), Ok(()));
}

#[test]
fn minishogi_promotion_zone_is_one_rank() {
    let p = pos("k4/2P2/1S3/5/K4 b - 1", Variant::Minishogi);
    assert_eq!(check(&p, "3b3a+"), Ok(()));
    assert_eq!(check(&p, "3b3a"), Err(IllegalMove::DeadPiece));
    assert_eq!(check(&p, "4c4b+"), Err(IllegalMove::CannotPromote));
    assert_eq!(check(&p, "4c4b"), Ok(()));
    assert!(p.parse_move("6e5e").is_err());
    assert!(p.parse_move("P*1f").is_err());
    let gote = pos("k4/5/5/2p2/K4 w - 1", Variant::Minishogi);
    assert_eq!(check(&gote, "3d3e+"), Ok(()));
    assert_eq!(check(&gote, "3d3e"), Err(IllegalMove::DeadPiece));
}

#[test]
fn dead_piece_drops() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b NLP 1", Variant::Shogi);
    assert_eq!(check(&p, "P*4a"), Err(IllegalMove::DeadPiece));
    assert_eq!(check(&p, "L*4a"), Err(IllegalMove::DeadPiece));
    assert_eq!(check(&p, "N*3a"), Err(IllegalMove::DeadPiece));
    assert_eq!(check(&p, "N*3b"), Err(IllegalMove::DeadPiece));
    assert_eq!(check(&p, "N*3c"), Ok(()));
    assert_eq!(check(&p, "P*3b"), Ok(()));
    assert_eq!(check(&p, "G*3b"), Err(IllegalMove::NotInHand));
    assert_eq!(check(&p, "P*5i"), Err(IllegalMove::SquareOccupied));
    let gote = pos("4k4/9/9/9/9/9/9/9/4K4 w nlp 1", Variant::Shogi);
    assert_eq!(check(&gote, "P*1i"), Err(IllegalMove::DeadPiece));
    assert_eq!(check(&gote, "N*1h"), Err(IllegalMove::DeadPiece));
    assert_eq!(check(&gote, "N*1g"), Ok(()));
}

#[test]
fn pins() {
    // Gote rook 5a pins the gold on 5h along the file.
    let p = pos("4r3k/9/9/9/9/9/9/4G4/4K4 b - 1", Variant::Shogi);
    assert_eq!(check(&p, "5h5g"), Ok(()));
    assert_eq!(check(&p, "5h4h"), Err(IllegalMove::LeavesKingInCheck));
    // A lance pins along the file; a bishop along the diagonal.
    let p = pos("4l3k/9/9/9/9/9/1b7/4S4/4K4 b - 1", Variant::Shogi);
    assert_eq!(check(&p, "5h5g"), Ok(()));
    assert_eq!(check(&p, "5h4g"), Err(IllegalMove::LeavesKingInCheck));
    let p = pos("8k/9/9/9/9/9/2b6/9/4K4 b S 1", Variant::Shogi);
    assert!(p.is_check());
    assert_eq!(check(&p, "S*6h"), Ok(()));
    assert_eq!(check(&p, "S*4h"), Err(IllegalMove::LeavesKingInCheck));
    assert_eq!(check(&p, "5i6h"), Err(IllegalMove::LeavesKingInCheck));
    assert_eq!(check(&p, "5i4h"), Ok(()));
}

#[test]
fn game_end() {
    // Sente's king on 1i is mated by the gold on 1h, guarded by the lance on 1a.
    let mated = pos("k7l/9/9/9/9/9/9/8g/8K b - 1", Variant::Shogi);
    assert_eq!(
        mated.end(),
        Some(Outcome::loss(Side::First, EndReason::Checkmate))
    );
    let p = Position::startpos(Variant::Shogi, &Settings::default());
    assert_eq!(p.end(), None);
}

#[test]
fn handicaps() {
    for (handicap, removed) in [
        (Handicap::Even, 0),
        (Handicap::Lance, 1),
        (Handicap::Bishop, 1),
        (Handicap::Rook, 1),
        (Handicap::RookLance, 2),
        (Handicap::Two, 2),
        (Handicap::Four, 4),
        (Handicap::Six, 6),
        (Handicap::Eight, 8),
        (Handicap::Ten, 10),
    ] {
        let settings = Settings {
            handicap,
            ..Settings::default()
        };
        let p = Position::startpos(Variant::Shogi, &settings);
        let pieces = (0..81)
            .filter_map(|i| Square::from_index(i).and_then(|sq| p.piece_at(sq)))
            .collect::<Vec<_>>();
        assert_eq!(pieces.len(), 40 - removed, "{handicap}");
        assert_eq!(
            pieces.iter().filter(|p| p.color == Color::Sente).count(),
            20
        );
        let expected_turn = if handicap == Handicap::Even {
            Color::Sente
        } else {
            Color::Gote
        };
        assert_eq!(p.turn(), expected_turn);
        assert_eq!(p.to_sfen(), handicap.sfen());
    }
}

#[test]
fn position_errors() {
    let err = |sfen: &str, variant| {
        Position::from_sfen(sfen, variant, AnnanDeadPiece::default()).unwrap_err()
    };
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    assert_eq!(
        err(start, Variant::Xiangqi),
        SfenError::Position(PositionError::WrongVariant(Variant::Xiangqi))
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9 b - 1", Variant::Shogi),
        SfenError::Position(PositionError::MissingKing(Color::Sente))
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/3KK4 b - 1", Variant::Shogi),
        SfenError::Position(PositionError::TooManyKings(Color::Sente))
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/4K4 b 3R 1", Variant::Shogi),
        SfenError::Position(PositionError::TooManyPieces(Role::Rook))
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", Variant::Shogi),
        SfenError::Position(PositionError::TooManyPieces(Role::Pawn))
    );
    assert_eq!(
        err("4k4/9/9/4P4/9/9/4P4/9/4K4 b - 1", Variant::Shogi),
        SfenError::Position(PositionError::DoublePawn(Color::Sente, 5))
    );
    assert_eq!(
        err("4k3P/9/9/9/9/9/9/9/4K4 b - 1", Variant::Shogi),
        SfenError::Position(PositionError::DeadPiece(Square::SQ_1A))
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/7n1/4K4 b - 1", Variant::Shogi),
        SfenError::Position(PositionError::DeadPiece(Square::SQ_2H))
    );
    assert_eq!(
        err("4k4/4R4/9/9/9/9/9/9/4K4 b - 1", Variant::Shogi),
        SfenError::Position(PositionError::OpponentInCheck)
    );
    assert_eq!(
        err("rbsgk/4p/5/P4/KGSBL b - 1", Variant::Minishogi),
        SfenError::Position(PositionError::NotInThisGame(Role::Lance))
    );
    assert_eq!(
        err("rbsgk/4p/5/P4/KGSBR b P 1", Variant::Minishogi),
        SfenError::Position(PositionError::TooManyPieces(Role::Pawn))
    );
    // Parse errors come through with their part.
    match err("4k4/9/9/9/9/9/9/9/4K4 x - 1", Variant::Shogi) {
        SfenError::Parse(e) => assert_eq!(e.part, SfenPart::Turn),
        other @ SfenError::Position(_) => panic!("{other}"),
    }
    // Every error has a message.
    assert!(err(start, Variant::Xiangqi).to_string().contains("xiangqi"));
}

#[test]
fn sfen_round_trips() {
    for (sfen, variant) in [
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            Variant::Shogi,
        ),
        (
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            Variant::Shogi,
        ),
        ("rbsgk/4p/5/P4/KGSBR b - 1", Variant::Minishogi),
        (
            "lnsgkgsnl/1r5b1/p1ppppp1p/1p5p1/9/1P5P1/P1PPPPP1P/1B5R1/LNSGKGSNL b - 1",
            Variant::Annan,
        ),
    ] {
        assert_eq!(pos(sfen, variant).to_sfen(), sfen);
        assert_eq!(pos(sfen, variant).to_string(), sfen);
    }
}

fn points_sfen(sente_hand: &str, gote_hand: &str, sente_king_rank: char) -> String {
    let board = match sente_king_rank {
        'a' => "K8/9/9/9/9/9/9/9/8k",
        _ => "9/9/9/K8/9/9/9/9/8k",
    };
    format!("{board} b {sente_hand}{gote_hand} 1")
}

#[test]
fn impasse_24_points() {
    let rule = Impasse::TwentyFourPoint;
    // Sente 10 + 14 = 24, Gote 10 + 2 + 18 = 30: a draw.
    let p = pos(&points_sfen("RB4G4S4N2L", "rb2l18p", 'a'), Variant::Shogi);
    assert_eq!(
        p.judge_impasse(rule, Side::First),
        Ok(Outcome::draw(EndReason::Impasse))
    );
    assert_eq!(
        p.judge_impasse(rule, Side::Second),
        Ok(Outcome::draw(EndReason::Impasse))
    );
    // Sente 23: Sente loses, whoever claims.
    let p = pos(&points_sfen("RB4G4S4NL", "rb3l18p", 'a'), Variant::Shogi);
    assert_eq!(
        p.judge_impasse(rule, Side::First),
        Ok(Outcome::loss(Side::First, EndReason::Impasse))
    );
    assert_eq!(
        p.judge_impasse(rule, Side::Second),
        Ok(Outcome::loss(Side::First, EndReason::Impasse))
    );
    // The Sente king on rank d is not in its enemy camp.
    let p = pos(&points_sfen("RB4G4S4N2L", "rb2l18p", 'd'), Variant::Shogi);
    assert_eq!(
        p.judge_impasse(rule, Side::First),
        Err(ImpasseError::KingsNotInCamps)
    );
    assert_eq!(
        p.judge_impasse(Impasse::Off, Side::First),
        Err(ImpasseError::NotInThisGame)
    );
    let mini = Position::startpos(Variant::Minishogi, &Settings::default());
    assert_eq!(
        mini.judge_impasse(rule, Side::First),
        Err(ImpasseError::NotInThisGame)
    );
}

#[test]
fn impasse_27_points() {
    let rule = Impasse::TwentySevenPoint;
    let declare = |sfen: &str, side| pos(sfen, Variant::Shogi).judge_impasse(rule, side);
    let win = |side| Ok(Outcome::win(side, EndReason::Impasse));
    let loss = |side| Ok(Outcome::loss(side, EndReason::Impasse));
    // In camp: rook, bishop, 8 pawns (10 pieces, 18 points); hand 10 points: 28.
    let sente_28 = "4K4/1R5B1/PPPPPPPP1/9/9/9/9/9/4k4 b 4G4S2N2n4l10p 1";
    assert_eq!(declare(sente_28, Side::First), win(Side::First));
    assert_eq!(
        declare(sente_28, Side::Second),
        Err(ImpasseError::NotYourTurn)
    );
    // 27 points is not enough for Sente.
    assert_eq!(
        declare(
            "4K4/1R5B1/PPPPPPPP1/9/9/9/9/9/4k4 b 4G4SN3n4l10p 1",
            Side::First
        ),
        loss(Side::First)
    );
    // 9 pieces in camp with 28 points loses.
    assert_eq!(
        declare(
            "4K4/1R5B1/PPPPPPP2/9/9/9/9/9/4k4 b 4G4S2NP2n4l9p 1",
            Side::First
        ),
        loss(Side::First)
    );
    // In check: loses.
    assert_eq!(
        declare(
            "4K4/1R2g2B1/PPPPPPPP1/9/9/9/9/9/4k4 b 3G4S3Nn4l10p 1",
            Side::First
        ),
        loss(Side::First)
    );
    // Gote wins with 27.
    let gote_27 = "4K4/9/9/9/9/9/pppppppp1/1r5b1/4k4 w 3N4L10P4g4sn 1";
    assert_eq!(declare(gote_27, Side::Second), win(Side::Second));
    assert_eq!(
        declare(
            "4K4/9/9/9/9/9/pppppppp1/1r5b1/4k4 w 4N4L10P4g4s 1",
            Side::Second
        ),
        loss(Side::Second)
    );
}

#[test]
fn annan_borrowed_move() {
    // The gold on 5e stands before a rook: it moves like a rook.
    let p = annan("k8/9/9/9/4G4/4R4/9/9/4K4 b - 1", AnnanDeadPiece::default());
    assert_eq!(check(&p, "5e1e"), Ok(()));
    assert_eq!(check(&p, "5e5b"), Ok(()));
    assert_eq!(check(&p, "5e4d"), Err(IllegalMove::CannotReach));
    // In plain shogi it moves like a gold.
    let s = pos("k8/9/9/9/4G4/4R4/9/9/4K4 b - 1", Variant::Shogi);
    assert_eq!(check(&s, "5e1e"), Err(IllegalMove::CannotReach));
    assert_eq!(check(&s, "5e4d"), Ok(()));
    // A promoted gold-mover never promotes: the gold moving like a rook into the zone.
    assert_eq!(check(&p, "5e5b+"), Err(IllegalMove::CannotPromote));
}

#[test]
fn annan_check_by_borrowed_movement_and_capturing_the_lender() {
    let p = annan(
        "4k4/8b/9/9/4S4/5R3/9/9/4K4 b - 1",
        AnnanDeadPiece::default(),
    );
    assert!(!p.is_check());
    // The rook steps behind the silver, which now attacks the king like a rook.
    let after = play(&p, "4f5f");
    assert!(after.is_check());
    assert_eq!(after.checkers().count(), 1);
    assert!(after.checkers().has(Square::SQ_5E.index()));
    // Capturing the lender ends the check; other moves do not.
    assert_eq!(check(&after, "1b5f"), Ok(()));
    assert_eq!(check(&after, "1b2a"), Err(IllegalMove::LeavesKingInCheck));
    assert_eq!(check(&after, "5a4a"), Ok(()));
}

#[test]
fn annan_nifu_by_a_sideways_pawn_move() {
    let p = annan(
        "4k4/9/9/9/4P4/4G4/5P3/9/4K4 b - 1",
        AnnanDeadPiece::default(),
    );
    assert_eq!(check(&p, "5e4e"), Err(IllegalMove::DoublePawn));
    assert_eq!(check(&p, "5e6e"), Ok(()));
    // Promoting on arrival leaves no second pawn.
    let p = annan(
        "4k4/9/4P4/4G4/9/9/5P3/9/4K4 b - 1",
        AnnanDeadPiece::default(),
    );
    assert_eq!(check(&p, "5c4c+"), Ok(()));
    assert_eq!(check(&p, "5c4c"), Err(IllegalMove::DoublePawn));
}

#[test]
fn annan_dead_piece_settings() {
    // The pawn on 5b moves like the gold behind it; a gold on 4b supports 4a.
    let sfen = "9/4PG3/4G4/9/8k/9/9/9/K8 b P 1";
    let allowed_if_supported = annan(sfen, AnnanDeadPiece::AllowedIfSupported);
    let by_original_type = annan(sfen, AnnanDeadPiece::ByOriginalType);
    let always_allowed = annan(sfen, AnnanDeadPiece::AlwaysAllowed);
    for (usi, ais, bot, aa) in [
        // Arrives on 4a before the gold on 4b: it can move from there.
        ("5b4a", Ok(()), Err(IllegalMove::DeadPiece), Ok(())),
        // Straight forward it left 5b empty: unsupported on 5a.
        (
            "5b5a",
            Err(IllegalMove::DeadPiece),
            Err(IllegalMove::DeadPiece),
            Ok(()),
        ),
        ("5b5a+", Ok(()), Ok(()), Ok(())),
        ("P*4a", Ok(()), Err(IllegalMove::DeadPiece), Ok(())),
        (
            "P*3a",
            Err(IllegalMove::DeadPiece),
            Err(IllegalMove::DeadPiece),
            Ok(()),
        ),
    ] {
        assert_eq!(
            check(&allowed_if_supported, usi),
            ais,
            "{usi} allowed-if-supported"
        );
        assert_eq!(check(&by_original_type, usi), bot, "{usi} by-original-type");
        assert_eq!(check(&always_allowed, usi), aa, "{usi} always-allowed");
    }
    // A stuck pawn on the last rank is a valid position unless the rule is by original type.
    let stuck = "4P4/9/9/9/8k/9/9/9/K8 b - 1";
    assert!(Position::from_sfen(stuck, Variant::Annan, AnnanDeadPiece::AllowedIfSupported).is_ok());
    assert!(Position::from_sfen(stuck, Variant::Annan, AnnanDeadPiece::AlwaysAllowed).is_ok());
    assert_eq!(
        Position::from_sfen(stuck, Variant::Annan, AnnanDeadPiece::ByOriginalType).unwrap_err(),
        SfenError::Position(PositionError::DeadPiece(Square::SQ_5A))
    );
}

#[test]
fn annan_uchifuzume_and_king_borrowing() {
    // Gote king 1a; the pawn drop on 1b is guarded by the silver; the gold covers 2a and 2b.
    let p = annan("8k/6G2/7S1/9/9/9/9/9/4K4 b P 1", AnnanDeadPiece::default());
    assert_eq!(check(&p, "P*1b"), Err(IllegalMove::PawnDropMate));
    // A piece in front of the king moves like a king; the king behind a rook like a rook.
    let p = annan("k8/9/9/9/9/9/9/4G4/4K4 b - 1", AnnanDeadPiece::default());
    assert_eq!(check(&p, "5h6i"), Ok(()));
    let p = annan("k8/9/9/9/9/9/9/4K4/4R4 b - 1", AnnanDeadPiece::default());
    assert_eq!(check(&p, "5h5b"), Ok(()));
    assert_eq!(
        p.piece_at(Square::SQ_5I),
        Some(Piece {
            color: Color::Sente,
            role: Role::Rook
        })
    );
}

#[test]
fn annan_most_moves_fit_the_move_list() {
    let p = annan(
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        AnnanDeadPiece::AlwaysAllowed,
    );
    // Shogi's record position (593 moves) has more in annan, where pieces
    // standing before a friendly piece borrow its moves: above the old 600 bound.
    assert!(p.legal_moves().len() > 593);
    let shogi = pos(
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        Variant::Shogi,
    );
    assert_eq!(shogi.legal_moves().len(), 593);
}
