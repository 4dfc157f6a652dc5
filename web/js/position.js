// Positions for display: SFEN (shogi family) and FEN (xiangqi) read into a
// board of coordinates, and USI/ICCS moves applied to it so the move list can
// show any earlier position. No legality here: the server sends the legal
// moves with every room.
//
// Coordinates are the move text's: USI `7g` (file 9..1 from Sente's left,
// rank a..i from the top; `5a`..`1e` on the 5x5 board) and ICCS `h2` (file
// a..i from Red's left, rank 0..9 from Red's side).

/** @typedef {"first" | "second"} Side */
/** @typedef {{ code: string, side: Side }} Piece */
/**
 * @typedef {object} Position
 * @property {string} variant
 * @property {Map<string, Piece>} board the pieces by coordinate
 * @property {{ first: Record<string, number>, second: Record<string, number> }} hands
 * @property {Side} sideToMove
 */

const RANK_LETTERS = "abcdefghi";
const XIANGQI_FILES = "abcdefghi";

/** The order of pieces in a hand, most valuable first (as players lay out the komadai). */
export const HAND_ORDER = ["R", "B", "G", "S", "N", "L", "P"];

/**
 * @param {string} variant
 * @returns {{ files: number, ranks: number }}
 */
export function boardSize(variant) {
  if (variant === "xiangqi") return { files: 9, ranks: 10 };
  if (variant === "minishogi") return { files: 5, ranks: 5 };
  return { files: 9, ranks: 9 };
}

/**
 * The coordinates row by row as the first player sees the board: the top
 * row (the second player's side) first, each row from left to right.
 * @param {string} variant
 * @returns {string[][]}
 */
export function rows(variant) {
  const { files, ranks } = boardSize(variant);
  /** @type {string[][]} */
  const result = [];
  for (let row = 0; row < ranks; row++) {
    /** @type {string[]} */
    const line = [];
    for (let col = 0; col < files; col++) {
      line.push(
        variant === "xiangqi"
          ? `${XIANGQI_FILES[col]}${ranks - 1 - row}`
          : `${files - col}${RANK_LETTERS[row]}`,
      );
    }
    result.push(line);
  }
  return result;
}

/** @param {Side} side @returns {Side} */
export function opponent(side) {
  return side === "first" ? "second" : "first";
}

/**
 * Reads an SFEN or FEN; throws an Error naming the part that is wrong.
 * @param {string} variant
 * @param {string} text
 * @returns {Position}
 */
export function parsePosition(variant, text) {
  const fields = text.trim().split(/\s+/);
  const layout = rows(variant);
  const lines = (fields[0] ?? "").split("/");
  if (lines.length !== layout.length) {
    throw new Error(`expected ${layout.length} ranks in "${fields[0]}"`);
  }
  /** @type {Map<string, Piece>} */
  const board = new Map();
  lines.forEach((line, row) => {
    let col = 0;
    let promoted = false;
    for (const char of line.match(/\d+|\+|[A-Za-z]/g) ?? []) {
      if (/^\d+$/.test(char)) {
        col += Number(char);
      } else if (char === "+") {
        promoted = true;
      } else {
        const square = layout[row][col];
        if (!square) throw new Error(`rank ${row + 1} of "${fields[0]}" is too long`);
        const upper = char.toUpperCase();
        board.set(square, {
          code: (promoted ? "+" : "") + upper,
          side: char === upper ? "first" : "second",
        });
        promoted = false;
        col += 1;
      }
    }
  });
  /** @type {Position["hands"]} */
  const hands = { first: {}, second: {} };
  if (variant !== "xiangqi" && fields[2] && fields[2] !== "-") {
    for (const [, count, letter] of fields[2].matchAll(/(\d*)([A-Za-z])/g)) {
      const upper = letter.toUpperCase();
      hands[letter === upper ? "first" : "second"][upper] = Number(count || 1);
    }
  }
  const mover = fields[1] ?? (variant === "xiangqi" ? "w" : "b");
  // SFEN: b = Sente; FEN: w (or r) = Red.
  const sideToMove = mover === "b" && variant !== "xiangqi" ? "first"
    : (mover === "w" || mover === "r") && variant === "xiangqi" ? "first"
    : "second";
  return { variant, board, hands, sideToMove };
}

/**
 * The squares a move touches: [from, to], or [to] for a drop.
 * @param {string} move USI or ICCS
 * @returns {string[]}
 */
export function moveSquares(move) {
  if (move[1] === "*") return [move.slice(2, 4)];
  return [move.slice(0, 2), move.slice(2, 4)];
}

/**
 * The position after `move`; the position itself is left as it was.
 * @param {Position} position
 * @param {string} move
 * @returns {Position}
 */
export function applyMove(position, move) {
  const board = new Map(position.board);
  const hands = { first: { ...position.hands.first }, second: { ...position.hands.second } };
  const side = position.sideToMove;
  if (move[1] === "*") {
    const code = move[0].toUpperCase();
    board.set(move.slice(2, 4), { code, side });
    hands[side][code] = Math.max(0, (hands[side][code] ?? 0) - 1);
    if (hands[side][code] === 0) delete hands[side][code];
  } else {
    const [from, to] = moveSquares(move);
    const piece = board.get(from);
    if (!piece) throw new Error(`no piece on ${from} for ${move}`);
    const captured = board.get(to);
    if (captured && position.variant !== "xiangqi") {
      const base = captured.code.replace("+", "");
      hands[side][base] = (hands[side][base] ?? 0) + 1;
    }
    board.delete(from);
    board.set(to, {
      code: move.endsWith("+") ? `+${piece.code}` : piece.code,
      side: piece.side,
    });
  }
  return { variant: position.variant, board, hands, sideToMove: opponent(side) };
}

/**
 * `side`'s impasse points as the 24-point rule counts them (as the server
 * does): every piece on the board and in hand, rook and bishop (promoted or
 * not) 5, the king 0, every other piece 1.
 * @param {Position} position a shogi-family position
 * @param {Side} side
 * @returns {number}
 */
export function impassePoints(position, side) {
  /** @param {string} code */
  const worth = (code) => {
    const base = code.replace("+", "");
    return base === "R" || base === "B" ? 5 : base === "K" ? 0 : 1;
  };
  let points = 0;
  for (const piece of position.board.values()) {
    if (piece.side === side) points += worth(piece.code);
  }
  for (const [code, count] of Object.entries(position.hands[side])) points += worth(code) * count;
  return points;
}

/**
 * Where `side`'s king (or general) stands, if anywhere.
 * @param {Position} position
 * @param {Side} side
 * @returns {string | null}
 */
export function kingSquare(position, side) {
  for (const [square, piece] of position.board) {
    if (piece.code === "K" && piece.side === side) return square;
  }
  return null;
}
