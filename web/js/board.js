// The board and the hands: shogi 9x9, minishogi 5x5 (squares with pentagon
// pieces, the opponent's turned around) and xiangqi 9x10 (discs on the points
// of a drawn board with river and palaces). It draws what it is given and
// reports clicks, drags and keys; what they mean (selection, legal targets,
// moves) is the room page's business.

import { el, svgEl } from "./dom.js";
import { t } from "./i18n.js";
import { family, isPromoted, pieceLabel, pieceName } from "./pieces.js";
import { HAND_ORDER, boardSize, rows } from "./position.js";

/** @typedef {import("./position.js").Position} Position */
/** @typedef {import("./position.js").Side} Side */

/**
 * What to draw.
 * @typedef {object} BoardState
 * @property {Position} position
 * @property {Side} orientation the side at the bottom
 * @property {"traditional" | "letters"} labels
 * @property {"japanese" | "western"} rankStyle how shogi ranks are written beside the board
 * @property {string | null} selected a square, or "hand:<code>" for a piece in hand
 * @property {string[]} targets squares to mark as legal destinations
 * @property {string[]} lastMove the last move's squares
 * @property {string | null} check the square of a king in check
 * @property {number | null} reviewPly the ply shown when reviewing, null for the live position
 * @property {string[] | null} [arrow] the squares of a move to draw as an arrow (an analysis's best
 *   move): from and to, or only the target of a drop
 */

/**
 * What the board reports.
 * @typedef {object} BoardHandlers
 * @property {(square: string) => void} onSquare a square was clicked or chosen with Enter/Space
 * @property {(code: string) => void} onHand a piece in the hand of the side to move was clicked
 * @property {(square: string) => boolean} onDragStart a drag began on a square; true if the piece may move
 * @property {(code: string) => boolean} onHandDragStart a drag began on a piece in hand
 * @property {(square: string) => void} onDrop a dragged piece was let go over a square
 * @property {() => void} onCancel Escape, or a drag let go outside the board
 */

/** Japanese rank numerals for the coordinates beside a shogi board. */
const KANJI_RANKS = "一二三四五六七八九";

/**
 * Xiangqi's file numbers, 1-9 from each side's right as the move text counts
 * them and Chinese boards print them: Chinese numerals along Red's edge,
 * Arabic digits along Black's.
 * @type {Record<Side, string[]>}
 */
const XIANGQI_FILE_NUMBERS = {
  first: ["九", "八", "七", "六", "五", "四", "三", "二", "一"],
  second: ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
};

/**
 * A piece drawn in SVG: a pentagon (shogi family) or a disc (xiangqi).
 * @param {string} variant
 * @param {string} code
 * @param {Side} side
 * @param {"traditional" | "letters"} labels
 * @returns {SVGSVGElement}
 */
export function pieceSvg(variant, code, side, labels) {
  const svg = /** @type {SVGSVGElement} */ (svgEl("svg", { viewBox: "0 0 100 100", "aria-hidden": "true" }));
  const label = pieceLabel(variant, code, side, labels);
  const text = svgEl("text", {
    x: 50,
    "text-anchor": "middle",
    "dominant-baseline": "central",
    "font-size": label.length > 1 ? 34 : 50,
    class: isPromoted(code) ? "promoted" : undefined,
  }, label);
  if (family(variant) === "xiangqi") {
    svg.append(svgEl("circle", { cx: 50, cy: 50, r: 46, class: "disc" }), svgEl("circle", { cx: 50, cy: 50, r: 38, class: "ring" }));
    text.setAttribute("y", "52");
  } else {
    // Kings and rooks stand a little taller than pawns on a real board.
    const scale = code === "K" ? 1 : code === "P" || code === "+P" ? 0.88 : 0.94;
    const points = [[50, 4], [82, 18], [92, 96], [8, 96], [18, 18]].map(
      ([x, y]) => `${50 + (x - 50) * scale},${100 - (100 - y) * scale}`,
    );
    svg.append(svgEl("polygon", { points: points.join(" "), class: "pentagon" }));
    text.setAttribute("y", String(58 + (1 - scale) * 20));
  }
  svg.append(text);
  return svg;
}

