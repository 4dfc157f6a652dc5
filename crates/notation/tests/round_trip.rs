//! Round trips on random games from the rules library: every format that can
//! hold a game writes it and reads back the same game, and every move's
//! Japanese, Western and WXF text reads back as that move.

mod common;

use common::Rng;
use notation::{Format, GameResult, Headers, Record, Termination, japanese, western, wxf};
use rules::{AnyMove, AnyPosition, Position as _, Settings, Side, Variant};

const COMMENTS: [&str; 4] = ["角道を開ける", "a plain comment", "☆好手！ (+300)", "x"];

/// The start positions a game may begin from: the usual start, and for
/// shogi a handicap, for annan the traditional setup.
fn start(variant: Variant, rng: &mut Rng) -> AnyPosition {
    let mut settings = Settings::default();
    match (variant, rng.below(3)) {
        (Variant::Shogi, 0) => {
            let all = rules::Handicap::ALL;
            settings.handicap = all[rng.below(all.len())];
        }
        (Variant::Annan, 0) => settings.annan_setup = rules::AnnanSetup::Traditional,
        _ => {}
    }
    AnyPosition::new(variant, None, &settings).unwrap()
}

/// A random game with headers, comments, times and a result.
fn random_record(variant: Variant, rng: &mut Rng) -> Record {
    let mut record = Record::new(start(variant, rng));
    record.headers = Headers {
        first: Some("Sente Player".into()),
        second: Some("後手 名人".into()),
        event: (rng.below(2) == 0).then(|| "Koma Cup".into()),
        start_time: Some("2024/01/02 10:00:00".into()),
        other: vec![("ROUND".into(), "3".into())],
        ..Headers::default()
    };
    if rng.below(3) == 0 {
        record
            .comments
            .push(COMMENTS[rng.below(COMMENTS.len())].into());
    }
    let plies = rng.below(120);
    for _ in 0..plies {
        let moves = record.position().legal_moves();
        if moves.is_empty() || record.position().end().is_some() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        let seconds = rng.below(700) as u32;
        let comment = (rng.below(8) == 0).then(|| COMMENTS[rng.below(COMMENTS.len())]);
        let pushed = record.push(mv).unwrap();
        pushed.seconds = Some(seconds);
        pushed.comments.extend(comment.map(String::from));
    }
    let to_move = record.side_to_move();
    record.result = match record.position().end() {
        Some(outcome) => Some(GameResult::from_outcome(outcome, to_move)),
        None => {
            let choices = [
                (Termination::Resignation, Some(to_move.opponent())),
                (Termination::Timeout, Some(to_move.opponent())),
                (Termination::IllegalMove, Some(to_move)),
                (Termination::IllegalMove, Some(to_move.opponent())),
                (Termination::Abort, None),
                (Termination::Agreement, None),
            ];
            let shogi_only = [
                (Termination::Declaration, Some(to_move)),
                (Termination::Impasse, None),
            ];
            match rng.below(8) {
                0 => None,
                1 if variant.is_shogi_family() => {
                    let (termination, winner) = shogi_only[rng.below(2)];
                    Some(GameResult {
                        termination,
                        winner,
                    })
                }
                _ => {
                    let (termination, winner) = choices[rng.below(choices.len())];
                    Some(GameResult {
                        termination,
                        winner,
                    })
                }
            }
        }
    };
    record
}

/// What `format` keeps of `record`.
fn kept(record: &Record, format: Format) -> Record {
    let mut r = record.clone();
    let drop_times = !matches!(format, Format::Kif | Format::Csa);
    let drop_comments = format == Format::Position;
    for m in r.moves_mut() {
        if drop_times {
            m.seconds = None;
        }
        if drop_comments {
            m.comments.clear();
        }
    }
    if drop_comments {
        r.comments.clear();
        r.headers = Headers::default();
        r.result = None;
    }
    r
}

fn check_variant(variant: Variant, games: usize, seed: u64) {
    let mut rng = Rng(seed);
    for game in 0..games {
        let record = random_record(variant, &mut rng);
        for format in Format::ALL.into_iter().filter(|f| f.supports(variant)) {
            let text = record.write(format).unwrap();
            let hint = (variant == Variant::Annan).then_some(variant);
            let back = Record::parse(&text, hint)
                .unwrap_or_else(|e| panic!("{variant} game {game} in {format}: {e}\n{text}"));
            assert_eq!(
                back,
                kept(&record, format),
                "{variant} game {game} in {format}:\n{text}"
            );
        }
    }
}

#[test]
fn shogi_games_round_trip() {
    check_variant(Variant::Shogi, 600, 1);
}

