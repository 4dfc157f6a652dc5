//! `koma serve` (also `koma` alone): the game server with its settings, from
//! flags or `KOMA_*` environment variables.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::Parser;

/// The server's settings.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// The address and port to listen on.
    #[arg(long, env = "KOMA_BIND", default_value = "127.0.0.1:8080")]
    bind: SocketAddr,
    /// The directory for the SQLite database (`koma.sqlite`), created if missing.
    #[arg(long, env = "KOMA_DATA_DIR", default_value = "./koma-data")]
    data_dir: PathBuf,
    /// A database URL instead: `sqlite://PATH` or `postgres://USER:PASSWORD@HOST/DB`.
    /// Prefer the environment variable (or `--database-url-file`): a flag's
    /// value, password included, is visible to every user in `ps`.
    #[arg(long, env = "KOMA_DATABASE_URL", conflicts_with = "database_url_file")]
    database_url: Option<DatabaseUrl>,
    /// A file holding the database URL (its first line), for secrets managers.
    #[arg(long, env = "KOMA_DATABASE_URL_FILE")]
    database_url_file: Option<PathBuf>,
    /// Seconds a seated player may be disconnected before the computer plays for them.
    #[arg(long, env = "KOMA_GRACE_PERIOD", default_value_t = 20)]
    grace_period: u64,
    /// The computer's level (1-8) when it plays for an away player.
    #[arg(long, env = "KOMA_TAKEOVER_LEVEL", default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=8))]
    takeover_level: u8,
    /// The longest the computer thinks about one move, in milliseconds (its
    /// level may stop it sooner).
    #[arg(long, env = "KOMA_COMPUTER_MOVE_MS", default_value_t = 1000)]
    computer_move_ms: u64,
    /// How many computer searches run at once, each with one engine and its
    /// table; the others wait their turn (default: the number of cores).
    #[arg(long, env = "KOMA_ENGINE_THREADS", value_parser = clap::value_parser!(u16).range(1..))]
    engine_threads: Option<u16>,
    /// The site's public address for invitation links (default: the request's Host).
    #[arg(long, env = "KOMA_PUBLIC_URL")]
    public_url: Option<String>,
    /// With a PostgreSQL database shared by several nodes: the address at
    /// which the other nodes reach this one (`http://HOST:PORT`), to pass it
    /// the requests for the rooms it plays.
    #[arg(long, env = "KOMA_NODE_URL", value_parser = parse_node_url)]
    node_url: Option<String>,
    /// The largest request body or WebSocket message, in bytes.
    #[arg(long, env = "KOMA_MAX_MESSAGE_BYTES", default_value_t = 16 * 1024)]
    max_message_bytes: usize,
    /// How many rooms one IP address may create per hour.
    #[arg(long, env = "KOMA_ROOMS_PER_HOUR", default_value_t = 100)]
    rooms_per_hour: u32,
    /// Seconds a game waits with both players away before it ends as
    /// abandoned (unrated, outside the statistics).
    #[arg(long, env = "KOMA_ABANDON_AFTER", default_value_t = 600)]
    abandon_after: u64,
    /// Seconds a room nobody watches and nothing waits in (finished, or with
    /// no clock running and no computer to move) stays in memory; it loads
    /// again from the database when asked for.
    #[arg(long, env = "KOMA_IDLE_ROOM_TIMEOUT", default_value_t = 600)]
    idle_room_timeout: u64,
    /// Seconds a room waits for its second player before it closes.
    #[arg(long, env = "KOMA_WAITING_ROOM_TTL", default_value_t = 3600)]
    waiting_room_ttl: u64,
    /// How many messages one WebSocket, or all the WebSockets of one seat
    /// token, may send per second.
    #[arg(long, env = "KOMA_MESSAGES_PER_SECOND", default_value_t = 20)]
    messages_per_second: u32,
    /// How many messages all the WebSockets of one IP address may send per second.
    #[arg(long, env = "KOMA_MESSAGES_PER_SECOND_PER_IP", default_value_t = 100)]
    messages_per_second_per_ip: u32,
    /// How many connections (WebSockets included) one IP address may hold open.
    #[arg(long, env = "KOMA_MAX_CONNECTIONS_PER_IP", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..))]
    max_connections_per_ip: u32,
    /// What to log: a level (`error`, `warn`, `info`, `debug`) or a tracing
    /// filter such as `server=debug,info`.
    #[arg(long, env = "KOMA_LOG", default_value = "info")]
    log: String,
}

