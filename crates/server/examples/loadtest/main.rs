//! The load test: plays online rooms against a separately started
//! `koma serve` as browsers do (see `loadtest/play.rs`), from several client
//! processes, and prints one Markdown row of `docs/performance.md`'s table.
//!
//! URL may list a cluster's nodes, comma-separated (and `--server-pid` their
//! processes): each page goes to one of them in turn, as a load balancer
//! would send it, so a room's two players reach different nodes.
//!
//! ```text
//! cargo run --release -p server --example loadtest -- URL --rooms N --think-ms MAX \
//!     [--watched-every K --spectators S] [--seconds T] [--processes P] \
//!     [--server-pid PID] [--refetch] [--http-moves] [--store NAME] [--variant VARIANT]
//! ```
//!
//! Each of the `N` rooms has two players who think a random time up to
//! `MAX` ms before each move (sent on the player's socket, or by `POST` with
//! `--http-moves`); every `K`-th room has `S` spectators. After every
//! process has set up its rooms, they play for `T` seconds; then every
//! acknowledged move is looked for in its room (`lost`) and every game is
//! resigned (so the server's computer does not take over the players who
//! leave). With `--server-pid`, the server's CPU time over the play and its
//! peak resident set (`VmHWM`) are read from `/proc`.

mod http;
mod play;
mod stats;

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, ToSocketAddrs};
use std::process::{Child, Command, Stdio};
use std::rc::Rc;
use std::time::{Duration, Instant};

use rules::Variant;
use tokio::sync::{Semaphore, watch};

use crate::http::Http;
use crate::play::{Plan, Run};
use crate::stats::Results;

const USAGE: &str = "usage: loadtest URL --rooms N --think-ms MAX [--watched-every K] [--spectators S] \
[--seconds T] [--processes P] [--server-pid PID] [--refetch] [--http-moves] [--store NAME] [--variant VARIANT]";

/// How many rooms one process sets up at once.
const SETUP_CONCURRENCY: usize = 16;

#[derive(Clone, Debug)]
struct Options {
    url: String,
    rooms: usize,
    think_ms: u64,
    watched_every: usize,
    spectators: usize,
    seconds: u64,
    processes: usize,
    server_pid: Option<String>,
    refetch: bool,
    http_moves: bool,
    store: String,
    variant: Variant,
    /// In a child: its number (its rooms are those `i` with `i % processes == child`).
    child: Option<usize>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        url: String::new(),
        rooms: 100,
        think_ms: 16_000,
        watched_every: 10,
        spectators: 10,
        seconds: 60,
        processes: 1,
        server_pid: None,
        refetch: false,
        http_moves: false,
        store: "?".to_owned(),
        variant: Variant::Shogi,
        child: None,
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        fn number<T: std::str::FromStr>(name: &str, text: String) -> Result<T, String> {
            text.parse()
                .map_err(|_| format!("{name}: not a number: {text}"))
        }
        match arg.as_str() {
            "--rooms" => options.rooms = number(&arg, value(&arg)?)?,
            "--think-ms" => options.think_ms = number(&arg, value(&arg)?)?,
            "--watched-every" => options.watched_every = number(&arg, value(&arg)?)?,
            "--spectators" => options.spectators = number(&arg, value(&arg)?)?,
            "--seconds" => options.seconds = number(&arg, value(&arg)?)?,
            "--processes" => options.processes = number(&arg, value(&arg)?)?,
            "--server-pid" => options.server_pid = Some(value(&arg)?),
            "--refetch" => options.refetch = true,
            "--http-moves" => options.http_moves = true,
            "--store" => options.store = value(&arg)?,
            "--variant" => {
                let name = value(&arg)?;
                options.variant = name
                    .parse()
                    .map_err(|_| format!("--variant: no such game: {name}"))?;
            }
            "--child" => options.child = Some(number(&arg, value(&arg)?)?),
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            _ if options.url.is_empty() => options.url = arg,
            _ => return Err(format!("unexpected argument {arg}")),
        }
    }
    if options.url.is_empty() {
        return Err("the server's URL is missing".to_owned());
    }
    if options.processes == 0 || options.watched_every == 0 {
        return Err("--processes and --watched-every must be at least 1".to_owned());
    }
    Ok(options)
}

