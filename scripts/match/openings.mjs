#!/usr/bin/env node
// Writes a book of balanced openings for `match.mjs --openings`. Usage:
//   node openings.mjs --koma PATH --variant V --engine "CMD ARGS" [--ranks-from-1] \
//     [--option NAME=VALUE ...] [--plies 4] [--count 300] [--depth 12] [--margin 100] [--seed 1]
//     [--from BOOK] [--exclude BOOK ...]
// Plays --plies random legal moves from the start (by --seed), or takes
// BOOK's openings in order (to keep those a deeper search still finds
// balanced), drops an opening whose game is over or whose position an
// earlier opening already reached (board, hands, side to move, by `koma
// usi`/`koma uci`'s `d`), and has the engine search the position to --depth:
// an opening is kept when the engine's score at that depth and at the depth
// before is within ±--margin centipawns, both not a mate (two depths, since
// a shallow search of a drop game swings between the side to move's view and
// its opponent's from one depth to the next). Writes a comment line with the
// command, then each kept opening on a line, its moves in USI (ICCS for
// xiangqi) separated by spaces, until --count are kept or BOOK runs out;
// prints each tried opening's scores on standard error. --exclude BOOK
// counts BOOK's positions as already reached, so that a new book extends an
// old one without repeating its positions.
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";

import { readBook } from "./book.mjs";
import { Engine } from "./engine.mjs";

const { values: opt } = parseArgs({
  options: {
    koma: { type: "string", default: "koma" },
    variant: { type: "string", default: "minishogi" },
    engine: { type: "string" },
    "ranks-from-1": { type: "boolean", default: false },
    option: { type: "string", multiple: true, default: [] },
    plies: { type: "string", default: "4" },
    count: { type: "string", default: "300" },
    depth: { type: "string", default: "12" },
    margin: { type: "string", default: "100" },
    seed: { type: "string", default: "1" },
    from: { type: "string" },
    exclude: { type: "string", multiple: true, default: [] },
  },
});
if (!opt.engine) throw new Error("--engine names the engine that scores the openings");
const xiangqi = opt.variant === "xiangqi";

// match.mjs's generator computed exactly (see its comment for the skew),
// the high bits picking the move: a book can take more tries than its
// cycle holds, and the low bits of a power-of-two generator repeat soon.
let seed = Number(opt.seed) >>> 0;
function random(n) {
  seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
  return (seed >>> 16) % n;
}

/** The legal moves after `moves`: none once the game is over. */
function legal(moves) {
  const out = execFileSync(opt.koma, ["moves", "--variant", opt.variant, "--moves", moves.join(" ")]);
  return out.toString().split("\n").filter(Boolean);
}

// Killed or interrupted, exit properly so that the engines are killed too.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => process.exit(1));

const scorer = new Engine(opt.engine, {
  variant: opt.variant,
  ranksFrom1: opt["ranks-from-1"],
  go: `depth ${opt.depth}`,
  options: opt.option,
});
// Koma names each position by its SFEN (FEN) without the move number.
const referee = new Engine(`${opt.koma} ${xiangqi ? "uci" : "usi"}`, { variant: opt.variant });
await scorer.start();
await referee.start();
async function positionKey(moves) {
  referee.proc.kill("SIGCONT");
  referee.send(`position startpos moves ${moves.join(" ")}`);
  referee.send("d");
  const line = await referee.until((l) => l.startsWith("info string "));
  referee.proc.kill("SIGSTOP");
  const fields = line.slice("info string ".length).split(" ");
  return fields.slice(0, xiangqi ? 2 : 3).join(" ");
}

const depth = Number(opt.depth);
const margin = Number(opt.margin);
const seen = new Set();
for (const book of opt.exclude) {
  for (const moves of readBook(book)) seen.add(await positionKey(moves));
}
let kept = 0;
let tried = 0;
console.log(`# node openings.mjs ${process.argv.slice(2).join(" ")}`);
/** The openings of --from BOOK; none without it. */
const from = opt.from ? readBook(opt.from) : undefined;

/** The next opening to score: --plies random legal plies, or BOOK's next; none once BOOK is used up. */
function candidate() {
  if (from) return from.shift();
  const moves = [];
  for (let i = 0; i < Number(opt.plies) && moves.length === i; i++) {
    const choices = legal(moves);
    if (choices.length > 0) moves.push(choices[random(choices.length)]);
  }
  return moves.length < Number(opt.plies) ? [] : moves;
}

while (kept < Number(opt.count)) {
  const moves = candidate();
  if (!moves) break;
  if (moves.length === 0 || legal(moves).length === 0) continue;
  const key = await positionKey(moves);
  if (seen.has(key)) continue;
  seen.add(key);
  tried += 1;
  await scorer.newGame();
  await scorer.bestmove(moves);
  const last = [scorer.scores[depth - 1], scorer.scores[depth]];
  const balanced = last.every((s) => s && s.kind === "cp" && Math.abs(s.value) <= margin);
  const shown = last.map((s) => (s ? `${s.kind} ${s.value}` : "none")).join(", ");
  console.error(`${balanced ? "kept" : "dropped"} ${moves.join(" ")}: ${shown}`);
  if (balanced) {
    kept += 1;
    console.log(moves.join(" "));
  }
}
console.error(`kept ${kept} of ${tried} openings`);
scorer.quit();
referee.quit();
process.exit(0);
