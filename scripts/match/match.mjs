#!/usr/bin/env node
// Plays two engines against each other over USI (shogi family) or UCI
// (xiangqi), judging every position with `koma status`. Usage:
//   node match.mjs --koma PATH --variant V --games N --movetime MS \
//     --a "CMD ARGS" --b "CMD ARGS" [--a-ranks-from-1] [--b-ranks-from-1] [--plies 300] \
//     [--seed N] [--log FILE] [--go "depth 8"] [--a-go ...] [--b-go ...] \
//     [--a-option NAME=VALUE ...] [--b-option NAME=VALUE ...]
// Engine A plays first in odd games, second in even ones; each pair of games
// starts from the same random opening of --opening plies (default 2). The
// line before the last gives each engine's median depth and nodes a move
// (from its last `info` line before each `bestmove`) and median and longest
// time a move (from `go` to `bestmove`); the last line gives
// A's score with its ±2σ interval and the Elo difference.
// --log appends a line per move: game, ply, engine, move, the depth, score
// and nodes of the engine's last `info` line, and the milliseconds from `go`
// to `bestmove` as this script saw them; the opening's moves come first,
// with `-` for the engine, so that any position can be set up again.
// --go replaces `movetime MS` in each `go` command (e.g. `depth 8` or
// `nodes 100000`), for both engines; --a-go and --b-go for one engine only.
// --a-option and --b-option (repeatable) set a USI/UCI option of one engine
// (e.g. YaneuraOu's `Threads=1`) after the variant, before `isready`. Each
// game starts with `usinewgame` (`ucinewgame`).
// Each engine is stopped (SIGSTOP) while the other thinks: an engine that
// keeps busy between moves (Fairy-Stockfish's WebAssembly threads spin,
// about half a core) would otherwise take time from its opponent.
import { spawn, execFileSync } from "node:child_process";
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";

const { values: opt } = parseArgs({
  options: {
    koma: { type: "string", default: "koma" },
    variant: { type: "string", default: "shogi" },
    games: { type: "string", default: "2" },
    movetime: { type: "string", default: "1000" },
    a: { type: "string" },
    b: { type: "string" },
    "a-ranks-from-1": { type: "boolean", default: false },
    "b-ranks-from-1": { type: "boolean", default: false },
    plies: { type: "string", default: "300" },
    opening: { type: "string", default: "2" },
    seed: { type: "string", default: "1" },
    log: { type: "string" },
    go: { type: "string" },
    "a-go": { type: "string" },
    "b-go": { type: "string" },
    "a-option": { type: "string", multiple: true, default: [] },
    "b-option": { type: "string", multiple: true, default: [] },
  },
});
const xiangqi = opt.variant === "xiangqi";

/** One engine process spoken to line by line. */
class Engine {
  constructor(command, ranksFrom1, go, options) {
    const [cmd, ...args] = command.split(" ");
    this.go = go ?? opt.go ?? `movetime ${opt.movetime}`;
    // A session of its own: a stopped engine in the match's process group
    // would be hung up when that group is orphaned (run in the background).
    this.proc = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"], detached: true });
    process.on("exit", () => this.proc.kill("SIGKILL"));
    this.ranksFrom1 = ranksFrom1;
    this.options = options.map((option) => {
      const eq = option.indexOf("=");
      if (eq <= 0) throw new Error(`an option is NAME=VALUE, not "${option}"`);
      return [option.slice(0, eq), option.slice(eq + 1)];
    });
    this.waiters = [];
    // The depth and nodes of each move's last `info` line, and the time
    // from `go` to `bestmove`, for the summary.
    this.depths = [];
    this.nodes = [];
    this.times = [];
    createInterface({ input: this.proc.stdout }).on("line", (line) => {
      const info = line.match(/^info .*\bdepth (\d+).*\bscore (cp|mate) (-?\d+)/);
      const nodes = line.match(/^info .*\bnodes (\d+)/);
      if (info) {
        this.last = `depth ${info[1]} ${info[2]} ${info[3]}${nodes ? ` nodes ${nodes[1]}` : ""}`;
        this.lastDepth = Number(info[1]);
        this.lastNodes = nodes ? Number(nodes[1]) : undefined;
      }
      const waiter = this.waiters[0];
      if (waiter && waiter.test(line)) {
        this.waiters.shift();
        waiter.resolve(line);
      }
    });
  }
  send(line) {
    this.proc.stdin.write(line + "\n");
  }
  until(test) {
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }
  async start() {
    this.send(xiangqi ? "uci" : "usi");
    await this.until((l) => l === "uciok" || l === "usiok");
    this.send(`setoption name UCI_Variant value ${opt.variant}`);
    for (const [name, value] of this.options) this.send(`setoption name ${name} value ${value}`);
    this.send("isready");
    await this.until((l) => l === "readyok");
    this.proc.kill("SIGSTOP");
  }
  /** Tells the engine a new game begins, and waits until it is ready. */
  async newGame() {
    this.proc.kill("SIGCONT");
    this.send(xiangqi ? "ucinewgame" : "usinewgame");
    this.send("isready");
    await this.until((l) => l === "readyok");
    this.proc.kill("SIGSTOP");
  }
  /** ICCS ranks 0-9 to the engine's own (1-10 for Fairy-Stockfish) and back. */
  toEngine(move) {
    return this.ranksFrom1 ? move.replace(/\d/g, (d) => String(Number(d) + 1)) : move;
  }
  fromEngine(move) {
    return this.ranksFrom1 ? move.replace(/\d+/g, (d) => String(Number(d) - 1)) : move;
  }
  async bestmove(moves) {
    const list = moves.map((m) => this.toEngine(m)).join(" ");
    this.proc.kill("SIGCONT");
    this.send(`position startpos${list ? " moves " + list : ""}`);
    this.last = "";
    this.lastDepth = this.lastNodes = undefined;
    const asked = performance.now();
    this.send(`go ${this.go}`);
    const line = await this.until((l) => l.startsWith("bestmove"));
    this.lastTime = Math.round(performance.now() - asked);
    this.proc.kill("SIGSTOP");
    this.times.push(this.lastTime);
    if (this.lastDepth !== undefined) this.depths.push(this.lastDepth);
    if (this.lastNodes !== undefined) this.nodes.push(this.lastNodes);
    return this.fromEngine(line.split(/\s+/)[1]);
  }
  quit() {
    this.proc.kill("SIGCONT");
    this.send("quit");
  }
}

