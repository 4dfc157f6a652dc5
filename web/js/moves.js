// A game's move list and result, shared by the room page and the replay page:
// the list in the chosen notation, stepping through it (clicks, arrow keys,
// buttons) and the result line.

import { sideName } from "./board.js";
import { el } from "./dom.js";
import { language, t } from "./i18n.js";
import { family } from "./pieces.js";
import { applyMove, parsePosition } from "./position.js";
import { setShogiNotation, setXiangqiNotation, shogiNotation, xiangqiNotation } from "./storage.js";

/** @typedef {import("./position.js").Side} Side */
/** @typedef {import("./position.js").Position} Position */

/**
 * The moves as players write them, in the chosen notation, if the server sent them.
 * @param {string} variant
 * @param {any} notation the server's `notation` object
 * @returns {string[] | null}
 */
export function notationList(variant, notation) {
  if (!notation) return null;
  return notation[notationOf(variant)] ?? null;
}

/**
 * The notation the move list shows for `variant`: Japanese or Western for the
 * shogi family, WXF or Chinese for xiangqi.
 * @param {string} variant
 * @returns {"japanese" | "western" | "wxf" | "chinese"}
 */
export function notationOf(variant) {
  return family(variant) === "xiangqi" ? xiangqiNotation(language()) : shogiNotation();
}

/**
 * The position after the first `ply` of `moves` from `start` (for review).
 * @param {string} variant
 * @param {string} start SFEN/FEN
 * @param {string[]} moves
 * @param {number} ply
 * @returns {Position}
 */
export function positionAfter(variant, start, moves, ply) {
  let position = parsePosition(variant, start);
  for (const move of moves.slice(0, ply)) position = applyMove(position, move);
  return position;
}

/**
 * "Sente wins by checkmate", "Draw by repetition".
 * @param {string} variant
 * @param {string} winner first, second or draw
 * @param {string | null} reason the API's code
 */
export function resultText(variant, winner, reason) {
  const why = reason ? t(`reason.${reason}`) : "";
  if (winner === "draw") return t("result.draw", { reason: why });
  return t("result.win", { side: sideName(variant, /** @type {Side} */ (winner)), reason: why });
}

/**
 * The result element of the DOM contract: `[data-result]` with the winner and
 * the reason's code.
 * @param {string} variant
 * @param {string} winner
 * @param {string | null} reason
 * @returns {HTMLElement}
 */
export function resultElement(variant, winner, reason) {
  return el(
    "p",
    { class: "result", "data-result": "", "data-winner": winner, "data-reason": reason ?? "" },
    resultText(variant, winner, reason),
  );
}

/** How an analysed move's mark is written after it, as players annotate. */
const MARK_SYMBOLS = /** @type {Record<string, string>} */ ({ inaccuracy: "?!", mistake: "?", blunder: "??" });

/**
 * The move list box: a heading with the notation choice, the
 * `[data-move-list]` of `[data-ply]` buttons and the stepping buttons. The
 * page owns which ply is shown; the list asks it to show another.
 */
