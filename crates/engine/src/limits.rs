//! What a `go` asks for: how long, how deep, how many nodes.

use std::time::Duration;

use rules::Side;

/// The limits of one search. The default is an infinite search (until
/// [`Engine::stop`](crate::Engine::stop)).
///
/// Clocks are per [`Side`]: in USI `btime` is Sente's (`First`) and `wtime`
/// Gote's; in UCI `wtime` is Red's (`First`) and `btime` Black's.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Limits {
    /// Time left on each side's main clock, `First` then `Second`.
    pub time: [Option<Duration>; 2],
    /// Increment per move (Fischer), `First` then `Second`.
    pub increment: [Duration; 2],
    /// Byoyomi: time per move once the main time is spent (USI `byoyomi`).
    pub byoyomi: Duration,
    /// Moves until the next time control (UCI `movestogo`).
    pub moves_to_go: Option<u32>,
    /// Search exactly this long (`movetime`).
    pub move_time: Option<Duration>,
    /// Search no deeper than this many plies (`depth`).
    pub depth: Option<u32>,
    /// Search about this many nodes (`nodes`); deterministic on one thread.
    pub nodes: Option<u64>,
    /// Search until stopped, even after a mate is found (`infinite`).
    pub infinite: bool,
    /// Ponder: search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
}

impl Limits {
    /// Whether any clock or count limits the search (otherwise it runs until stopped).
    pub fn is_bounded(&self) -> bool {
        !self.infinite
            && (self.time.iter().any(Option::is_some)
                || !self.byoyomi.is_zero()
                || self.move_time.is_some()
                || self.depth.is_some()
                || self.nodes.is_some())
    }

    /// Limits that search to `depth` plies only.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Limits that search about `nodes` nodes only.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// The main time left for `side`, if a clock was given.
    pub(crate) fn time_of(&self, side: Side) -> Option<Duration> {
        self.time[side.index()]
    }
}