#[test]
fn minishogi_games_round_trip() {
    check_variant(Variant::Minishogi, 600, 2);
}

#[test]
fn annan_games_round_trip() {
    check_variant(Variant::Annan, 400, 3);
}

#[test]
fn xiangqi_games_round_trip() {
    check_variant(Variant::Xiangqi, 600, 4);
}

/// Every legal move of every position reached reads back from its own text,
/// so the disambiguation always tells moves apart.
fn check_move_texts(variant: Variant, games: usize, seed: u64) {
    let mut rng = Rng(seed);
    for _ in 0..games {
        let record = random_record(variant, &mut rng);
        let mut previous = None;
        for (before, played) in record.plies() {
            match before {
                AnyPosition::Shogi(pos) => {
                    for mv in pos.legal_moves() {
                        let text = japanese::move_text(&pos, mv, previous);
                        assert_eq!(
                            japanese::parse_move(&pos, &text, previous),
                            Ok(mv),
                            "{text} in {pos}"
                        );
                        let kif = japanese::kif_text(&pos, mv, previous);
                        assert_eq!(
                            japanese::parse_move(&pos, &kif, previous),
                            Ok(mv),
                            "{kif} in {pos}"
                        );
                        let hodges = western::move_text(&pos, mv);
                        assert_eq!(
                            western::parse_move(&pos, &hodges),
                            Ok(mv),
                            "{hodges} in {pos}"
                        );
                    }
                }
                AnyPosition::Xiangqi(pos) => {
                    for mv in pos.legal_moves() {
                        let text = wxf::move_text(&pos, mv);
                        assert_eq!(wxf::parse_move(&pos, &text), Ok(mv), "{text} in {pos}");
                        assert_eq!(wxf::parse_iccs(&pos, &wxf::iccs_text(mv)), Ok(mv));
                    }
                }
            }
            previous = match played.mv() {
                AnyMove::Shogi(m) => Some(m.to()),
                AnyMove::Xiangqi(_) => None,
            };
        }
    }
}

#[test]
fn shogi_move_texts_read_back() {
    check_move_texts(Variant::Shogi, 40, 11);
}

#[test]
fn minishogi_move_texts_read_back() {
    check_move_texts(Variant::Minishogi, 60, 12);
}

#[test]
fn annan_move_texts_read_back() {
    check_move_texts(Variant::Annan, 20, 13);
}

#[test]
fn xiangqi_move_texts_read_back() {
    check_move_texts(Variant::Xiangqi, 60, 14);
}

#[test]
fn results_survive_the_shogi_formats() {
    let mut record =
        Record::new(AnyPosition::new(Variant::Shogi, None, &Settings::default()).unwrap());
    for usi in ["7g7f", "3c3d", "2g2f"] {
        let mv = record.position().parse_move(usi).unwrap();
        record.push(mv).unwrap();
    }
    // Gote is to move.
    let exact = [
        (Termination::Resignation, Some(Side::First)),
        (Termination::Timeout, Some(Side::First)),
        (Termination::Declaration, Some(Side::Second)),
        (Termination::Impasse, None),
        (Termination::Impasse, Some(Side::First)),
        (Termination::IllegalMove, Some(Side::First)),
        (Termination::IllegalMove, Some(Side::Second)),
        (Termination::Agreement, None),
        (Termination::Abort, None),
        (Termination::Repetition, None),
    ];
    for (termination, winner) in exact {
        record.result = Some(GameResult {
            termination,
            winner,
        });
        for format in [Format::Kif, Format::Ki2, Format::Csa] {
            let back = Record::parse(record.write(format).unwrap(), None).unwrap();
            let expected = if format == Format::Csa
                && (termination, winner) == (Termination::Impasse, Some(Side::First))
            {
                // CSA's %JISHOGI names no winner.
                Some(GameResult {
                    termination,
                    winner: None,
                })
            } else {
                record.result
            };
            assert_eq!(
                back.result, expected,
                "{termination:?} {winner:?} in {format}"
            );
        }
    }
    // The formats write every repetition as 千日手 / %SENNICHITE, and reading
    // asks the rules who (if anyone) lost it: here the board shows no
    // perpetual check, so it reads back as a plain repetition.
    record.result = Some(GameResult {
        termination: Termination::PerpetualCheck,
        winner: Some(Side::First),
    });
    for format in [Format::Kif, Format::Ki2, Format::Csa] {
        let back = Record::parse(record.write(format).unwrap(), None).unwrap();
        assert_eq!(
            back.result,
            Some(GameResult {
                termination: Termination::Repetition,
                winner: None
            })
        );
    }
}