export class MoveList {
  /**
   * @param {HTMLElement} box
   * @param {string} variant
   * @param {{ onReview: (ply: number | null) => void, onNotation: () => void, endLabel: string }} handlers
   *   onReview: show the position after that many moves (null: the last one);
   *   onNotation: the notation choice changed; endLabel: the `[data-action=live]` button's text
   */
  constructor(box, variant, handlers) {
    this.handlers = handlers;
    /** The number of moves, and the ply shown (null for the last position), as last drawn. */
    this.length = 0;
    /** @type {number | null} */
    this.reviewPly = null;
    const head = el("div", { class: "moves-head" });
    head.append(el("h2", {}, t("moves.title")));
    const xiangqi = family(variant) === "xiangqi";
    const choice = el("select", { name: "notation", "aria-label": t("moves.notation") });
    for (const value of xiangqi ? ["wxf", "chinese"] : ["japanese", "western"]) {
      choice.append(new Option(t(`notation.${value}`), value, false, value === notationOf(variant)));
    }
    choice.addEventListener("change", () => {
      if (xiangqi) setXiangqiNotation(choice.value === "chinese" ? "chinese" : "wxf");
      else setShogiNotation(choice.value === "western" ? "western" : "japanese");
      handlers.onNotation();
    });
    head.append(choice);
    // Focusable from script only: it holds the focus at the start position, which has no button.
    this.list = el("ol", { class: "move-list", "data-move-list": "", "aria-label": t("moves.title"), tabindex: -1 });
    // Arrow keys step through the game from a focused move; Home and End jump to its start and end.
    this.list.addEventListener("keydown", (event) => {
      if (event.key === "Home" || event.key === "End") {
        event.preventDefault();
        handlers.onReview(event.key === "Home" ? 0 : null);
        return;
      }
      const delta = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
      if (!delta) return;
      event.preventDefault();
      this.step(delta);
    });
    const nav = el("div", { class: "moves-nav" });
    const back = el("button", { type: "button", "aria-label": t("moves.previous") }, "◀");
    back.addEventListener("click", () => this.step(-1));
    const forward = el("button", { type: "button", "aria-label": t("moves.next") }, "▶");
    forward.addEventListener("click", () => this.step(1));
    this.endButton = el("button", { type: "button", "data-action": "live" }, handlers.endLabel);
    this.endButton.addEventListener("click", () => handlers.onReview(null));
    nav.append(back, forward, this.endButton);
    box.replaceChildren(head, this.list, nav);
  }

  /** @param {number} delta moves forward (positive) or back */
  step(delta) {
    this.handlers.onReview((this.reviewPly ?? this.length) + delta);
  }

  /**
   * Draws the list.
   * @param {string[]} moves USI/ICCS
   * @param {string[] | null} texts the same moves as players write them
   * @param {number | null} reviewPly the ply shown, null for the last position
   * @param {(string | null)[]} [marks] each move's analysis mark: inaccuracy, mistake, blunder or null
   */
  render(moves, texts, reviewPly, marks = []) {
    // Drawing replaces the buttons: a focused list keeps the focus, on the move shown.
    const focused = this.list.contains(document.activeElement);
    this.length = moves.length;
    this.reviewPly = reviewPly;
    const items = moves.map((move, i) => {
      const li = el("li");
      const current = reviewPly === i + 1;
      const mark = marks[i] ?? null;
      const button = el("button", {
        type: "button",
        class: `ply${current ? " current" : ""}${mark ? ` ${mark}` : ""}`,
        "data-ply": i + 1,
        "data-mark": mark ?? undefined,
        "aria-current": current ? "step" : undefined,
      }, texts?.[i] ?? move);
      if (mark) {
        button.append(el("span", { class: "mark", title: t(`analysis.${mark}`) }, MARK_SYMBOLS[mark] ?? ""));
        button.setAttribute("aria-label", `${texts?.[i] ?? move}, ${t(`analysis.${mark}`)}`);
      }
      button.addEventListener("click", () => this.handlers.onReview(i + 1));
      li.append(button);
      return li;
    });
    this.list.replaceChildren(...items);
    this.endButton.disabled = reviewPly === null;
    const current = reviewPly === null ? this.list.lastElementChild : this.list.querySelector(".current");
    if (current instanceof HTMLElement) this.centre(current);
    const shown = this.list.querySelector(`[data-ply="${reviewPly ?? moves.length}"]`);
    if (focused) (shown instanceof HTMLElement ? shown : this.list).focus({ preventScroll: true });
  }

  /**
   * Scrolls the list (only the list, not the page) so that `item` stands in its middle.
   * @param {HTMLElement} item
   */
  centre(item) {
    const list = this.list.getBoundingClientRect();
    const box = item.getBoundingClientRect();
    this.list.scrollTop += box.top + box.height / 2 - (list.top + list.height / 2);
  }
}

/**
 * The ply to show when asked for `ply` of a game of `length` moves: null (the
 * last position) at or past the end, never below 0.
 * @param {number | null} ply
 * @param {number} length
 * @returns {number | null}
 */
export function reviewPlyFor(ply, length) {
  return ply === null || ply >= length ? null : Math.max(0, ply);
}
