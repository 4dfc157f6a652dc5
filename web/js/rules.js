// The rules page of one game: sections of text from the rules dictionaries
// (`i18n/rules-<lang>.js`) and the diagrams of `diagrams.js`, fed by the
// setups, windows and examples below. This file only lays them out.

import { diagram } from "./diagrams.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { pieceName } from "./pieces.js";

/** @typedef {import("./diagrams.js").Side} Side */
/** @typedef {import("./diagrams.js").Point} Point */
/** @typedef {import("./diagrams.js").Diagram} Diagram */

/**
 * The pieces explained on each page: the two that never promote, then each
 * piece followed by its promoted form, so pairs share a row in an even grid.
 * @type {Record<string, string[]>}
 */
const PIECES = {
  shogi: ["K", "G", "R", "+R", "B", "+B", "S", "+S", "N", "+N", "L", "+L", "P", "+P"],
  minishogi: ["K", "G", "R", "+R", "B", "+B", "S", "+S", "P", "+P"],
  xiangqi: ["K", "A", "B", "N", "R", "C", "P"],
};
PIECES.annan = PIECES.shogi;

/**
 * Start positions (board part of the SFEN/FEN).
 * @type {Record<string, string>}
 */
const SETUP = {
  shogi: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
  minishogi: "rbsgk/4p/5/P4/KGSBR",
  xiangqi: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
};
SETUP.annan = SETUP.shogi;
/** Annan's `traditional` setup (house rule `annan_setup`). */
const ANNAN_TRADITIONAL = "lnsgkgsnl/1r5b1/p1ppppp1p/1p5p1/9/1P5P1/P1PPPPP1P/1B5R1/LNSGKGSNL";

/**
 * The xiangqi piece diagrams: a window onto the real board (so river and
 * palace are where they belong), with blockers where a piece can be blocked.
 * @type {Record<string, {origin: Point, files: number, ranks: number, pieces: Array<[number, number, string, Side]>, movers: Point[]}>}
 */
const XIANGQI_WINDOWS = {
  K: { origin: [2, 0], files: 5, ranks: 4, pieces: [[2, 1, "K", "first"]], movers: [[2, 1]] },
  A: { origin: [2, 0], files: 5, ranks: 4, pieces: [[2, 1, "A", "first"]], movers: [[2, 1]] },
  B: {
    origin: [2, 0], files: 5, ranks: 6,
    pieces: [[2, 2, "B", "first"], [3, 3, "P", "first"]],
    movers: [[2, 2]],
  },
  N: {
    origin: [0, 0], files: 5, ranks: 5,
    pieces: [[2, 2, "N", "first"], [2, 3, "P", "first"]],
    movers: [[2, 2]],
  },
  R: {
    origin: [0, 2], files: 5, ranks: 5,
    pieces: [[2, 2, "R", "first"], [2, 4, "N", "second"], [0, 2, "P", "first"]],
    movers: [[2, 2]],
  },
  C: {
    origin: [0, 1], files: 5, ranks: 6,
    pieces: [[2, 0, "C", "first"], [2, 2, "P", "first"], [2, 4, "R", "second"], [4, 0, "N", "second"]],
    movers: [[2, 0]],
  },
  P: {
    origin: [0, 2], files: 5, ranks: 6,
    pieces: [[1, 1, "P", "first"], [3, 3, "P", "first"]],
    movers: [[1, 1], [3, 3]],
  },
};

/** The flying-general example: Red's general on d0, Black's on e9, the e-file open. */
const FLYING_GENERAL = {
  origin: /** @type {Point} */ ([2, 0]), files: 5, ranks: 10,
  pieces: /** @type {Array<[number, number, string, Side]>} */ ([[1, 0, "K", "first"], [2, 9, "K", "second"]]),
  movers: /** @type {Point[]} */ ([[1, 0]]),
};

/** Annan's borrowed movement, one example per caption (5×5 windows, the mover in the middle). */
const ANNAN_EXAMPLES = [
  { caption: "rules.annan.example.rook", pieces: [[2, 2, "S", "first"], [2, 1, "R", "first"]] },
  { caption: "rules.annan.example.gote", pieces: [[2, 2, "P", "second"], [2, 3, "N", "second"]] },
  { caption: "rules.annan.example.king", pieces: [[2, 2, "G", "first"], [2, 1, "K", "first"]] },
  { caption: "rules.annan.example.kingBorrows", pieces: [[2, 2, "K", "first"], [2, 1, "L", "first"]] },
  { caption: "rules.annan.example.enemy", pieces: [[2, 2, "P", "first"], [2, 1, "R", "second"]] },
];

/**
 * The house rules each game's rooms offer: the game's own
 * rules first, then clock, move limit and the rest. Xiangqi's `illegal_move_loses`
 * text names its own illegal moves.
 * @type {Record<string, string[]>}
 */