/**
 * The side's name in the variant's words: Sente/Gote or Red/Black.
 * @param {string} variant
 * @param {Side} side
 */
export function sideName(variant, side) {
  return t(`side.${family(variant)}.${side}`);
}

/**
 * The button that turns the board round (and the seats with it).
 * @param {boolean} flipped whether the board is turned from its usual side
 * @param {() => void} onFlip
 */
export function flipButton(flipped, onFlip) {
  const button = el("button", { type: "button", "data-action": "flip", "aria-pressed": String(flipped) }, t("board.flip"));
  button.addEventListener("click", onFlip);
  return button;
}

/** A board with its hands, drawn into one container. */
export class Board {
  /**
   * @param {HTMLElement} container
   * @param {string} variant
   * @param {BoardHandlers} handlers
   */
  constructor(container, variant, handlers) {
    this.container = container;
    this.variant = variant;
    this.handlers = handlers;
    /** The square that takes Tab focus (roving tabindex). */
    this.focusSquare = rows(variant).at(-1)?.[0] ?? "";
    /** Set after a drag so that the click that ends it is not a second action. */
    this.suppressClick = false;
  }

  /** @param {BoardState} state */
  render(state) {
    // Drawing replaces the elements; the focus goes back to the same square or hand piece.
    const focused = this.focusedSelector();
    const shogi = family(this.variant) === "shogi";
    const top = state.orientation === "first" ? "second" : "first";
    const area = el("div", { class: `board-area ${shogi ? "with-hands" : "no-hands"}` });
    if (shogi) area.append(this.hand(state, top, "top"));
    area.append(this.board(state));
    if (shogi) area.append(this.hand(state, state.orientation, "bottom"));
    this.container.replaceChildren(area);
    const again = focused ? this.container.querySelector(focused) : null;
    if (again instanceof HTMLElement) again.focus({ preventScroll: true });
  }

