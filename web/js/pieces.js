// The text on a piece and its name. Codes are the uppercase SFEN/FEN letters,
// with `+` for a promoted shogi piece; the family (`shogi` for shogi,
// minishogi and annan, `xiangqi`) picks the set.

import { t } from "./i18n.js";

/** @typedef {"first" | "second"} Side */

/**
 * The traditional kanji of the shogi pieces (the king is 玉 for Sente, 王 for Gote).
 * @type {Record<string, string>}
 */
const SHOGI_KANJI = {
  P: "歩", L: "香", N: "桂", S: "銀", G: "金", B: "角", R: "飛", K: "玉",
  "+P": "と", "+L": "杏", "+N": "圭", "+S": "全", "+B": "馬", "+R": "龍",
};

/**
 * The traditional characters of xiangqi, which differ between Red and Black.
 * @type {Record<Side, Record<string, string>>}
 */
const XIANGQI_HANZI = {
  first: { R: "車", N: "馬", B: "相", A: "仕", K: "帥", C: "炮", P: "兵" },
  second: { R: "車", N: "馬", B: "象", A: "士", K: "將", C: "砲", P: "卒" },
};

/**
 * @param {string} variant shogi, minishogi, annan or xiangqi
 * @returns {"shogi" | "xiangqi"}
 */
export function family(variant) {
  return variant === "xiangqi" ? "xiangqi" : "shogi";
}

/**
 * The label on a piece.
 * @param {string} variant
 * @param {string} code e.g. "S", "+R", "C"
 * @param {Side} side
 * @param {"traditional" | "letters"} labels
 * @returns {string}
 */
export function pieceLabel(variant, code, side, labels) {
  const fam = family(variant);
  if (labels === "letters") return t(`letter.${fam}.${code}`);
  if (fam === "xiangqi") return XIANGQI_HANZI[side][code] ?? code;
  if (code === "K" && side === "second") return "王";
  return SHOGI_KANJI[code] ?? code;
}

/**
 * The piece's full name in the current language, e.g. "Silver general".
 * @param {string} variant
 * @param {string} code
 * @returns {string}
 */
export function pieceName(variant, code) {
  return t(`piece.${family(variant)}.${code}`);
}

/**
 * Whether a shogi piece of this code shows its promoted face (drawn in red).
 * @param {string} code
 * @returns {boolean}
 */
export function isPromoted(code) {
  return code.startsWith("+");
}
