// A finished game's analysis, shared by the room page and the replay page:
// the "Analyse" button, progress while the server analyses, the evaluation
// graph (one point per position, a click shows that position), the engine's
// best move and principal variation for the position shown, and the marks
// of the moves that lost the most (docs/web.md gives the thresholds).

import { ApiError, request } from "./api.js";
import { el, svgEl } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import { notationList } from "./moves.js";
import { moveSquares } from "./position.js";

/** @typedef {import("./room/types.js").Score} Score */
/** @typedef {import("./room/types.js").AnalysedPly} AnalysedPly */
/** @typedef {import("./room/types.js").Analysis} Analysis */
/** @typedef {import("./room/types.js").AnalysisStarted} AnalysisStarted */

/** Polling interval while the server analyses. */
const POLL_MS = 400;

/**
 * Centipawns at which the winning chance is about 46% ahead (tanh(1) on a
 * scale from -1 to 1): a piece is worth more in the games with more pieces.
 * @type {Record<string, number>}
 */
export const SCALE = { shogi: 1000, annan: 1000, minishogi: 700, xiangqi: 600 };

/**
 * The drop in the mover's winning chance (on a scale from -1 to 1) from which
 * a move is marked, worst first.
 */
export const THRESHOLDS = /** @type {const} */ ([
  ["blunder", 0.3],
  ["mistake", 0.2],
  ["inaccuracy", 0.1],
]);

/**
 * The first player's winning chance, from -1 (lost) to 1 (won).
 * @param {Score} score
 * @param {string} variant
 * @returns {number}
 */
export function winningChance(score, variant) {
  if ("mate" in score) {
    if (score.mate === 0) return 0;
    return score.mate > 0 ? 1 : -1;
  }
  return Math.tanh(score.cp / (SCALE[variant] ?? 1000));
}

/**
 * A position's winning chance, or the result where the game is over.
 * @param {AnalysedPly} ply
 * @param {string} variant
 * @returns {number}
 */
function chance(ply, variant) {
  if (ply.result === "first") return 1;
  if (ply.result === "second") return -1;
  return winningChance(ply.score, variant);
}

/**
 * The mark of each move: the worst threshold its mover's drop in winning chance reaches, or null.
 * @param {AnalysedPly[]} plies every position analysed so far, from the start
 * @param {string} variant
 * @param {"first" | "second"} firstMover who moves first from the start
 * @returns {(string | null)[]} one per move whose positions before and after are analysed
 */
export function moveMarks(plies, variant, firstMover) {
  /** @type {(string | null)[]} */
  const marks = [];
  for (let i = 1; i < plies.length; i++) {
    const moverIsFirst = (i % 2 === 1) === (firstMover === "first");
    const before = chance(plies[i - 1], variant);
    const after = chance(plies[i], variant);
    const drop = moverIsFirst ? before - after : after - before;
    const mark = THRESHOLDS.find(([, threshold]) => drop >= threshold);
    marks.push(mark ? mark[0] : null);
  }
  return marks;
}

/**
 * "+1.2", "−0.4", "#3", "#−2".
 * @param {AnalysedPly} ply
 * @returns {string}
 */
export function scoreText(ply) {
  if (ply.result) return ply.result === "draw" ? "½" : ply.result === "first" ? "1–0" : "0–1";
  const { score } = ply;
  if ("mate" in score) return `#${score.mate < 0 ? "−" : ""}${Math.abs(score.mate)}`;
  const pawns = (score.cp / 100).toFixed(1);
  return score.cp > 0 ? `+${pawns}` : pawns.replace("-", "−");
}

/**
 * The analysis box of a finished game: `[data-analysis]`, with the
 * `[data-action=analyse]` button, `[data-analysis-progress]`, the graph
 * `svg[data-eval-graph]` of `[data-graph-ply]` points, `[data-best-move]` and
 * `[data-pv]`. The page owns which position is shown.
 */
export class AnalysisPanel {
  /**
   * @param {string} variant
   * @param {{ start: () => Promise<Analysis | AnalysisStarted>, onReview: (ply: number) => void, onChange: () => void }} handlers
   *   start: ask the server (202 `{id}`, or a kept analysis at once); onReview: show
   *   the position after that many moves; onChange: the analysis changed (draw the page again)
   */
  constructor(variant, handlers) {
    /** The box; the page puts it where it belongs, again after a redraw. */
    this.box = el("section", { class: "panel analysis", "data-analysis": "", "aria-label": t("analysis.title") });
    this.variant = variant;
    this.handlers = handlers;
    /** @type {Analysis | null} */
    this.analysis = null;
    /** @type {unknown} */
    this.error = null;
    this.stopped = false;
    this.busy = false;
    /** @type {string | undefined} */
    this.id = undefined;
  }

  /** Asks for the analysis, then polls until it ends. */
  async run() {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.handlers.onChange();
    try {
      let answer = await this.handlers.start();
      const id = "id" in answer ? answer.id : null;
      while (!this.stopped) {
        if ("plies" in answer) {
          this.analysis = answer;
          this.handlers.onChange();
          if (answer.status === "done" || answer.status === "failed") break;
        }
        // A kept analysis comes done, with no id to poll.
        if (id === null) break;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        answer = await request("GET", `/analysis/${encodeURIComponent(id)}`);
      }
    } catch (err) {
      this.error = err;
    } finally {
      this.busy = false;
      this.handlers.onChange();
    }
  }

