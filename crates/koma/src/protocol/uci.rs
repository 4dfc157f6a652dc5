//! UCI and UCCI text for xiangqi: the handshake, the options, `info` and
//! `bestmove`. Moves are ICCS (`h2e2`).

use engine::{Decision, Info, Score, SearchEvent};

use super::Dialect;

/// The reply to `uci` or `ucci`: identity, options, `uciok` or `ucciok`.
pub(super) fn hello(dialect: Dialect) -> String {
    [
        format!("id name Koma {}", env!("CARGO_PKG_VERSION")),
        "id author the Koma authors".to_owned(),
        "option name Hash type spin default 16 min 1 max 4096".to_owned(),
        "option name Threads type spin default 1 min 1 max 64".to_owned(),
        "option name Ponder type check default false".to_owned(),
        "option name UCI_Variant type combo default xiangqi var xiangqi".to_owned(),
        "option name Level type spin default 8 min 1 max 8".to_owned(),
        (if dialect == Dialect::Ucci {
            "ucciok"
        } else {
            "uciok"
        })
        .to_owned(),
    ]
    .join("\n")
}

/// An event as UCI (or UCCI) lines.
pub(super) fn format(event: &SearchEvent, dialect: Dialect) -> String {
    match event {
        SearchEvent::Info(info) => info_line(info),
        SearchEvent::BestMove(Decision::Move { best, ponder }) => match ponder {
            Some(ponder) => format!("bestmove {best} ponder {ponder}"),
            None => format!("bestmove {best}"),
        },
        // Xiangqi has no declaration; either way there is no move to play.
        SearchEvent::BestMove(Decision::Resign | Decision::DeclareWin) => match dialect {
            Dialect::Ucci => "nobestmove".to_owned(),
            Dialect::Usi | Dialect::Uci => "bestmove (none)".to_owned(),
        },
    }
}

/// `info ...`; UCI counts mates in moves (a move being two plies).
fn info_line(info: &Info) -> String {
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(plies) => format!("mate {}", plies.signum() * ((plies.abs() + 1) / 2)),
    };
    super::info_line(info, &score)
}
