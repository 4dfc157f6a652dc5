// The rules pages' diagrams: small SVG boards drawn from data (a window onto
// a board, the pieces on it, the pieces whose moves are shown). The moves are
// computed here from the move tables below (steps and slides), so a diagram
// can never disagree with its table. This is drawing code for the rules pages
// only: the game page takes its legal moves from the server.

import { svgEl } from "./dom.js";
import { pieceLabel, isPromoted } from "./pieces.js";
import { pieceLabels } from "./storage.js";

/** @typedef {import("./position.js").Side} Side */
/** @typedef {import("./position.js").Piece} Piece */
/** @typedef {[number, number]} Point x from the first player's left, y from the first player's side */
/**
 * A diagram: a window of `files` × `ranks` onto a board whose lower left corner is
 * `origin` on the full board (xiangqi needs it to place river and palace), the pieces
 * by window point, and the pieces whose moves are drawn.
 * @typedef {object} Diagram
 * @property {string} name the `data-diagram` value
 * @property {string} variant
 * @property {number} files
 * @property {number} ranks
 * @property {Point} [origin]
 * @property {Array<[number, number, string, Side]>} pieces x, y, code, side
 * @property {Point[]} [movers]
 * @property {boolean} [coordinates] label files and ranks (start positions)
 * @property {string} label the aria-label
 */

const ORTHOGONAL = [[0, 1], [1, 0], [0, -1], [-1, 0]];
const DIAGONAL = [[1, 1], [1, -1], [-1, -1], [-1, 1]];
const KING = [...ORTHOGONAL, ...DIAGONAL];
const GOLD = [...ORTHOGONAL, [1, 1], [-1, 1]];

/**
 * How each piece moves, from its owner's point of view (y forward). A step is
 * `[dx, dy]` or `[dx, dy, bx, by]` where `[bx, by]` must be empty (horse leg,
 * elephant eye); a slide is a direction followed to the first piece.
 * `palace`, `ownHalf`: the xiangqi limits; `sideways`: the soldier's extra steps
 * once across the river; `screen`: the cannon's capture over one piece;
 * `flying`: the general may not stop facing the other general on an open file.
 * @type {Record<string, Record<string, {steps?: number[][], slides?: number[][], palace?: boolean, ownHalf?: boolean, sideways?: boolean, screen?: boolean, flying?: boolean}>>}
 */
const MOVES = {
  shogi: {
    K: { steps: KING },
    R: { slides: ORTHOGONAL },
    "+R": { slides: ORTHOGONAL, steps: DIAGONAL },
    B: { slides: DIAGONAL },
    "+B": { slides: DIAGONAL, steps: ORTHOGONAL },
    G: { steps: GOLD },
    S: { steps: [...DIAGONAL, [0, 1]] },
    "+S": { steps: GOLD },
    N: { steps: [[-1, 2], [1, 2]] },
    "+N": { steps: GOLD },
    L: { slides: [[0, 1]] },
    "+L": { steps: GOLD },
    P: { steps: [[0, 1]] },
    "+P": { steps: GOLD },
  },
  xiangqi: {
    K: { steps: ORTHOGONAL, palace: true, flying: true },
    A: { steps: DIAGONAL, palace: true },
    B: { steps: DIAGONAL.map(([x, y]) => [2 * x, 2 * y, x, y]), ownHalf: true },
    N: {
      steps: ORTHOGONAL.flatMap(([x, y]) => [1, -1].map((s) => [2 * x + s * y, 2 * y + s * x, x, y])),
    },
    R: { slides: ORTHOGONAL },
    C: { slides: ORTHOGONAL, screen: true },
    P: { steps: [[0, 1]], sideways: true },
  },
};

/**
 * Where a piece can go: single targets (`steps`, captures included), slide
 * paths drawn as lines, and targets it would reach but for a blocker (`blocked`).
 * The board is the diagram's window; for xiangqi the window's place on the
 * real board decides palace and river.
 * @param {Diagram} d
 * @param {Map<string, Piece>} board
 * @param {Point} from
 */