function status(moves) {
  try {
    const out = execFileSync(opt.koma, ["status", "--variant", opt.variant, "--moves", moves.join(" ")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    return JSON.parse(out.toString());
  } catch (error) {
    return { illegal: String(error.stderr).trim() };
  }
}

let seed = Number(opt.seed);
function random(n) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
}
function opening() {
  const moves = [];
  for (let i = 0; i < Number(opt.opening); i++) {
    const legal = execFileSync(opt.koma, ["moves", "--variant", opt.variant, "--moves", moves.join(" ")])
      .toString().trim().split("\n");
    moves.push(legal[random(legal.length)]);
  }
  return moves;
}

// Killed or interrupted, exit properly so that the engines are killed too:
// a stopped engine in a session of its own would otherwise stay behind.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => process.exit(1));

const a = new Engine(opt.a, opt["a-ranks-from-1"], opt["a-go"], opt["a-option"]);
const b = new Engine(opt.b, opt["b-ranks-from-1"], opt["b-go"], opt["b-option"]);
await a.start();
await b.start();
const score = { a: 0, b: 0, draw: 0 };
let line = [];
for (let game = 1; game <= Number(opt.games); game++) {
  if (game % 2 === 1) line = opening();
  const [first, second] = game % 2 === 1 ? [a, b] : [b, a];
  const moves = [...line];
  await a.newGame();
  await b.newGame();
  if (opt.log) line.forEach((move, i) => appendFileSync(opt.log, `${game} ${i + 1} - ${move}\n`));
  let verdict;
  while (!verdict) {
    const mover = moves.length % 2 === 0 ? first : second;
    const move = await mover.bestmove(moves);
    const moverName = mover === a ? "a" : "b";
    const other = moverName === "a" ? "b" : "a";
    if (move === "resign" || move === "(none)") {
      verdict = { winner: other, reason: move };
      break;
    }
    moves.push(move);
    if (opt.log) appendFileSync(opt.log, `${game} ${moves.length} ${moverName.toUpperCase()} ${move} ${mover.last} ms ${mover.lastTime}\n`);
    const s = status(moves);
    if (s.illegal) verdict = { winner: other, reason: `illegal ${move}: ${s.illegal}` };
    else if (s.result === "draw") verdict = { winner: "draw", reason: s.reason };
    else if (s.result) {
      const firstWon = s.result === "first";
      const winnerEngine = firstWon ? first : second;
      verdict = { winner: winnerEngine === a ? "a" : "b", reason: s.reason };
    } else if (moves.length >= Number(opt.plies)) verdict = { winner: "draw", reason: "ply limit" };
  }
  score[verdict.winner] += 1;
  console.log(
    `game ${game}: A plays ${first === a ? "first" : "second"}, ${verdict.winner === "draw" ? "draw" : verdict.winner.toUpperCase() + " wins"} (${verdict.reason}) after ${moves.length} plies; A ${score.a} B ${score.b} draws ${score.draw}`,
  );
}
console.log(`A: ${searched(a)}; B: ${searched(b)}`);
console.log(summary(score));
a.quit();
b.quit();
process.exit(0);

/** How deep, how far and how long an engine searched: medians over its moves. */
function searched(engine) {
  const median = (values) => {
    if (values.length === 0) return undefined;
    const sorted = [...values].sort((x, y) => x - y);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const depth = median(engine.depths);
  const nodes = median(engine.nodes);
  if (depth === undefined) return "no search reported";
  const perMove = nodes === undefined ? "" : `, ${Math.round(nodes).toLocaleString("en-US")} nodes a move`;
  const time = `, ${Math.round(median(engine.times))} ms a move (longest ${Math.max(...engine.times)})`;
  return `median depth ${depth}${perMove}${time}`;
}

/** A's score with its ±2σ interval, and the Elo difference it implies. */
function summary({ a: wins, b: losses, draw: draws }) {
  const games = wins + losses + draws;
  if (games === 0) return "A scores 0/0: no game was played";
  const mean = (wins + draws / 2) / games;
  // The variance of one game's score (1, ½ or 0) about the mean.
  const variance = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / games;
  const margin = 2 * Math.sqrt(variance / games);
  const elo = (p) => {
    if (p <= 0) return "-inf";
    if (p >= 1) return "+inf";
    const d = Math.round(-400 * Math.log10(1 / p - 1));
    return d > 0 ? `+${d}` : `${d}`;
  };
  const percent = (p) => (100 * p).toFixed(1);
  return (
    `A scores ${wins + draws / 2}/${games} (+${wins} =${draws} -${losses}), ` +
    `${percent(mean)}% ± ${percent(margin)}%, Elo ${elo(mean)} (${elo(mean - margin)} to ${elo(mean + margin)})`
  );
}
