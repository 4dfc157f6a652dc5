//! `POST /api/v1/records`: a game record in any format `koma convert` reads,
//! answered as the game for replaying, or refused with the line and column.

mod common;

use common::TestServer;
use serde_json::{Value, json};

const KIF: &str = "\
開始日時：2025/03/09 13:00:00
棋戦：第1回 駒杯 準決勝
手合割：平手
先手：佐藤 一郎
後手：鈴木 花子
手数----指手---------消費時間--
*序盤の研究
   1 ７六歩(77)   ( 0:03/00:00:03)
   2 ３四歩(33)   ( 0:02/00:00:02)
   3 ２二角不成(88) ( 0:10/00:00:13)
   4 同　銀(31)   ( 0:05/00:00:07)
*角交換
*次は４五角
   5 ４五角打     ( 1:30/00:01:43)
   6 投了         ( 0:10/00:03:12)
まで5手で先手の勝ち
";

const CSA: &str = "V2.2\nN+Ann\nN-Bo\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n";

const PGN: &str = r#"[Game "Chinese Chess"]
[Red "Red Player"]
[Black "Black Player"]
[Result "0-1"]
[Format "WXF"]

1. C2.5 H8+7 2. H2+3 R9.8 0-1
"#;

async fn import(server: &TestServer, query: &str, body: &str) -> (u16, Value) {
    let (status, text) = server
        .request_text("POST", &format!("/api/v1/records{query}"), None, Some(body))
        .await;
    (status, serde_json::from_str(&text).unwrap())
}

#[tokio::test]
async fn a_kif_record_is_read_for_replay() {
    let server = TestServer::start().await;
    let (status, game) = import(&server, "", KIF).await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["variant"], "shogi");
    assert_eq!(
        game["start"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    assert_eq!(
        game["moves"],
        json!(["7g7f", "3c3d", "8h2b", "3a2b", "B*4e"])
    );
    assert_eq!(game["notation"]["japanese"][3], "△同　銀");
    assert_eq!(game["notation"]["western"][0], "P-7f");
    assert_eq!(
        game["result"],
        json!({"result": "first", "reason": "resignation"})
    );
    assert_eq!(game["headers"]["first"], "佐藤 一郎");
    assert_eq!(game["headers"]["event"], "第1回 駒杯 準決勝");
    assert_eq!(game["start_comments"], json!(["序盤の研究"]));
    assert_eq!(
        game["comments"],
        json!([[], [], [], ["角交換", "次は４五角"], []])
    );
    server.stop().await;
}

#[tokio::test]
async fn a_csa_record_is_read_for_replay() {
    let server = TestServer::start().await;
    let (status, game) = import(&server, "", CSA).await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["moves"], json!(["7g7f", "3c3d", "8h2b+", "3a2b"]));
    // %TORYO: the side to move (Sente, after four moves) resigned.
    assert_eq!(
        game["result"],
        json!({"result": "second", "reason": "resignation"})
    );
    assert_eq!(
        (&game["headers"]["first"], &game["headers"]["second"]),
        (&json!("Ann"), &json!("Bo"))
    );
    server.stop().await;
}

#[tokio::test]
async fn a_xiangqi_pgn_is_read_for_replay() {
    let server = TestServer::start().await;
    let (status, game) = import(&server, "", PGN).await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["variant"], "xiangqi");
    assert_eq!(game["moves"].as_array().unwrap().len(), 4);
    assert_eq!(game["moves"][0], "h2e2");
    assert_eq!(
        game["notation"]["wxf"],
        json!(["C2.5", "H8+7", "H2+3", "R9.8"])
    );
    assert_eq!(
        game["notation"]["chinese"],
        json!(["炮二平五", "马8进7", "马二进三", "车9平8"])
    );
    assert_eq!(game["result"]["result"], "second");
    assert_eq!(game["headers"]["first"], "Red Player");
    server.stop().await;
}