function movesOf(d, board, from) {
  const piece = /** @type {Piece} */ (board.get(String(from)));
  const sign = piece.side === "first" ? 1 : -1;
  const family = d.variant === "xiangqi" ? "xiangqi" : "shogi";
  let code = piece.code;
  if (d.variant === "annan") {
    const behind = board.get(String([from[0], from[1] - sign]));
    if (behind && behind.side === piece.side) code = behind.code;
  }
  const rule = MOVES[family][code];
  const [ox, oy] = d.origin ?? [0, 0];
  /** @param {number} x @param {number} y */
  const onBoard = (x, y) => x >= 0 && y >= 0 && x < d.files && y < d.ranks;
  /** @param {number} x @param {number} y absolute rank of the owner's view */
  const allowed = (x, y) => {
    const rank = piece.side === "first" ? y + oy : 9 - (y + oy);
    if (rule.palace && !(x + ox >= 3 && x + ox <= 5 && rank <= 2)) return false;
    return !(rule.ownHalf && rank > 4);
  };
  const crossed = (piece.side === "first" ? from[1] + oy : 9 - (from[1] + oy)) > 4;
  /** @type {{steps: Point[], captures: Point[], slides: Point[][], blocked: Point[]}} */
  const result = { steps: [], captures: [], slides: [], blocked: [] };
  const steps = [...(rule.steps ?? []), ...(rule.sideways && crossed ? [[1, 0], [-1, 0]] : [])];
  for (const [dx, dy, bx, by] of steps) {
    const x = from[0] + dx * sign;
    const y = from[1] + dy * sign;
    if (!onBoard(x, y) || !allowed(x, y)) continue;
    const target = board.get(String([x, y]));
    if (target?.side === piece.side) continue;
    const legBlocked = bx !== undefined && board.has(String([from[0] + bx * sign, from[1] + by * sign]));
    if (legBlocked || (rule.flying && facesGeneral(d, board, from, [x, y]))) result.blocked.push([x, y]);
    else (target ? result.captures : result.steps).push([x, y]);
  }
  for (const [dx, dy] of rule.slides ?? []) {
    /** @type {Point[]} */
    const path = [];
    let [x, y] = [from[0] + dx * sign, from[1] + dy * sign];
    while (onBoard(x, y) && !board.has(String([x, y]))) {
      path.push([x, y]);
      [x, y] = [x + dx * sign, y + dy * sign];
    }
    if (path.length) result.slides.push(path);
    if (!onBoard(x, y)) continue;
    if (!rule.screen) {
      if (board.get(String([x, y]))?.side !== piece.side) result.captures.push([x, y]);
      continue;
    }
    do [x, y] = [x + dx * sign, y + dy * sign];
    while (onBoard(x, y) && !board.has(String([x, y])));
    if (onBoard(x, y) && board.get(String([x, y]))?.side !== piece.side) result.captures.push([x, y]);
  }
  return result;
}

/**
 * Whether the general moving from `from` to `to` would stand on an open file
 * facing the other general (looking towards the opponent, past its own old square).
 * @param {Diagram} d
 * @param {Map<string, Piece>} board
 * @param {Point} from
 * @param {Point} to
 */
function facesGeneral(d, board, from, to) {
  const general = /** @type {Piece} */ (board.get(String(from)));
  const step = general.side === "first" ? 1 : -1;
  for (let y = to[1] + step; y >= 0 && y < d.ranks; y += step) {
    if (to[0] === from[0] && y === from[1]) continue;
    const piece = board.get(String([to[0], y]));
    if (piece) return piece.code === "K" && piece.side !== general.side;
  }
  return false;
}

const CELL = 40;

/**
 * Draws a diagram: squares (shogi family) or lines with river and palace
 * (xiangqi), the pieces, and the moves of `d.movers`.
 * @param {Diagram} d
 * @returns {SVGSVGElement}
 */