impl Options {
    /// The arguments that make a child process of this run.
    fn child_args(&self, child: usize) -> Vec<String> {
        let mut args = vec![
            self.url.clone(),
            "--rooms".to_owned(),
            self.rooms.to_string(),
            "--think-ms".to_owned(),
            self.think_ms.to_string(),
            "--watched-every".to_owned(),
            self.watched_every.to_string(),
            "--spectators".to_owned(),
            self.spectators.to_string(),
            "--seconds".to_owned(),
            self.seconds.to_string(),
            "--processes".to_owned(),
            self.processes.to_string(),
            "--variant".to_owned(),
            self.variant.name().to_owned(),
            "--child".to_owned(),
            child.to_string(),
        ];
        if self.refetch {
            args.push("--refetch".to_owned());
        }
        if self.http_moves {
            args.push("--http-moves".to_owned());
        }
        args
    }

    /// The server's addresses from `http://HOST:PORT[,http://HOST:PORT...]`
    /// (a cluster's nodes).
    fn addrs(&self) -> Result<Vec<SocketAddr>, String> {
        self.url
            .split(',')
            .map(|url| {
                let rest = url
                    .strip_prefix("http://")
                    .ok_or_else(|| format!("not an http:// URL: {url}"))?;
                let host = rest.trim_end_matches('/');
                host.to_socket_addrs()
                    .ok()
                    .and_then(|mut addrs| addrs.next())
                    .ok_or_else(|| format!("cannot resolve {host}"))
            })
            .collect()
    }

    fn watched_rooms(&self) -> usize {
        self.rooms.div_ceil(self.watched_every)
    }
}