  /** Stops polling (the page is left). */
  stop() {
    this.stopped = true;
  }

  /**
   * The marks of the moves, as far as the analysis goes.
   * @param {"first" | "second"} firstMover
   * @returns {(string | null)[]}
   */
  marks(firstMover) {
    return this.analysis ? moveMarks(this.analysis.plies, this.variant, firstMover) : [];
  }

  /**
   * The squares of the best move in the position after `ply` moves, for the board's arrow.
   * @param {number} ply
   * @returns {string[] | null}
   */
  arrow(ply) {
    const best = this.analysis?.plies[ply]?.best;
    return best ? moveSquares(best) : null;
  }

  /**
   * Draws the box for the position after `shown` moves.
   * @param {number} shown
   */
  render(shown) {
    const analysis = this.analysis;
    const head = el("div", { class: "moves-head" });
    head.append(el("h2", {}, t("analysis.title")));
    /** @type {Element[]} */
    const parts = [head];
    if (!analysis || analysis.status === "failed") {
      const button = el("button", { type: "button", class: "primary", "data-action": "analyse" }, t("analysis.start"));
      button.disabled = this.busy;
      button.addEventListener("click", () => this.run());
      parts.push(button);
    }
    if (analysis && analysis.status !== "done") {
      const status = analysis.status === "failed" ? t("analysis.failed") : t("analysis.progress", {
        done: analysis.plies.length,
        total: analysis.positions,
      });
      const progress = el("p", { class: "status", "data-analysis-progress": analysis.status, role: "status" }, status);
      parts.push(progress);
    }
    if (analysis && analysis.plies.length > 0) parts.push(this.graph(analysis, shown), this.verdict(analysis, shown));
    // Its own alert: the page's `[data-error]` is one per page.
    if (this.error) {
      const text = this.error instanceof ApiError ? errorText(this.error) : String(this.error);
      parts.push(el("p", { class: "message error", role: "alert", "data-analysis-error": "" }, text));
    }
    this.box.replaceChildren(...parts);
  }

  /**
   * The evaluation graph: the first player's winning chance after each move,
   * one clickable point per position analysed.
   * @param {Analysis} analysis
   * @param {number} shown
   * @returns {SVGSVGElement}
   */
  graph(analysis, shown) {
    const width = 300;
    const height = 100;
    const last = Math.max(1, analysis.positions - 1);
    /** @param {AnalysedPly} ply */
    const point = (ply) => [(ply.ply / last) * width, height / 2 - chance(ply, this.variant) * (height / 2 - 4)];
    const svg = /** @type {SVGSVGElement} */ (svgEl("svg", {
      class: "eval-graph",
      "data-eval-graph": "",
      viewBox: `-4 0 ${width + 8} ${height}`,
      role: "group",
      "aria-label": t("analysis.graph"),
    }));
    svg.append(svgEl("line", { class: "axis", x1: 0, y1: height / 2, x2: width, y2: height / 2 }));
    const line = analysis.plies.map((ply) => point(ply).map((n) => n.toFixed(1)).join(",")).join(" ");
    svg.append(svgEl("polyline", { class: "curve", points: line }));
    for (const ply of analysis.plies) {
      const [x, y] = point(ply);
      const dot = svgEl("circle", {
        cx: x.toFixed(1),
        cy: y.toFixed(1),
        r: ply.ply === shown ? 4 : 2.5,
        class: ply.ply === shown ? "point current" : "point",
        "data-graph-ply": ply.ply,
        tabindex: 0,
        role: "button",
        "aria-label": t("analysis.point", { ply: ply.ply, score: scoreText(ply) }),
      });
      dot.append(svgEl("title", {}, `${ply.ply}: ${scoreText(ply)}`));
      dot.addEventListener("click", () => this.handlers.onReview(ply.ply));
      dot.addEventListener("keydown", (event) => {
        if (!(event instanceof KeyboardEvent) || (event.key !== "Enter" && event.key !== " ")) return;
        event.preventDefault();
        this.handlers.onReview(ply.ply);
      });
      svg.append(dot);
    }
    return svg;
  }

  /**
   * The score, best move and principal variation of the position shown.
   * @param {Analysis} analysis
   * @param {number} shown
   * @returns {HTMLElement}
   */
  verdict(analysis, shown) {
    const box = el("dl", { class: "record-headers analysis-verdict" });
    const ply = analysis.plies[shown];
    if (!ply) return box;
    box.append(el("dt", {}, t("analysis.score")), el("dd", { "data-score": "" }, scoreText(ply)));
    if (ply.best) {
      // In the notation the move list shows, where the server wrote it; else USI/ICCS.
      const line = notationList(this.variant, ply.pv_notation) ?? ply.pv;
      box.append(el("dt", {}, t("analysis.best")), el("dd", { "data-best-move": ply.best }, line[0] ?? ply.best));
      box.append(el("dt", {}, t("analysis.pv")), el("dd", { "data-pv": ply.pv.join(" ") }, line.join(" ")));
    }
    return box;
  }
}