export function diagram(d) {
  const points = d.variant === "xiangqi";
  const margin = d.coordinates ? CELL * 0.6 : points ? CELL * 0.1 : 2;
  const width = d.files * CELL + 2 * margin;
  const height = d.ranks * CELL + 2 * margin;
  /** Centre of window point (x, y) on screen; y grows upwards on the board. @param {Point} p */
  const at = ([x, y]) => [margin + (x + 0.5) * CELL, margin + (d.ranks - 0.5 - y) * CELL];
  const svgElement = /** @type {SVGSVGElement} */ (svgEl("svg", {
    viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": d.label, "data-diagram": d.name,
    class: `rules-diagram rules-${points ? "points" : "squares"}`,
  }));
  // A start position keeps its natural size (one unit a pixel), so 5×5 stays smaller than 9×9.
  if (d.coordinates) svgElement.setAttribute("width", String(width));
  svgElement.append(points ? pointsBoard(d, at) : squaresBoard(d, margin));
  if (d.coordinates) svgElement.append(coordinates(d, at));

  /** @type {Map<string, Piece>} */
  const board = new Map(d.pieces.map(([x, y, code, side]) => [String([x, y]), { code, side }]));
  const marks = svgEl("g", { class: "rules-marks" });
  for (const from of d.movers ?? []) {
    const moves = movesOf(d, board, from);
    const [mx, my] = at(from);
    svgElement.append(points
      ? svgEl("circle", { class: "rules-mover", cx: mx, cy: my, r: CELL / 2 })
      : svgEl("rect", { class: "rules-mover", x: mx - CELL / 2, y: my - CELL / 2, width: CELL, height: CELL }));
    for (const path of moves.slides) {
      const [x1, y1] = at(from);
      const [x2, y2] = at(path[path.length - 1]);
      const length = Math.hypot(x2 - x1, y2 - y1);
      const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
      const [sx, sy] = [x1 + ux * CELL * 0.45, y1 + uy * CELL * 0.45];
      const [ex, ey] = [x2 + ux * CELL * 0.3, y2 + uy * CELL * 0.3];
      marks.append(
        svgEl("line", { class: "rules-slide", x1: sx, y1: sy, x2: ex - ux * 6, y2: ey - uy * 6 }),
        svgEl("path", {
          class: "rules-arrow",
          d: `M${ex},${ey} L${ex - ux * 10 - uy * 6},${ey - uy * 10 + ux * 6} L${ex - ux * 10 + uy * 6},${ey - uy * 10 - ux * 6}Z`,
        }),
      );
    }
    for (const target of moves.steps) marks.append(svgEl("circle", { class: "rules-dot", cx: at(target)[0], cy: at(target)[1], r: CELL * 0.15 }));
    for (const target of moves.captures) marks.append(svgEl("circle", { class: "rules-capture", cx: at(target)[0], cy: at(target)[1], r: CELL * 0.47 }));
    for (const target of moves.blocked) {
      const [cx, cy] = at(target);
      const r = CELL * 0.15;
      marks.append(svgEl("path", { class: "rules-blocked", d: `M${cx - r},${cy - r}L${cx + r},${cy + r}M${cx + r},${cy - r}L${cx - r},${cy + r}` }));
    }
  }
  const labels = pieceLabels();
  for (const [x, y, code, side] of d.pieces) svgElement.append(pieceShape(d.variant, code, side, at([x, y]), labels));
  svgElement.append(marks);
  return svgElement;
}

/**
 * The squares of a shogi-family window.
 * @param {Diagram} d
 * @param {number} margin
 * @returns {SVGElement}
 */
function squaresBoard(d, margin) {
  const group = svgEl("g", { class: "rules-board" });
  group.append(svgEl("rect", { class: "rules-ground", x: margin, y: margin, width: d.files * CELL, height: d.ranks * CELL }));
  let lines = "";
  for (let x = 0; x <= d.files; x++) lines += `M${margin + x * CELL},${margin}v${d.ranks * CELL}`;
  for (let y = 0; y <= d.ranks; y++) lines += `M${margin},${margin + y * CELL}h${d.files * CELL}`;
  group.append(svgEl("path", { class: "rules-line", d: lines }));
  return group;
}

/**
 * The lines of a xiangqi window: ranks, files broken by the river except at
 * the board's edges, and the palace diagonals, each cut to the window.
 * @param {Diagram} d
 * @param {(p: Point) => number[]} at
 * @returns {SVGElement}
 */