  /** @returns {string | null} a selector for the focused square or hand piece, if the focus is here */
  focusedSelector() {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !this.container.contains(active)) return null;
    if (active.dataset.square) return `[data-square="${active.dataset.square}"]`;
    const hand = active.closest("[data-hand]")?.getAttribute("data-hand");
    if (hand && active.dataset.handPiece) {
      return `[data-hand=${hand}] [data-hand-piece="${active.dataset.handPiece}"]`;
    }
    return null;
  }

  /**
   * The rows as drawn, top first.
   * @param {Side} orientation
   * @returns {string[][]}
   */
  displayRows(orientation) {
    const layout = rows(this.variant);
    if (orientation === "first") return layout;
    return layout.reverse().map((row) => row.reverse());
  }

  /**
   * @param {BoardState} state
   * @returns {HTMLElement}
   */
  board(state) {
    const { files, ranks } = boardSize(this.variant);
    const xiangqi = this.variant === "xiangqi";
    const wrap = el("div", { class: "board-wrap" });
    const board = el("div", {
      class: `board ${xiangqi ? "xiangqi" : "shogi"}`,
      "data-board": "",
      "data-variant": this.variant,
      "data-orientation": state.orientation,
      "data-review-ply": state.reviewPly ?? undefined,
      role: "grid",
      "aria-label": t("board.label", { game: t(`variant.${this.variant}`) }),
    });
    board.style.setProperty("--files", String(files));
    board.style.setProperty("--ranks", String(ranks));
    if (xiangqi) board.append(xiangqiLines(state.orientation));
    const display = this.displayRows(state.orientation);
    for (const line of display) {
      const row = el("div", { class: "row", role: "row" });
      for (const square of line) row.append(this.square(state, square));
      board.append(row);
    }
    if (state.arrow) board.append(arrowSvg(state.arrow, display));
    board.addEventListener("keydown", (event) => this.key(event, display));
    wrap.append(board, ...this.coordinates(state, display));
    return wrap;
  }

  /**
   * The file and rank names beside the board.
   * @param {BoardState} state
   * @param {string[][]} display
   * @returns {HTMLElement[]}
   */
  coordinates(state, display) {
    if (this.variant === "xiangqi") return xiangqiFileNumbers(state.orientation, display[0]);
    const filesBar = el("div", { class: "coords files", "aria-hidden": "true" });
    const ranksBar = el("div", { class: "coords ranks", "aria-hidden": "true" });
    for (const square of display[0]) {
      filesBar.append(el("span", {}, square.slice(0, -1)));
    }
    for (const line of display) {
      const rank = line[0].at(-1) ?? "a";
      const text = state.rankStyle === "japanese" ? KANJI_RANKS["abcdefghi".indexOf(rank)] : rank;
      ranksBar.append(el("span", {}, text));
    }
    return [filesBar, ranksBar];
  }

  /**
   * @param {BoardState} state
   * @param {string} square
   * @returns {HTMLElement}
   */
  square(state, square) {
    const cell = el("div", {
      class: "square",
      "data-square": square,
      role: "gridcell",
      tabindex: square === this.focusSquare ? 0 : -1,
    });
    const piece = state.position.board.get(square);
    const words = piece
      ? t("square.piece", {
          square,
          side: sideName(this.variant, piece.side),
          piece: pieceName(this.variant, piece.code),
          // English writes "Sente pawn"; a language whose nouns keep their capital uses {piece}.
          piece_lower: pieceName(this.variant, piece.code).toLowerCase(),
        })
      : t("square.empty", { square });
    const marks = [];
    if (state.selected === square) {
      cell.classList.add("selected");
      marks.push(t("square.selected"));
    }
    if (state.targets.includes(square)) {
      cell.classList.add("target");
      marks.push(t("square.target"));
    }
    if (state.lastMove.includes(square)) cell.classList.add("last-move");
    if (state.check === square) {
      cell.classList.add("check");
      marks.push(t("square.check"));
    }
    cell.setAttribute("aria-label", [words, ...marks].join(", "));
    if (piece) {
      const face = el("div", {
        class: piece.side === state.orientation ? "piece" : "piece turned",
        "data-piece": piece.code,
        "data-side": piece.side,
      });
      face.append(pieceSvg(this.variant, piece.code, piece.side, state.labels));
      cell.append(face);
    }
    cell.addEventListener("click", () => {
      if (this.consumeDrag()) return;
      this.focusSquare = square;
      this.handlers.onSquare(square);
    });
    cell.addEventListener("focus", () => {
      this.focusSquare = square;
    });
    if (piece) {
      cell.addEventListener("pointerdown", (event) =>
        this.dragFrom(event, cell, () => this.handlers.onDragStart(square)),
      );
    }
    return cell;
  }

  /**
   * A hand (komadai): the pieces a player has captured, ready to drop.
   * @param {BoardState} state
   * @param {Side} side
   * @param {"top" | "bottom"} place
   * @returns {HTMLElement}
   */
  hand(state, side, place) {
    const box = el("div", {
      class: `hand ${place}`,
      "data-hand": side,
      role: "group",
      "aria-label": t("hand.label", { side: sideName(this.variant, side) }),
    });
    const counts = state.position.hands[side];
    const codes = HAND_ORDER.filter((code) => counts[code] > 0);
    for (const code of codes) {
      const count = counts[code];
      const selected = state.selected === `hand:${code}` && side === state.position.sideToMove;
      const button = el("button", {
        type: "button",
        class: selected ? "hand-piece selected" : "hand-piece",
        "data-hand-piece": code,
        "data-count": count,
        "aria-pressed": String(selected),
        "aria-label": t("hand.piece", { piece: pieceName(this.variant, code), count }),
      });
      const piece = el("span", { class: side === state.orientation ? "piece" : "piece turned" });
      piece.append(pieceSvg(this.variant, code, side, state.labels));
      button.append(piece);
      if (count > 1) button.append(el("span", { class: "count", "aria-hidden": "true" }, String(count)));
      button.addEventListener("click", () => {
        if (this.consumeDrag()) return;
        if (side === state.position.sideToMove) this.handlers.onHand(code);
      });
      button.addEventListener("pointerdown", (event) =>
        this.dragFrom(event, button, () =>
          side === state.position.sideToMove && this.handlers.onHandDragStart(code),
        ),
      );
      button.addEventListener("keydown", (event) => {
        if (event.key === "Escape") this.handlers.onCancel();
      });
      box.append(button);
    }
    if (codes.length === 0) {
      box.append(el("span", { class: "empty" }, t("hand.empty")));
    }
    return box;
  }

  /** @returns {boolean} whether a click is the end of a drag (and so ignored) */
  consumeDrag() {
    const was = this.suppressClick;
    this.suppressClick = false;
    return was;
  }

  /**
   * Follows a pointer from a piece: past a few pixels it becomes a drag, and
   * letting go over a square drops the piece there.
   * @param {PointerEvent} down
   * @param {HTMLElement} origin
   * @param {() => boolean} start asks whether the piece may be dragged (and selects it)
   */
  dragFrom(down, origin, start) {
    if (down.button !== 0) return;
    const pieceEl = origin.querySelector(".piece");
    if (!pieceEl) return;
    /** @type {HTMLElement | null} */
    let ghost = null;
    const size = origin.getBoundingClientRect().width;
    /** @param {PointerEvent} event */
    const move = (event) => {
      if (!ghost) {
        if (Math.hypot(event.clientX - down.clientX, event.clientY - down.clientY) < 6) return;
        if (!start()) {
          stop();
          return;
        }
        ghost = el("div", { class: `drag-ghost ${this.variant === "xiangqi" ? "xiangqi" : "shogi"}` });
        ghost.style.width = ghost.style.height = `${size}px`;
        ghost.append(pieceEl.cloneNode(true));
        document.body.append(ghost);
      }
      ghost.style.left = `${event.clientX - size / 2}px`;
      ghost.style.top = `${event.clientY - size / 2}px`;
      event.preventDefault();
    };
    /** @param {PointerEvent} event */
    const up = (event) => {
      stop();
      if (!ghost) return;
      ghost.remove();
      this.suppressClick = true;
      // The click after pointerup, if any, comes at once; never let the flag linger.
      window.setTimeout(() => (this.suppressClick = false), 0);
      const under = document.elementFromPoint(event.clientX, event.clientY);
      const target = under instanceof Element ? under.closest("[data-square]") : null;
      if (target instanceof HTMLElement && this.container.contains(target)) {
        this.handlers.onDrop(target.dataset.square ?? "");
      } else {
        this.handlers.onCancel();
      }
    };
    const stop = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", cancel);
    };
    const cancel = () => {
      stop();
      ghost?.remove();
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
  }

  /**
   * Arrows move the focus as the squares are drawn; Enter/Space acts on the
   * focused square; Escape cancels a selection.
   * @param {KeyboardEvent} event
   * @param {string[][]} display
   */
  key(event, display) {
    const target = event.target;
    if (!(target instanceof HTMLElement) || !target.dataset.square) return;
    const square = target.dataset.square;
    const row = display.findIndex((line) => line.includes(square));
    const col = display[row].indexOf(square);
    /** @type {Record<string, [number, number]>} */
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (event.key in steps) {
      const [dr, dc] = steps[event.key];
      const next = display[row + dr]?.[col + dc];
      if (next) {
        const nextSquare = this.container.querySelector(`[data-square="${next}"]`);
        if (nextSquare instanceof HTMLElement) {
          target.tabIndex = -1;
          nextSquare.tabIndex = 0;
          this.focusSquare = next;
          nextSquare.focus();
        }
      }
      event.preventDefault();
    } else if (event.key === "Enter" || event.key === " ") {
      this.handlers.onSquare(square);
      event.preventDefault();
    } else if (event.key === "Escape") {
      this.handlers.onCancel();
      event.preventDefault();
    }
  }
}