/// A node URL: `http://HOST:PORT`, what the other nodes connect to.
fn parse_node_url(text: &str) -> Result<String, String> {
    let authority = text
        .strip_prefix("http://")
        .ok_or_else(|| format!("'{text}' is not http://HOST:PORT"))?
        .trim_end_matches('/');
    match authority.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() && port.parse::<u16>().is_ok() => {
            Ok(format!("http://{authority}"))
        }
        _ => Err(format!("'{text}' is not http://HOST:PORT")),
    }
}

/// A database URL, never printed (it may hold a password).
#[derive(Clone)]
pub(crate) struct DatabaseUrl(String);

impl FromStr for DatabaseUrl {
    type Err = String;

    fn from_str(text: &str) -> Result<DatabaseUrl, String> {
        Ok(DatabaseUrl(text.to_owned()))
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = self.0.split_once(':').map_or("?", |(scheme, _)| scheme);
        write!(f, "{scheme}://[redacted]")
    }
}

/// `koma` alone: the serve settings from the environment and defaults.
#[derive(Debug, Parser)]
#[command(name = "koma serve")]
struct ServeOnly {
    #[command(flatten)]
    args: ServeArgs,
}

impl ServeArgs {
    /// The settings when no subcommand is given.
    pub(crate) fn from_env() -> ServeArgs {
        ServeOnly::parse_from(["koma"]).args
    }
}

/// Runs the server until Ctrl-C or SIGTERM.
///
/// # Errors
/// The log filter, data directory, database or listener cannot be set up.
pub(crate) fn run(args: ServeArgs) -> anyhow::Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_new(&args.log)
        .with_context(|| format!("bad --log filter '{}'", args.log))?;
    tracing_subscriber::fmt().with_env_filter(filter).init();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?
        .block_on(serve(args))
}

async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let url = match (&args.database_url, &args.database_url_file) {
        (Some(url), _) => url.0.clone(),
        (None, Some(file)) => read_database_url(file)?,
        (None, None) => {
            std::fs::create_dir_all(&args.data_dir).with_context(|| {
                format!("cannot create data directory {}", args.data_dir.display())
            })?;
            format!("sqlite://{}", args.data_dir.join("koma.sqlite").display())
        }
    };
    let store = store::open(&url)
        .await
        .context("cannot open the database")?;
    let defaults = server::Config::default();
    let config = server::Config {
        grace_period: Duration::from_secs(args.grace_period),
        takeover_level: args.takeover_level,
        max_message_bytes: args.max_message_bytes,
        rooms_per_device_per_hour: args.rooms_per_hour,
        messages_per_second: args.messages_per_second,
        messages_per_second_per_ip: args.messages_per_second_per_ip,
        max_connections_per_ip: args.max_connections_per_ip as usize,
        abandon_after: Duration::from_secs(args.abandon_after),
        idle_room_timeout: Duration::from_secs(args.idle_room_timeout),
        waiting_room_ttl: Duration::from_secs(args.waiting_room_ttl),
        public_url: args.public_url.clone(),
        node_url: args.node_url.clone(),
        engine_threads: args
            .engine_threads
            .map_or(defaults.engine_threads, usize::from),
        ..defaults
    };
    let computer = server::EnginePlayer::new(Duration::from_millis(args.computer_move_ms));
    let state = server::AppState::start(store, Arc::new(computer), config)
        .await
        .context("cannot recover rooms")?;
    let listener =
        server::listen(args.bind).with_context(|| format!("cannot listen on {}", args.bind))?;
    tracing::info!(address = %listener.local_addr()?, "koma serves");
    server::serve(listener, state, shutdown_signal())
        .await
        .context("server failed")
}

/// The database URL in the first line of `file`.
fn read_database_url(file: &std::path::Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read --database-url-file {}", file.display()))?;
    let url = text.lines().next().unwrap_or("").trim();
    anyhow::ensure!(
        !url.is_empty(),
        "--database-url-file {} is empty",
        file.display()
    );
    Ok(url.to_owned())
}

/// Completes on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
