//! The browser tests: the real `koma serve` on loopback, headless Chromium
//! driven by the Playwright tests in `e2e/` (every `*.test.mjs` there), and
//! the type check and lint of the web pages' JavaScript. They need Node.js,
//! `npm ci --prefix e2e` and `/usr/bin/chromium`; without them the test is
//! skipped, unless `KOMA_BROWSER_TESTS=required` (as in CI) makes that a
//! failure.

use std::fs::{self, File};
use std::io::Write as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const INSTALL: &str = "install them with `apt-get install -y --no-install-recommends chromium nodejs npm` \
     and `npm ci --prefix e2e` (from the repository root)";

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root exists")
}

/// What the browser tests need that is not there, in words.
fn missing(root: &Path) -> Vec<String> {
    let mut missing = Vec::new();
    let node = Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !node.is_ok_and(|status| status.success()) {
        missing.push("node (Node.js 20 or later)".to_owned());
    }
    for package in [
        "playwright-core",
        "typescript",
        "@types/node",
        "eslint",
        "confusing-browser-globals",
    ] {
        if !root.join("e2e/node_modules").join(package).is_dir() {
            missing.push(format!("e2e/node_modules/{package}"));
        }
    }
    if !Path::new(CHROMIUM).exists() {
        missing.push(CHROMIUM.to_owned());
    }
    missing
}

/// The `koma serve` process, killed when dropped.
struct Server {
    child: Child,
    url: String,
    log: PathBuf,
}

impl Server {
    /// Starts `koma serve` on a free loopback port with a fresh data directory
    /// and waits until `/healthz` answers.
    fn start(dir: &Path) -> Server {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free loopback port")
            .port();
        let log = dir.join("koma.log");
        let out = File::create(&log).expect("the server log is writable");
        let err = out.try_clone().expect("the server log is writable");
        let child = Command::new(env!("CARGO_BIN_EXE_koma"))
            .arg("serve")
            .arg("--bind")
            .arg(format!("127.0.0.1:{port}"))
            .arg("--data-dir")
            .arg(dir.join("data"))
            .args(["--log", "warn"])
            .stdout(out)
            .stderr(err)
            .spawn()
            .expect("koma serve starts");
        let server = Server {
            child,
            url: format!("http://127.0.0.1:{port}"),
            log,
        };
        let started = Instant::now();
        while !healthy(port) {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "koma serve did not answer /healthz within 30 s:\n{}",
                server.log_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    fn log_text(&self) -> String {
        fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether the server on `port` answers `GET /healthz` with 200.
fn healthy(port: u16) -> bool {
    use std::io::Read;
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let request = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    let mut response = String::new();
    stream.write_all(request.as_bytes()).is_ok()
        && stream.read_to_string(&mut response).is_ok()
        && response.starts_with("HTTP/1.1 200")
}

/// Every `*.test.mjs` file under `dir`, outside `node_modules`.
fn test_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("e2e/ is readable") {
        let path = entry.expect("e2e/ is readable").path();
        if path.is_dir() {
            if !path.ends_with("node_modules") {
                test_files(&path, found);
            }
        } else if path.to_string_lossy().ends_with(".test.mjs") {
            found.push(path);
        }
    }
}

/// Runs `command` and returns whether it succeeded, after printing its
/// output (shown by `cargo test` when the test fails, or with `--nocapture`).
fn run(command: &mut Command) -> bool {
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().expect("the command starts");
    println!(
        "{}{}",
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr)
    );
    status.success()
}

#[test]
fn the_web_pages_work_in_chromium_and_their_javascript_type_checks_and_lints() {
    let root = root();
    let missing = missing(&root);
    if !missing.is_empty() {
        let required = std::env::var("KOMA_BROWSER_TESTS").is_ok_and(|v| v == "required");
        let list = missing.join(", ");
        assert!(
            !required,
            "KOMA_BROWSER_TESTS=required but the browser tests lack {list}: {INSTALL}"
        );
        // Straight to standard error: `cargo test` would hide a println.
        let _ = writeln!(
            std::io::stderr(),
            "browser tests skipped: they lack {list}; {INSTALL}"
        );
        return;
    }
    let e2e = root.join("e2e");

    let typed = run(Command::new("node")
        .arg(e2e.join("node_modules/typescript/bin/tsc"))
        .arg("-p")
        .arg(e2e.join("tsconfig.json")));
    // From the root: ESLint lints only files below its working directory.
    let linted = run(Command::new("node")
        .arg(e2e.join("node_modules/eslint/bin/eslint.js"))
        .args(["--config", "e2e/eslint.config.js", "web/js"])
        .current_dir(&root));

    let dir = tempfile::Builder::new()
        .prefix("koma-browser-")
        .tempdir()
        .expect("the temporary directory is writable");
    let server = Server::start(dir.path());
    let mut tests = Vec::new();
    test_files(&e2e, &mut tests);
    tests.sort();
    let passed = run(Command::new("node")
        .args(["--test", "--test-concurrency=1", "--test-reporter=spec"])
        .args(&tests)
        .current_dir(&e2e)
        .env("KOMA_URL", &server.url)
        // For the tests that stop and start a server of their own.
        .env("KOMA_BIN", env!("CARGO_BIN_EXE_koma"))
        .env("KOMA_SCREENSHOTS", root.join("target/e2e-screenshots")));
    let log = server.log_text();
    drop(server);

    assert!(
        passed,
        "the browser tests failed (their output is above); the server's log:\n{log}"
    );
    assert!(
        typed,
        "tsc found type errors in web/js or e2e (its output is above)"
    );
    assert!(
        linted,
        "ESLint found a confusing global in web/js (its output is above)"
    );
}
