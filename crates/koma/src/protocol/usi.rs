//! USI text: the handshake, the options, `info` and `bestmove`.

use engine::{Decision, Info, MateResult, Score, SearchEvent};
use rules::{AnnanDeadPiece, AnnanSetup, AnyMove, Impasse};

/// The reply to `usi`: identity, options, `usiok`.
pub(super) fn hello() -> String {
    let combo = |values: &[&str]| {
        values
            .iter()
            .map(|v| format!(" var {v}"))
            .collect::<String>()
    };
    let impasse: Vec<&str> = Impasse::ALL.iter().map(|v| v.name()).collect();
    let dead_piece: Vec<&str> = AnnanDeadPiece::ALL.iter().map(|v| v.name()).collect();
    let setup: Vec<&str> = AnnanSetup::ALL.iter().map(|v| v.name()).collect();
    [
        format!("id name Koma {}", env!("CARGO_PKG_VERSION")),
        "id author the Koma authors".to_owned(),
        "option name USI_Hash type spin default 16 min 1 max 4096".to_owned(),
        "option name Threads type spin default 1 min 1 max 64".to_owned(),
        "option name USI_Ponder type check default false".to_owned(),
        format!(
            "option name USI_Variant type combo default shogi{}",
            combo(&["shogi", "minishogi", "annan"])
        ),
        "option name Level type spin default 8 min 1 max 8".to_owned(),
        format!(
            "option name Impasse type combo default {}{}",
            Impasse::default(),
            combo(&impasse)
        ),
        format!(
            "option name AnnanDeadPiece type combo default {}{}",
            AnnanDeadPiece::default(),
            combo(&dead_piece)
        ),
        format!(
            "option name AnnanSetup type combo default {}{}",
            AnnanSetup::default(),
            combo(&setup)
        ),
        "usiok".to_owned(),
    ]
    .join("\n")
}

/// An event as USI lines.
pub(super) fn format(event: &SearchEvent) -> String {
    match event {
        SearchEvent::Info(info) => info_line(info),
        SearchEvent::BestMove(Decision::Move { best, ponder }) => match ponder {
            Some(ponder) => format!("bestmove {best} ponder {ponder}"),
            None => format!("bestmove {best}"),
        },
        SearchEvent::BestMove(Decision::Resign) => "bestmove resign".to_owned(),
        SearchEvent::BestMove(Decision::DeclareWin) => "bestmove win".to_owned(),
    }
}

/// The answer to `go mate`: `checkmate <moves>`, `checkmate nomate` or
/// `checkmate timeout`.
pub(super) fn checkmate(result: &MateResult<AnyMove>) -> String {
    match result {
        MateResult::Mate(pv) => {
            let moves: Vec<String> = pv.iter().map(ToString::to_string).collect();
            format!("checkmate {}", moves.join(" "))
        }
        MateResult::NoMate => "checkmate nomate".to_owned(),
        MateResult::Timeout => "checkmate timeout".to_owned(),
    }
}

/// `info ...`; USI counts mates in plies.
fn info_line(info: &Info) -> String {
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(plies) => format!("mate {plies}"),
    };
    super::info_line(info, &score)
}