const HOUSE_RULES = {
  shogi: ["handicap", "impasse", "time_per_move", "main_time", "move_limit", "illegal_move_loses", "swap_first_player", "show_targets", "rated", "chat"],
  minishogi: ["time_per_move", "main_time", "move_limit", "illegal_move_loses", "swap_first_player", "show_targets", "rated", "chat"],
  annan: ["annan_setup", "annan_dead_piece", "impasse", "time_per_move", "main_time", "move_limit", "illegal_move_loses", "swap_first_player", "show_targets", "rated", "chat"],
  xiangqi: ["time_per_move", "main_time", "move_limit", "illegal_move_loses", "swap_first_player", "show_targets", "rated", "chat"],
};

/**
 * Renders the rules of `variant` into `container`, replacing what was there, in
 * the current language and piece labels. Unknown variants get a short notice.
 * @param {HTMLElement} container
 * @param {string} variant shogi, minishogi, annan or xiangqi
 */
export function renderRules(container, variant) {
  container.replaceChildren();
  if (!(variant in PIECES)) {
    container.append(el("p", {}, t("rules.unknown", { variant })));
    return;
  }
  const article = el("article", { class: "rules-page", "data-rules": variant });
  article.append(el("h1", {}, t(`rules.title.${variant}`)), ...sections(variant));
  container.append(article);
}

/**
 * The page's sections, in reading order.
 * @param {string} variant
 * @returns {HTMLElement[]}
 */
function sections(variant) {
  const shogiFamily = variant !== "xiangqi";
  /** @type {HTMLElement[]} */
  const page = [
    section("setup", paragraphs(`rules.${variant}.setup`, `rules.${variant === "annan" ? "shogi" : variant}.coordinates`), setupFigure(variant, SETUP[variant], "setup")),
    section("goal", paragraphs(shogiFamily ? "rules.shogi.goal" : "rules.xiangqi.goal")),
  ];
  if (variant === "annan") page.push(section("support", paragraphs("rules.annan.support", "rules.annan.attacks"), annanExamples()));
  page.push(section("pieces", paragraphs(shogiFamily ? "rules.legend.shogi" : "rules.legend.xiangqi"), pieceFigures(variant)));
  if (shogiFamily) {
    const game = variant === "minishogi" ? "minishogi" : "shogi";
    page.push(
      section("promotion", paragraphs(`rules.${game}.zone`, `rules.${game}.forced`, variant === "annan" ? "rules.annan.promotion" : "")),
      section("drops", paragraphs("rules.shogi.capture", "rules.shogi.drop"), terms([
        ["nifu", variant === "annan" ? "rules.annan.nifu" : "rules.shogi.nifu"],
        ["dead", `rules.${variant}.dead`],
        ["uchifuzume", variant === "annan" ? "rules.annan.uchifuzume" : "rules.shogi.uchifuzume"],
      ])),
      section("end", terms(endRules(variant))),
    );
  } else {
    page.push(
      section("notation", paragraphs("rules.xiangqi.wxf", "rules.xiangqi.chinese", "rules.xiangqi.tandem")),
      section("special", terms([
        ["flying", "rules.xiangqi.flying", flyingGeneral()],
        ["stalemate", "rules.xiangqi.stalemate"],
        ["repetition", "rules.xiangqi.repetition"],
        ["chase", "rules.xiangqi.chase"],
        ["draw", "rules.xiangqi.draw"],
        ["other", "rules.xiangqi.other"],
      ])),
    );
  }
  page.push(section("house", paragraphs("rules.house.intro"), houseRules(variant)));
  return page;
}

/**
 * @typedef {[string, string, Node?]} Term a term's name, its text's key, and what follows the text
 */

/**
 * The ways a game of the shogi family ends.
 * @param {string} variant
 * @returns {Term[]}
 */
function endRules(variant) {
  if (variant === "minishogi") {
    return [["mate", "rules.shogi.mate"], ["repetition", "rules.minishogi.repetition"], ["other", "rules.shogi.other"]];
  }
  return [
    ["mate", "rules.shogi.mate"],
    ["sennichite", "rules.shogi.sennichite"],
    ["perpetual", "rules.shogi.perpetual"],
    ["impasse", "rules.shogi.impasse", terms([["impasse24", "rules.shogi.impasse24"], ["impasse27", "rules.shogi.impasse27"]])],
    ["other", "rules.shogi.other"],
  ];
}

/**
 * @param {string} name the section's `data-section` and heading key
 * @param {...Node} content
 * @returns {HTMLElement}
 */
function section(name, ...content) {
  const element = el("section", { class: "rules-section", "data-section": name });
  element.append(el("h2", {}, t(`rules.heading.${name}`)), ...content);
  return element;
}

/**
 * One paragraph per key; empty keys are skipped.
 * @param {...string} keys
 * @returns {DocumentFragment}
 */
function paragraphs(...keys) {
  const fragment = document.createDocumentFragment();
  for (const key of keys) if (key) fragment.append(el("p", {}, t(key)));
  return fragment;
}