#[tokio::test]
async fn a_position_line_takes_the_variant_and_rules_from_the_query() {
    let server = TestServer::start().await;
    let (status, game) = import(&server, "?variant=minishogi", "startpos moves 2e3d 4a3b").await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["variant"], "minishogi");
    assert_eq!(game["result"], json!({"result": null, "reason": null}));
    let (status, game) = import(
        &server,
        "?variant=annan&annan_setup=traditional",
        "startpos moves",
    )
    .await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["variant"], "annan");
    let (_, standard) = import(&server, "?variant=annan", "startpos moves").await;
    assert_ne!(
        game["start"], standard["start"],
        "annan_setup=traditional changes the start"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_bad_record_is_refused_naming_line_and_column() {
    let server = TestServer::start().await;
    let (status, error) = import(&server, "", "V2.2\nPI\n+\n+7776FU\n-3334FX\n").await;
    assert_eq!(status, 422);
    assert_eq!(error["code"], "bad-record");
    assert_eq!(error["message"], "line 5, column 6: bad piece code");

    let refusals = [
        ("", "   \n", "bad-request", "empty"),
        ("?variant=chess", "startpos", "bad-request", "chess"),
        ("?colour=red", "startpos", "bad-request", "colour"),
        ("?impasse=30-point", "startpos", "bad-request", "30-point"),
    ];
    for (query, body, code, named) in refusals {
        let (status, error) = import(&server, query, body).await;
        assert_eq!(
            (status, error["code"].as_str()),
            (422, Some(code)),
            "{query} {error}"
        );
        assert!(
            error["message"].as_str().unwrap().contains(named),
            "{error}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn a_room_record_reads_back_as_the_same_game() {
    let server = TestServer::start().await;
    let (id, first, second) = server.online_room("shogi", None, json!({})).await;
    for (token, mv) in [(&first, "7g7f"), (&second, "3c3d"), (&first, "8h2b+")] {
        assert_eq!(server.play(&id, token, mv).await.0, 200);
    }
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    for format in ["kif", "ki2", "csa", "sfen"] {
        let (status, text) = server
            .request_text(
                "GET",
                &format!("/api/v1/rooms/{id}/record?format={format}"),
                None,
                None,
            )
            .await;
        assert_eq!(status, 200);
        let (status, game) = import(&server, "", &text).await;
        assert_eq!(status, 200, "{format}: {game}");
        assert_eq!(game["moves"], room["moves"], "{format}");
        assert_eq!(game["notation"], room["notation"], "{format}");
    }
    server.stop().await;
}

/// A download of the room's game: the text and what `POST /records` reads of it.
async fn download(server: &TestServer, id: &str, format: &str) -> (String, Value) {
    let path = format!("/api/v1/rooms/{id}/record?format={format}");
    let (status, text) = server.request_text("GET", &path, None, None).await;
    assert_eq!(status, 200, "{text}");
    let (status, game) = import(server, "", &text).await;
    assert_eq!(status, 200, "{format}: {game}");
    (text, game)
}

/// `2026/12/03 23:40:18`: digits where KIF's 開始日時 and CSA's `$START_TIME` have them.
fn is_record_date(text: &str) -> bool {
    let shape = "dddd/dd/dd dd:dd:dd";
    text.len() == shape.len()
        && text
            .chars()
            .zip(shape.chars())
            .all(|(c, s)| if s == 'd' { c.is_ascii_digit() } else { c == s })
}

#[tokio::test]
async fn a_finished_rooms_downloads_carry_the_players_date_and_result() {
    let server = TestServer::start().await;
    let (id, ann, bo) = server.online_room("shogi", None, json!({})).await;
    for (token, mv) in [(&ann, "7g7f"), (&bo, "3c3d"), (&ann, "8h2b+")] {
        assert_eq!(server.play(&id, token, mv).await.0, 200);
    }
    let resign = format!("/api/v1/rooms/{id}/resign");
    let (status, body) = server.request("POST", &resign, Some(&bo), None).await;
    assert_eq!(status, 200, "{body}");

    let (kif, game) = download(&server, &id, "kif").await;
    for line in ["先手：Ann", "後手：Bo", "   4 投了", "まで3手で先手の勝ち"] {
        assert!(kif.lines().any(|l| l.starts_with(line)), "{line} in\n{kif}");
    }
    let date = game["headers"]["start_time"].as_str().unwrap().to_owned();
    assert!(is_record_date(&date), "{date}");
    assert!(kif.contains(&format!("開始日時：{date}\n")), "{kif}");
    let (csa, from_csa) = download(&server, &id, "csa").await;
    for line in ["N+Ann", "N-Bo", &format!("$START_TIME:{date}"), "%TORYO"] {
        assert!(csa.lines().any(|l| l == line), "{line} in\n{csa}");
    }
    for game in [&game, &from_csa] {
        assert_eq!(game["headers"]["first"], "Ann");
        assert_eq!(game["headers"]["second"], "Bo");
        assert_eq!(
            game["result"],
            json!({"result": "first", "reason": "resignation"})
        );
    }

    // The rematch swaps the sides: Bo moves first, and the record says so.
    let rematch = format!("/api/v1/rooms/{id}/rematch");
    for token in [&ann, &bo] {
        let (status, body) = server.request("POST", &rematch, Some(token), None).await;
        assert_eq!(status, 200, "{body}");
    }
    let room = server.get(&format!("/api/v1/rooms/{id}")).await;
    assert_eq!(room["seats"]["second"]["side"], "first", "{room}");
    assert_eq!(server.play(&id, &bo, "2g2f").await.0, 200);
    let (kif, game) = download(&server, &id, "kif").await;
    assert!(kif.contains("先手：Bo\n後手：Ann\n"), "{kif}");
    assert!(!kif.contains("まで"), "{kif}");
    assert_eq!(game["result"]["result"], Value::Null);
    server.stop().await;
}