function pointsBoard(d, at) {
  const [ox, oy] = d.origin ?? [0, 0];
  const group = svgEl("g", { class: "rules-board" });
  const [left, top] = at([0, d.ranks - 1]);
  const [right, bottom] = at([d.files - 1, 0]);
  group.append(svgEl("rect", { class: "rules-ground", x: left - CELL / 2, y: top - CELL / 2, width: right - left + CELL, height: bottom - top + CELL }));
  /** @type {Array<[Point, Point]>} */
  const segments = [];
  for (let y = 0; y < d.ranks; y++) segments.push([[0, y], [d.files - 1, y]]);
  for (let x = 0; x < d.files; x++) {
    for (let y = 0; y + 1 < d.ranks; y++) {
      const acrossRiver = y + oy === 4;
      if (!acrossRiver || x + ox === 0 || x + ox === 8) segments.push([[x, y], [x, y + 1]]);
    }
  }
  for (const base of [0, 7]) {
    const centre = [4, base + 1];
    for (const [cx, cy] of DIAGONAL) {
      segments.push([[centre[0] - ox, centre[1] - oy], [centre[0] + cx - ox, centre[1] + cy - oy]]);
    }
  }
  /** @param {Point} p */
  const inside = ([x, y]) => x >= 0 && y >= 0 && x < d.files && y < d.ranks;
  let lines = "";
  for (const [a, b] of segments) {
    if (!inside(a) || !inside(b)) continue;
    const [x1, y1] = at(a);
    const [x2, y2] = at(b);
    lines += `M${x1},${y1}L${x2},${y2}`;
  }
  if (oy <= 4 && oy + d.ranks - 1 >= 5) {
    const [, riverBottom] = at([0, 4 - oy]);
    group.append(svgEl("rect", { class: "rules-river", x: left, y: riverBottom - CELL, width: right - left, height: CELL }));
  }
  group.append(svgEl("path", { class: "rules-line", d: lines }));
  return group;
}

/**
 * File and rank names around a start position, as the move notation writes them:
 * for xiangqi each side's file numbers along its own edge (Red's in Chinese
 * numerals below, Black's in Arabic digits above) and no ranks.
 * @param {Diagram} d
 * @param {(p: Point) => number[]} at
 * @returns {SVGElement}
 */
function coordinates(d, at) {
  const group = svgEl("g", { class: "rules-coordinates" });
  if (d.variant === "xiangqi") {
    const [, bottom] = at([0, 0]);
    const [, top] = at([0, d.ranks - 1]);
    for (let x = 0; x < d.files; x++) {
      const [cx] = at([x, 0]);
      group.append(svgEl("text", { x: cx, y: bottom + CELL * 0.8 }, XIANGQI_RED_NUMBERS[8 - x]));
      group.append(svgEl("text", { x: cx, y: top - CELL * 0.75 }, String(x + 1)));
    }
    return group;
  }
  for (let x = 0; x < d.files; x++) {
    const [cx] = at([x, 0]);
    const [, cy] = at([0, d.ranks - 1]);
    group.append(svgEl("text", { x: cx, y: cy - CELL * 0.75 }, String(d.files - x)));
  }
  for (let y = 0; y < d.ranks; y++) {
    const [cx, cy] = at([d.files - 1, y]);
    group.append(svgEl("text", { x: cx + CELL * 0.8, y: cy }, "abcdefghi"[d.ranks - 1 - y]));
  }
  return group;
}

/** Red's file numbers, 一 (its right) to 九 (its left). */
const XIANGQI_RED_NUMBERS = "一二三四五六七八九";

/**
 * A piece: a pentagon pointing at the opponent (shogi family) or a disc (xiangqi),
 * with its label from the piece-label setting.
 * @param {string} variant
 * @param {string} code
 * @param {Side} side
 * @param {number[]} centre
 * @param {"traditional" | "letters"} labels
 * @returns {SVGElement}
 */
function pieceShape(variant, code, side, [cx, cy], labels) {
  const text = pieceLabel(variant, code, side, labels);
  const group = svgEl("g", {
    class: `rules-piece-shape rules-${side}${isPromoted(code) ? " rules-promoted" : ""}${labels === "letters" ? " rules-letters" : ""}`,
    transform: `translate(${cx},${cy})${side === "second" && variant !== "xiangqi" ? " rotate(180)" : ""}`,
  });
  const size = text.length > 1 ? (text.length > 2 ? 10 : 13) : 19;
  if (variant === "xiangqi") {
    group.append(svgEl("circle", { class: "rules-disc", r: CELL * 0.44 }), svgEl("circle", { class: "rules-disc-ring", r: CELL * 0.36 }));
  } else {
    group.append(svgEl("path", { class: "rules-pentagon", d: "M0,-18L13,-12L16,17L-16,17L-13,-12Z" }));
  }
  group.append(svgEl("text", { class: "rules-label", y: variant === "xiangqi" ? 0 : 2, "font-size": size }, text));
  return group;
}
