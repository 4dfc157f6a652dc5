//! Real-world shaped records written by hand (tests/data/handwritten), with
//! the moves worked out by hand from the diagrams.

use std::path::PathBuf;

use notation::{Format, GameResult, Record, Termination};
use rules::{Handicap, Side, Variant};

fn read(name: &str) -> Record {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/handwritten")
        .join(name);
    let bytes = std::fs::read(&path).unwrap();
    Record::parse(&bytes, None).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn result(termination: Termination, winner: Option<Side>) -> Option<GameResult> {
    Some(GameResult {
        termination,
        winner,
    })
}

/// Every format that can hold the record writes it and reads it back whole
/// (times only in KIF and CSA, comments and headers not in the SFEN line).
fn round_trips(record: &Record) {
    for format in Format::ALL
        .into_iter()
        .filter(|f| f.supports(record.variant()))
    {
        let back = Record::parse(record.write(format).unwrap(), Some(record.variant())).unwrap();
        assert_eq!(back.moves_text(), record.moves_text(), "{format}");
        assert_eq!(
            back.start().to_string(),
            record.start().to_string(),
            "{format}"
        );
        if format != Format::Position {
            assert_eq!(back.result, record.result, "{format}");
            assert_eq!(back.headers, record.headers, "{format}");
        }
    }
}

#[test]
fn even_game_kif() {
    let r = read("even.kif");
    assert_eq!(
        r.moves_text(),
        [
            "7g7f", "3c3d", "8h2b", "3a2b", "B*4e", "6a5b", "4e6c+", "5b6c", "6i5h", "B*5e", "8i7g"
        ]
    );
    assert_eq!(r.headers.first.as_deref(), Some("佐藤 一郎"));
    assert_eq!(r.headers.second.as_deref(), Some("鈴木 花子"));
    assert_eq!(r.headers.event.as_deref(), Some("第1回 駒杯 準決勝"));
    assert_eq!(r.headers.opening.as_deref(), Some("角換わり"));
    assert_eq!(r.headers.time_control.as_deref(), Some("各1時間"));
    assert_eq!(r.headers.end_time.as_deref(), Some("2025/03/09 15:42:10"));
    assert_eq!(r.comments, ["序盤は角換わりに"]);
    assert_eq!(r.moves()[2].comments, ["角を成らずに取る"]);
    assert_eq!(r.moves()[6].comments, ["馬を作る"]);
    assert_eq!(r.moves()[4].seconds, Some(90));
    assert_eq!(r.moves()[9].seconds, Some(120));
    assert_eq!(
        r.result,
        result(Termination::Resignation, Some(Side::First))
    );
    let kif = r.write(Format::Kif).unwrap();
    assert!(kif.contains("   3 ２二角(88)"), "{kif}");
    assert!(kif.contains("   8 同　金(52)"), "{kif}");
    let ki2 = r.write(Format::Ki2).unwrap();
    assert!(ki2.contains("▲２二角不成"), "{ki2}");
    // No board bishop could reach 4e, so the drop needs no 打.
    assert!(
        ki2.contains("▲４五角") && !ki2.contains("▲４五角打"),
        "{ki2}"
    );
    let csa = r.write(Format::Csa).unwrap();
    assert!(csa.contains("+8822KA\nT10\n'*角を成らずに取る\n"), "{csa}");
    assert!(csa.contains("+4563UM\n"), "{csa}");
    assert!(csa.ends_with("%TORYO\n"), "{csa}");
    round_trips(&r);
}

#[test]
fn shift_jis_reads_like_utf8() {
    assert_eq!(read("even-sjis.kif"), read("even.kif"));
}

#[test]
fn lance_handicap_kif() {
    let r = read("lance-handicap.kif");
    assert_eq!(r.start().to_string(), Handicap::Lance.sfen());
    assert_eq!(
        r.moves_text(),
        ["3c3d", "7g7f", "4c4d", "2g2f", "8b3b", "3i4h"]
    );
    assert_eq!(r.headers.first.as_deref(), Some("下手の棋士"));
    assert_eq!(r.headers.second.as_deref(), Some("上手の棋士"));
    assert_eq!(r.moves()[4].comments, ["三間飛車"]);
    assert_eq!(r.result, result(Termination::Abort, None));
    let kif = r.write(Format::Kif).unwrap();
    assert!(
        kif.contains("手合割：香落ち\n") && kif.contains("下手：下手の棋士\n"),
        "{kif}"
    );
    assert!(r.write(Format::Csa).unwrap().contains("PI11KY\n-\n"));
    round_trips(&r);
}

#[test]
fn sennichite_kif() {
    let r = read("sennichite.kif");
    assert_eq!(r.moves().len(), 12);
    assert_eq!(r.result, result(Termination::Repetition, None));
    round_trips(&r);
}

#[test]
fn impasse_declaration_kif_and_csa() {
    let kif = read("declaration.kif");
    let sfen = "2SG1GS2/1R2K2B1/LNPPPPPNL/9/9/9/lnpppppnl/1b2k2r1/2sg1gs2 b 4P4p 1";
    assert_eq!(kif.start().to_string(), sfen);
    assert_eq!(kif.moves_text(), ["8b8a+", "1g1h"]);
    assert_eq!(kif.moves()[0].comments, ["龍を作って宣言へ"]);
    assert_eq!(
        kif.result,
        result(Termination::Declaration, Some(Side::First))
    );
    let csa = read("impasse.csa");
    assert_eq!(csa.start().to_string(), sfen);
    assert_eq!(csa.moves_text(), kif.moves_text());
    assert_eq!(csa.result, kif.result);
    assert_eq!(csa.moves()[0].seconds, Some(30));
    round_trips(&kif);
    round_trips(&csa);
}

#[test]
fn disambiguation_ki2() {
    let r = read("disambiguation.ki2");
    assert_eq!(
        r.moves_text(),
        [
            "7g7f", "3c3d", "8h2b+", "3a2b", "4i5h", "4a5b", "6i6h", "7a6b", "B*4e", "B*5d",
            "5g5f", "4c4d", "5h5g", "6a7b", "6h5h"
        ]
    );
    assert_eq!(r.moves()[9].comments, ["お互いに角打ち"]);
    assert_eq!(
        r.result,
        result(Termination::Resignation, Some(Side::First))
    );
    let ki2 = r.write(Format::Ki2).unwrap();
    for text in [
        "▲５八金右",
        "△５二金左",
        "▲６八金上",
        "▲５七金直",
        "▲５八金寄",
        "△同　銀",
    ] {
        assert!(ki2.contains(text), "{text} in\n{ki2}");
    }
    round_trips(&r);
}

#[test]
fn handicap_csa_with_times_and_timeout() {
    let r = read("handicap.csa");
    assert_eq!(r.start().to_string(), Handicap::Two.sfen());
    assert_eq!(r.moves_text(), ["6a5b", "7g7f", "5a4b", "2g2f"]);
    let times: Vec<_> = r.moves().iter().map(|m| m.seconds).collect();
    assert_eq!(times, [Some(5), Some(20), Some(3), Some(12)]);
    assert_eq!(r.moves()[1].comments, ["定跡"]);
    assert_eq!(r.comments, ["CSA encoding=UTF-8"]);
    assert_eq!(r.headers.first.as_deref(), Some("下手"));
    assert_eq!(r.headers.time_control.as_deref(), Some("00:30+30"));
    assert_eq!(r.headers.opening.as_deref(), Some("二枚落ち"));
    assert_eq!(r.result, result(Termination::Timeout, Some(Side::First)));
    let kif = r.write(Format::Kif).unwrap();
    assert!(kif.contains("手合割：二枚落ち\n"), "{kif}");
    assert!(kif.contains("切れ負け"), "{kif}");
    round_trips(&r);
}

#[test]
fn xiangqi_wxf_pgn() {
    let r = read("game.pgn");
    assert_eq!(r.variant(), Variant::Xiangqi);
    assert_eq!(
        r.moves_text(),
        [
            "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5", "h0h6", "h7i7", "h6g6",
            "i7i8", "b0c2", "d9e8", "b2a2", "a9b9", "a0b0", "b7b3"
        ]
    );
    assert_eq!(r.comments, ["中炮对屏风马"]);
    assert_eq!(r.moves()[7].comments, ["两头蛇"]);
    assert_eq!(r.headers.site.as_deref(), Some("Taipei"));
    assert_eq!(
        r.result,
        result(Termination::Resignation, Some(Side::Second))
    );
    round_trips(&r);
}

#[test]
fn xiangqi_iccs_pgn_from_a_position() {
    let r = read("iccs.pgn");
    assert_eq!(r.moves_text(), ["e2c4", "e7g9", "c4e2", "g9e7"]);
    assert_eq!(r.result, result(Termination::InsufficientMaterial, None));
    assert!(
        r.write(Format::XiangqiIccs)
            .unwrap()
            .contains("1. E2-C4 E7-G9 2. C4-E2 G9-E7 1/2-1/2")
    );
    round_trips(&r);
}
