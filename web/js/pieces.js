// The text on a piece and its name. Codes are the uppercase SFEN/FEN letters,
// with `+` for a promoted shogi piece; the family (`shogi` for shogi,
// minishogi and annan, `xiangqi`) picks the set.

import { language, t } from "./i18n.js";
import { xiangqiNotation } from "./storage.js";

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
 * The letters of WXF, the notation of the World Xiangqi Federation.
 * @type {Record<string, string>}
 */
const WXF_LETTERS = { R: "R", N: "H", B: "E", A: "A", K: "K", C: "C", P: "P" };

/**
 * The simplified characters of Chinese move text (炮二平五, 马8进7).
 * @type {Record<Side, Record<string, string>>}
 */
const XIANGQI_SIMPLIFIED = {
  first: { R: "车", N: "马", B: "相", A: "仕", K: "帅", C: "炮", P: "兵" },
  second: { R: "车", N: "马", B: "象", A: "士", K: "将", C: "炮", P: "卒" },
};

/**
 * @param {string} variant shogi, minishogi, annan or xiangqi
 * @returns {"shogi" | "xiangqi"}
 */
export function family(variant) {
  return variant === "xiangqi" ? "xiangqi" : "shogi";
}

/**
 * The label on a piece. Xiangqi's letters are those of the move list's
 * notation, so the board and the moves name a piece alike: WXF's letters, or
 * the simplified characters of Chinese move text.
 * @param {string} variant
 * @param {string} code e.g. "S", "+R", "C"
 * @param {Side} side
 * @param {"traditional" | "letters"} labels
 * @returns {string}
 */
export function pieceLabel(variant, code, side, labels) {
  const fam = family(variant);
  if (fam === "xiangqi") {
    if (labels === "traditional") return XIANGQI_HANZI[side][code] ?? code;
    const letters = xiangqiNotation(language()) === "chinese" ? XIANGQI_SIMPLIFIED[side] : WXF_LETTERS;
    return letters[code] ?? code;
  }
  if (labels === "letters") return t(`letter.shogi.${code}`);
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
