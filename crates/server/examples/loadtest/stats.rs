//! What a run measures: latency samples (microseconds) merged from the child
//! processes, and the server's CPU time and peak resident set from `/proc`.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// One child process's results, sent to the parent as one JSON line.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Results {
    /// Moves acknowledged (an ack frame, or a POST answered 2xx).
    pub(crate) acked: u64,
    /// Acknowledged moves missing from their room's stored moves.
    pub(crate) lost: u64,
    /// Requests answered with an error or not answered.
    pub(crate) errors: u64,
    /// Moves the server's computer played (an away player's takeover).
    pub(crate) computer_moves: u64,
    /// Games that ended during the run.
    pub(crate) ended: u64,
    /// HTTP connections opened to post moves (a kept one was closed).
    pub(crate) connects: u64,
    /// The client's own CPU time while playing, in seconds.
    pub(crate) client_cpu: f64,
    /// Move sent -> its ack read.
    pub(crate) ack: Vec<u32>,
    /// The acks of the moves whose POST opened a new connection (also in `ack`).
    pub(crate) ack_new_connection: Vec<u32>,
    /// Move sent -> its event read by the opponent's socket.
    pub(crate) opponent: Vec<u32>,
    /// Move sent -> its event read by each spectator's socket.
    pub(crate) spectators: Vec<u32>,
}

impl Results {
    pub(crate) fn merge(&mut self, other: Results) {
        self.acked += other.acked;
        self.lost += other.lost;
        self.errors += other.errors;
        self.computer_moves += other.computer_moves;
        self.ended += other.ended;
        self.connects += other.connects;
        self.client_cpu += other.client_cpu;
        self.ack.extend(other.ack);
        self.ack_new_connection.extend(other.ack_new_connection);
        self.opponent.extend(other.opponent);
        self.spectators.extend(other.spectators);
    }
}

pub(crate) fn micros(elapsed: Duration) -> u32 {
    u32::try_from(elapsed.as_micros()).unwrap_or(u32::MAX)
}

/// `p50 / p99 / max` in milliseconds, sorting `samples`.
pub(crate) fn summary(samples: &mut [u32]) -> String {
    if samples.is_empty() {
        return "–".to_owned();
    }
    samples.sort_unstable();
    let at = |p: f64| {
        let index = ((samples.len() - 1) as f64 * p).round() as usize;
        f64::from(samples[index]) / 1e3
    };
    format!(
        "{} / {} / {}",
        millis(at(0.5)),
        millis(at(0.99)),
        millis(at(1.0))
    )
}

fn millis(ms: f64) -> String {
    if ms < 10.0 {
        format!("{ms:.1}")
    } else {
        format!("{ms:.0}")
    }
}

/// A process's CPU time (user + system) in seconds, from `/proc/PID/stat`.
pub(crate) fn cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name, in parentheses, may hold spaces: count after it.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // Linux reports clock ticks of 1/100 s (USER_HZ) on every common platform.
    Some((utime + stime) / 100.0)
}

/// A process's peak resident set (`VmHWM`) in bytes.
pub(crate) fn peak_rss(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