/**
 * A definition list: the term `rules.term.<name>`, its text, and any sub-terms or figure.
 * @param {Term[]} entries
 * @returns {HTMLElement}
 */
function terms(entries) {
  const list = el("dl", { class: "rules-terms" });
  for (const [name, key, details] of entries) {
    const text = el("dd", {}, t(key));
    if (details) text.append(details);
    list.append(el("dt", {}, t(`rules.term.${name}`)), text);
  }
  return list;
}

/**
 * A diagram captioned by the text it illustrates (which is also its aria-label).
 * @param {Diagram} d with `label` the caption's key
 * @param {string} className
 * @returns {HTMLElement}
 */
function example(d, className) {
  const caption = t(d.label);
  const figure = el("figure", { class: className });
  figure.append(diagram({ ...d, label: caption }), el("figcaption", {}, caption));
  return figure;
}

/** @returns {HTMLElement} the flying-general example */
function flyingGeneral() {
  const d = { name: "flying-general", variant: "xiangqi", ...FLYING_GENERAL, label: "rules.xiangqi.flyingExample" };
  return example(d, "rules-piece rules-example");
}

/**
 * @param {string} variant
 * @returns {HTMLElement}
 */
function houseRules(variant) {
  const list = el("dl", { class: "rules-terms" });
  for (const key of HOUSE_RULES[variant]) {
    const text = key === "illegal_move_loses" && variant === "xiangqi" ? "rules.house.illegal_move_loses.xiangqi" : `rules.house.${key}`;
    const dd = el("dd", {}, t(text));
    if (key === "annan_dead_piece") {
      const options = el("ul", {});
      for (const value of ["allowed-if-supported", "by-original-type", "always-allowed"]) {
        options.append(el("li", {}, t(`rules.house.annan_dead_piece.${value}`)));
      }
      dd.append(options);
    }
    if (key === "annan_setup") dd.append(setupFigure("annan", ANNAN_TRADITIONAL, "setup-traditional"));
    list.append(el("dt", { "data-setting": key }, t(`rules.setting.${key}`)), dd);
  }
  return list;
}

/**
 * A start position as a figure.
 * @param {string} variant
 * @param {string} placement
 * @param {string} name
 * @returns {HTMLElement}
 */
function setupFigure(variant, placement, name) {
  const rows = placement.split("/");
  /** @type {Array<[number, number, string, Side]>} */
  const pieces = [];
  let files = 0;
  rows.forEach((row, index) => {
    let x = 0;
    for (const match of row.matchAll(/\+?[a-zA-Z]|\d/g)) {
      const token = match[0];
      if (/\d/.test(token)) {
        x += Number(token);
        continue;
      }
      const letter = token.slice(-1);
      const side = letter === letter.toUpperCase() ? "first" : "second";
      pieces.push([x, rows.length - 1 - index, token.toUpperCase(), side]);
      x += 1;
    }
    files = Math.max(files, x);
  });
  const label = t(name === "setup" ? "rules.aria.setup" : "rules.aria.setupTraditional");
  const figure = el("figure", { class: "rules-setup" });
  figure.append(diagram({ name, variant, files, ranks: rows.length, pieces, coordinates: true, label }));
  return figure;
}

/**
 * One figure per piece: the diagram and what it says.
 * @param {string} variant
 * @returns {HTMLElement}
 */
function pieceFigures(variant) {
  const grid = el("div", { class: "rules-pieces" });
  for (const code of PIECES[variant]) {
    const name = pieceName(variant, code);
    const view = variant === "xiangqi"
      ? XIANGQI_WINDOWS[code]
      : { origin: /** @type {Point} */ ([0, 0]), files: 5, ranks: 5, pieces: [[2, 2, code, "first"]], movers: [[2, 2]] };
    const figure = el("figure", { class: "rules-piece", "data-piece-rules": code });
    const caption = el("figcaption", {});
    caption.append(el("strong", {}, name), " ", t(`rules.move.${variant === "xiangqi" ? "xiangqi" : "shogi"}.${code}`));
    figure.append(
      diagram({
        name: `piece-${code}`, variant, ...view,
        pieces: /** @type {Array<[number, number, string, Side]>} */ (view.pieces),
        movers: /** @type {Point[]} */ (view.movers),
        label: t("rules.aria.piece", { piece: name }),
      }),
      caption,
    );
    grid.append(figure);
  }
  return grid;
}

/** @returns {HTMLElement} Annan's examples of borrowed movement */
function annanExamples() {
  const grid = el("div", { class: "rules-pieces" });
  ANNAN_EXAMPLES.forEach(({ caption, pieces }, index) => {
    grid.append(example({
      name: `annan-example-${index + 1}`, variant: "annan", files: 5, ranks: 5,
      pieces: /** @type {Array<[number, number, string, Side]>} */ (pieces),
      movers: [[2, 2]],
      label: caption,
    }, "rules-piece"));
  });
  return grid;
}