fn main() {
    let options = match parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(err) => {
            eprintln!("loadtest: {err}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let addrs = match options.addrs() {
        Ok(addrs) => addrs,
        Err(err) => {
            eprintln!("loadtest: {err}");
            std::process::exit(2);
        }
    };
    match options.child {
        Some(child) => run_child(&options, &addrs, child),
        None => run_parent(&options),
    }
}

/// Starts the children, lets them play together, merges their results and
/// prints the table row.
fn run_parent(options: &Options) {
    let exe = std::env::current_exe().expect("the program's own path");
    let mut children: Vec<Child> = (0..options.processes)
        .map(|child| {
            Command::new(&exe)
                .args(options.child_args(child))
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("a child process")
        })
        .collect();
    let mut outputs: Vec<_> = children
        .iter_mut()
        .map(|child| BufReader::new(child.stdout.take().expect("piped")))
        .collect();
    let setup = Instant::now();
    for output in &mut outputs {
        if read_line(output).as_deref() != Some("ready") {
            eprintln!("loadtest: a child process failed during the setup");
            std::process::exit(1);
        }
    }
    eprintln!(
        "loadtest: {} rooms set up in {:.1} s",
        options.rooms,
        setup.elapsed().as_secs_f64()
    );
    let pids: Vec<&str> = options
        .server_pid
        .as_deref()
        .map_or_else(Vec::new, |pids| pids.split(',').collect());
    let cpu_before = sum(&pids, stats::cpu_seconds);
    for child in &mut children {
        let stdin = child.stdin.as_mut().expect("piped");
        let _ = stdin.write_all(b"go\n").and_then(|()| stdin.flush());
    }
    std::thread::sleep(Duration::from_secs(options.seconds));
    let cpu_after = sum(&pids, stats::cpu_seconds);
    let mut results = Results::default();
    for output in &mut outputs {
        match read_line(output).map(|line| serde_json::from_str::<Results>(&line)) {
            Some(Ok(child)) => results.merge(child),
            _ => {
                eprintln!("loadtest: a child process gave no results");
                std::process::exit(1);
            }
        }
    }
    for mut child in children {
        let _ = child.wait();
    }
    let rss = sum(&pids, stats::peak_rss);
    print_row(options, &mut results, cpu_before.zip(cpu_after), rss);
}

/// `read` summed over the server's processes (a cluster's nodes), if every
/// one could be read.
fn sum<T: std::iter::Sum>(pids: &[&str], read: impl Fn(&str) -> Option<T>) -> Option<T> {
    if pids.is_empty() {
        return None;
    }
    pids.iter().map(|pid| read(pid)).sum()
}

fn read_line(output: &mut impl BufRead) -> Option<String> {
    let mut line = String::new();
    output.read_line(&mut line).ok()?;
    (!line.is_empty()).then(|| line.trim_end().to_owned())
}

fn print_row(options: &Options, results: &mut Results, cpu: Option<(f64, f64)>, rss: Option<u64>) {
    let moves_per_second = results.acked as f64 / options.seconds as f64;
    let cpu_per_move = match cpu {
        Some((before, after)) if results.acked > 0 => {
            // Microseconds: the target, 0.1 ms, is near, and runs differ by less than 10 µs.
            format!("{:.3} ms", (after - before) * 1e3 / results.acked as f64)
        }
        _ => "–".to_owned(),
    };
    let rss = rss.map_or("–".to_owned(), |bytes| {
        format!("{} MB", bytes / 1_000_000)
    });
    eprintln!(
        "loadtest: {} moves, {} errors, {} computer moves, {} games ended, {} connections opened while playing (ack of their moves {} ms), client CPU {:.2} ms a move",
        results.acked,
        results.errors,
        results.computer_moves,
        results.ended,
        results.connects,
        stats::summary(&mut results.ack_new_connection),
        results.client_cpu * 1e3 / results.acked.max(1) as f64,
    );
    eprintln!(
        "| store | players | rooms | spectators | think | moves by | refetch | moves/s | acknowledgement p50 / p99 / max (ms) | delivery to the opponent | delivery to spectators | server CPU per move | peak RSS | moves lost |"
    );
    eprintln!("|---|---:|---:|---:|---|---|---|---:|---|---|---|---:|---:|---:|");
    println!(
        "| {} | {} | {} | {} | 0–{} s | {} | {} | {:.0} | {} | {} | {} | {} | {} | {} |",
        options.store,
        options.rooms * 2,
        options.rooms,
        options.watched_rooms() * options.spectators,
        options.think_ms as f64 / 1e3,
        if options.http_moves { "POST" } else { "socket" },
        if options.refetch { "yes" } else { "no" },
        moves_per_second,
        stats::summary(&mut results.ack),
        stats::summary(&mut results.opponent),
        stats::summary(&mut results.spectators),
        cpu_per_move,
        rss,
        results.lost,
    );
}

/// One child: its share of the rooms on one thread.
fn run_child(options: &Options, addrs: &[SocketAddr], child: usize) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let local = tokio::task::LocalSet::new();
    local.block_on(&runtime, async {
        let (go_sender, go) = watch::channel(false);
        let plan = Plan {
            addrs: addrs.to_vec(),
            variant: options.variant,
            think_ms: options.think_ms,
            refetch: options.refetch,
            http_moves: options.http_moves,
        };
        let run = Rc::new(Run::new(plan, go));
        let setup = Rc::new(Semaphore::new(SETUP_CONCURRENCY));
        let openings: Vec<_> = (child..options.rooms)
            .step_by(options.processes)
            .map(|index| {
                let spectators = if index % options.watched_every == 0 {
                    options.spectators
                } else {
                    0
                };
                let (run, setup) = (run.clone(), setup.clone());
                tokio::task::spawn_local(async move {
                    play::open_room(&run, index, spectators, &setup).await
                })
            })
            .collect();
        let mut rooms = Vec::new();
        for opening in openings {
            if let Ok(Some(room)) = opening.await {
                rooms.push(room);
            }
        }
        println!("ready");
        let (line_sender, line) = tokio::sync::oneshot::channel();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::stdin().read_line(&mut text);
            let _ = line_sender.send(());
        });
        let _ = line.await;
        let cpu_before = stats::cpu_seconds("self").unwrap_or_default();
        let _ = go_sender.send(true);
        tokio::time::sleep(Duration::from_secs(options.seconds)).await;
        run.stop.set(true);
        // Let the moves in flight be answered and delivered.
        let drain = tokio::time::Instant::now() + Duration::from_secs(30);
        while run.in_flight.get() > 0 && tokio::time::Instant::now() < drain {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        let client_cpu = stats::cpu_seconds("self").unwrap_or_default() - cpu_before;
        let mut http = Http::new(addrs[0]);
        let mut lost = 0;
        for room in &rooms {
            lost += play::lost_moves(&run, &mut http, room).await;
        }
        for room in &rooms {
            play::resign(&run, &mut http, room).await;
        }
        let mut results = run.results.take();
        results.lost = lost;
        results.client_cpu = client_cpu;
        println!(
            "{}",
            serde_json::to_string(&results).expect("results as JSON")
        );
    });
}