/**
 * The file numbers along both edges of a xiangqi board, each side's along its
 * own edge: the top side's above the board, the bottom side's below. WXF and
 * Chinese move text need no ranks, so none are written.
 * @param {Side} orientation the side at the bottom
 * @param {string[]} squares the top row's squares, left to right as drawn
 * @returns {HTMLElement[]}
 */
function xiangqiFileNumbers(orientation, squares) {
  const top = orientation === "first" ? "second" : "first";
  return [[top, "top"], [orientation, "bottom"]].map(([side, edge]) => {
    const numbers = XIANGQI_FILE_NUMBERS[/** @type {Side} */ (side)];
    const bar = el("div", { class: `coords files ${edge}`, "data-file-numbers": side, "aria-hidden": "true" });
    for (const square of squares) bar.append(el("span", {}, numbers["abcdefghi".indexOf(square[0])]));
    return bar;
  });
}

/**
 * An arrow over the board from the first square to the last (a ring on the
 * target alone for a drop): `svg[data-best-arrow]`, naming its squares.
 * @param {string[]} squares
 * @param {string[][]} display the rows as drawn, top first
 * @returns {SVGSVGElement}
 */
function arrowSvg(squares, display) {
  const files = display[0].length;
  const ranks = display.length;
  /** @param {string} square @returns {[number, number]} the centre of its cell */
  const centre = (square) => {
    const row = display.findIndex((line) => line.includes(square));
    return [display[row].indexOf(square) * 100 + 50, row * 100 + 50];
  };
  const svg = /** @type {SVGSVGElement} */ (svgEl("svg", {
    class: "best-arrow",
    "data-best-arrow": squares.join("-"),
    viewBox: `0 0 ${files * 100} ${ranks * 100}`,
    preserveAspectRatio: "none",
    "aria-hidden": "true",
  }));
  const [x2, y2] = centre(squares[squares.length - 1]);
  if (squares.length < 2) {
    svg.append(svgEl("circle", { cx: x2, cy: y2, r: 38 }));
    return svg;
  }
  const [x1, y1] = centre(squares[0]);
  const length = Math.hypot(x2 - x1, y2 - y1);
  // The shaft stops short of the centre so that the head ends there.
  const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
  const [bx, by] = [x2 - ux * 36, y2 - uy * 36];
  svg.append(svgEl("line", { x1, y1, x2: bx, y2: by }));
  const head = [[x2, y2], [bx - uy * 22, by + ux * 22], [bx + uy * 22, by - ux * 22]];
  svg.append(svgEl("polygon", { points: head.map((p) => p.join(",")).join(" ") }));
  return svg;
}

