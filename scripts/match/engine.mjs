// One USI (shogi family) or UCI (xiangqi) engine process spoken to line by
// line, for match.mjs and openings.mjs.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

export class Engine {
  /**
   * `command` is the engine with its arguments ("koma usi"); `variant` is set
   * as `UCI_Variant`; `ranksFrom1`: the engine writes xiangqi ranks 1-10
   * (Fairy-Stockfish), not ICCS's 0-9; `go` is what follows `go` (`movetime
   * 300`, `nodes 20000`); `options` are `NAME=VALUE` strings set before
   * `isready`.
   */
  constructor(command, { variant, ranksFrom1 = false, go, options = [] }) {
    const [cmd, ...args] = command.split(" ");
    this.variant = variant;
    this.xiangqi = variant === "xiangqi";
    this.go = go;
    // A session of its own: a stopped engine in the caller's process group
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
    // Each completed depth's score of the current search (bounds left out).
    this.scores = [];
    createInterface({ input: this.proc.stdout }).on("line", (line) => {
      const info = line.match(/^info .*\bdepth (\d+).*\bscore (cp|mate) (-?\d+)/);
      const nodes = line.match(/^info .*\bnodes (\d+)/);
      if (info) {
        this.last = `depth ${info[1]} ${info[2]} ${info[3]}${nodes ? ` nodes ${nodes[1]}` : ""}`;
        this.lastDepth = Number(info[1]);
        this.lastNodes = nodes ? Number(nodes[1]) : undefined;
        if (!/\b(lowerbound|upperbound)\b/.test(line)) {
          this.scores[this.lastDepth] = { kind: info[2], value: Number(info[3]) };
        }
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
    this.send(this.xiangqi ? "uci" : "usi");
    await this.until((l) => l === "uciok" || l === "usiok");
    this.send(`setoption name UCI_Variant value ${this.variant}`);
    for (const [name, value] of this.options) this.send(`setoption name ${name} value ${value}`);
    this.send("isready");
    await this.until((l) => l === "readyok");
    this.proc.kill("SIGSTOP");
  }
  /** Tells the engine a new game begins, and waits until it is ready. */
  async newGame() {
    this.proc.kill("SIGCONT");
    this.send(this.xiangqi ? "ucinewgame" : "usinewgame");
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
  /** Searches the position after `moves` (ICCS for xiangqi) and returns the move chosen. */
  async bestmove(moves) {
    const list = moves.map((m) => this.toEngine(m)).join(" ");
    this.proc.kill("SIGCONT");
    this.send(`position startpos${list ? " moves " + list : ""}`);
    this.last = "";
    this.lastDepth = this.lastNodes = undefined;
    this.scores = [];
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
