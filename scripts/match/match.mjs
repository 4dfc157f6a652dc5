#!/usr/bin/env node
// Plays two engines against each other over USI (shogi family) or UCI
// (xiangqi), judging every position with `koma status`. Usage:
//   node match.mjs --koma PATH --variant V --games N --movetime MS \
//     --a "CMD ARGS" --b "CMD ARGS" [--a-ranks-from-1] [--b-ranks-from-1] [--plies 300] \
//     [--seed N] [--opening 2 | --openings FILE] [--log FILE] [--go "depth 8"] \
//     [--a-go ...] [--b-go ...] [--a-option NAME=VALUE ...] [--b-option NAME=VALUE ...]
// Engine A plays first in odd games, second in even ones; each pair of games
// starts from the same random opening of --opening plies (default 2), or
// with --openings from the book FILE's next line (openings.mjs writes such
// books; --seed N starts at its Nth opening, and the book wraps round).
// Before the last two lines, how the pairs went: won both by one engine, or
// both by the same colour (a pair that tells nothing about the engines). The
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
import { execFileSync } from "node:child_process";
import { appendFileSync } from "node:fs";
import { parseArgs } from "node:util";

import { readBook } from "./book.mjs";
import { Engine } from "./engine.mjs";

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
    openings: { type: "string" },
    seed: { type: "string", default: "1" },
    log: { type: "string" },
    go: { type: "string" },
    "a-go": { type: "string" },
    "b-go": { type: "string" },
    "a-option": { type: "string", multiple: true, default: [] },
    "b-option": { type: "string", multiple: true, default: [] },
  },
});

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

/** The book of --openings FILE. */
const book = opt.openings ? readBook(opt.openings) : undefined;
if (book?.length === 0) throw new Error(`${opt.openings} holds no opening`);
let seed = Number(opt.seed);
/** The book's line the next pair of games starts from: --seed N starts at the Nth. */
let next = book ? (((seed - 1) % book.length) + book.length) % book.length : 0;
// Skewed: the product passes 2^53 and loses its low bits, so after the
// first draw the state is nearly always even (a move is drawn from the even
// places of the legal-move list) and every seed falls into a cycle of about
// 10,000 draws. openings.mjs computes the same generator exactly; this one
// stays as it is, since docs/strength.md's rows name their openings by
// these --seed series.
function random(n) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
}
/** The next pair's opening: the book's next line, or --opening random plies. */
function opening() {
  if (book) {
    const moves = book[next];
    next = (next + 1) % book.length;
    return moves;
  }
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

const engine = (side) =>
  new Engine(opt[side], {
    variant: opt.variant,
    ranksFrom1: opt[`${side}-ranks-from-1`],
    go: opt[`${side}-go`] ?? opt.go ?? `movetime ${opt.movetime}`,
    options: opt[`${side}-option`],
  });
const a = engine("a");
const b = engine("b");
await a.start();
await b.start();
const score = { a: 0, b: 0, draw: 0 };
// How each pair of games went: one engine won both, the same colour won
// both (each engine won once), or a game was drawn.
const pairs = { a: 0, b: 0, first: 0, second: 0, drawn: 0 };
let pairFirst;
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
  if (game % 2 === 1) pairFirst = verdict.winner;
  else if (pairFirst === "draw" || verdict.winner === "draw") pairs.drawn += 1;
  else if (pairFirst === verdict.winner) pairs[verdict.winner] += 1;
  // A first in the pair's first game: the winners differ when a colour won both.
  else pairs[pairFirst === "a" ? "first" : "second"] += 1;
  console.log(
    `game ${game}: A plays ${first === a ? "first" : "second"}, ${verdict.winner === "draw" ? "draw" : verdict.winner.toUpperCase() + " wins"} (${verdict.reason}) after ${moves.length} plies; A ${score.a} B ${score.b} draws ${score.draw}`,
  );
}
console.log(
  `pairs: A won both ${pairs.a}, B won both ${pairs.b}, the first player won both ${pairs.first}, ` +
    `the second player won both ${pairs.second}, with a draw ${pairs.drawn}`,
);
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