/**
 * The lines of a xiangqi board through the centres of the 9x10 cells: ranks,
 * files broken at the river, the palaces' diagonals and the river's words.
 * @param {Side} orientation
 * @returns {SVGSVGElement}
 */
function xiangqiLines(orientation) {
  const svg = /** @type {SVGSVGElement} */ (svgEl("svg", {
    class: "lines",
    viewBox: "0 0 900 1000",
    preserveAspectRatio: "none",
    "aria-hidden": "true",
  }));
  /** @param {number} x1 @param {number} y1 @param {number} x2 @param {number} y2 */
  const line = (x1, y1, x2, y2) => {
    svg.append(svgEl("line", { x1: 50 + 100 * x1, y1: 50 + 100 * y1, x2: 50 + 100 * x2, y2: 50 + 100 * y2 }));
  };
  for (let r = 0; r < 10; r++) line(0, r, 8, r);
  for (let f = 0; f < 9; f++) {
    if (f === 0 || f === 8) line(f, 0, f, 9);
    else {
      line(f, 0, f, 4);
      line(f, 5, f, 9);
    }
  }
  for (const top of [0, 7]) {
    line(3, top, 5, top + 2);
    line(5, top, 3, top + 2);
  }
  const words = orientation === "first" ? ["楚 河", "漢 界"] : ["漢 界", "楚 河"];
  words.forEach((word, i) => {
    svg.append(svgEl("text", {
      x: i === 0 ? 250 : 650,
      y: 500,
      "text-anchor": "middle",
      "dominant-baseline": "central",
      class: "river",
    }, word));
  });
  return svg;
}
