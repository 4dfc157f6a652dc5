// The page's router: every page path is served this same document, and the
// path picks what to draw: `/` (home and lobby), `/rooms/{id}` (a room),
// `/rules/{variant}` (a rules page), `/replay` (a game record on the board). It also owns the header's language and
// piece-label choices, and the live region that reads moves aloud.

import { el } from "./dom.js";
import { LANGUAGES, language, setLanguage, startI18n, t } from "./i18n.js";
import { VARIANTS, renderHome } from "./lobby.js";
import { renderGames } from "./games.js";
import { renderReplay } from "./replay.js";
import { renderRoom } from "./room.js";
import { pieceLabels, setPieceLabels } from "./storage.js";

/**
 * Names of the languages in themselves, for the language menu.
 * @type {Record<string, string>}
 */
const LANGUAGE_NAMES = { en: "English", de: "Deutsch", nl: "Nederlands", ja: "日本語", zh: "中文" };

/** @type {{ stop: () => void, rerender: () => void } | null} */
let current = null;

/** @param {string} text read to screen readers */
function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  // Cleared first, so the same words twice are still announced.
  region.textContent = "";
  window.setTimeout(() => (region.textContent = text), 50);
}

/** Draws the header's texts and choices in the current language. */
function renderHeader() {
  const home = document.querySelector("[data-nav=home]");
  if (home) home.textContent = t("nav.home");
  const rules = document.querySelector("[data-nav=rules]");
  if (rules) rules.textContent = t("nav.rules");
  const skip = document.querySelector(".skip");
  if (skip) skip.textContent = t("nav.skip");

  const lang = document.querySelector("select[name=language]");
  if (lang instanceof HTMLSelectElement) {
    lang.setAttribute("aria-label", t("header.language"));
    lang.replaceChildren(
      ...LANGUAGES.map((code) => new Option(LANGUAGE_NAMES[code], code, false, code === language())),
    );
  }
  const pieces = document.querySelector("select[name=pieces]");
  if (pieces instanceof HTMLSelectElement) {
    pieces.setAttribute("aria-label", t("header.pieces"));
    pieces.replaceChildren(
      ...["traditional", "letters"].map(
        (value) => new Option(t(`pieces.${value}`), value, false, value === pieceLabels()),
      ),
    );
  }
}

/**
 * The rules page of `variant`, drawn by `rules.js` (loaded only here, so the
 * rest of the site works while it is missing).
 * @param {HTMLElement} main
 * @param {string} variant
 */
async function renderRulesPage(main, variant) {
  const game = VARIANTS.includes(variant) ? t(`variant.${variant}`) : variant;
  document.title = t("title.rules", { game });
  const nav = el("nav", { class: "rules-nav", "aria-label": t("nav.rules") });
  for (const v of VARIANTS) {
    nav.append(el("a", { href: `/rules/${v}`, "aria-current": v === variant ? "page" : undefined }, t(`variant.${v}`)));
  }
  const content = el("article", { class: "rules" });
  main.replaceChildren(nav, content);
  if (!VARIANTS.includes(variant)) {
    content.textContent = t("rules.unknown", { variant });
    return;
  }
  try {
    // A path in a variable: the module is another helper's and may be absent.
    const path = "./rules.js";
    const rules = await import(path);
    rules.renderRules(content, variant);
  } catch (err) {
    content.textContent = t("rules.unavailable");
    console.error(err);
  }
}

/**
 * An address that names no page: say so, and offer the way home.
 * @param {HTMLElement} main
 */
function renderNotFound(main) {
  document.title = t("title.not_found");
  const section = el("section", { class: "panel", "data-not-found": "" });
  const home = el("p");
  home.append(el("a", { href: "/", "data-home-link": "" }, t("page.home_link")));
  section.append(el("h1", {}, t("page.not_found")), home);
  main.replaceChildren(section);
}

/** Draws the page the address names. */
function route() {
  const main = document.getElementById("main");
  if (!main) return;
  current?.stop();
  current = null;
  const path = window.location.pathname;
  const room = path.match(/^\/rooms\/([^/]+)\/?$/);
  const rules = path.match(/^\/rules\/([^/]+)\/?$/);
  if (room) {
    current = renderRoom(main, decodeURIComponent(room[1]), announce);
  } else if (/^\/replay\/?$/.test(path)) {
    current = renderReplay(main);
  } else if (/^\/games\/?$/.test(path)) {
    current = renderGames(main);
  } else if (rules) {
    const variant = decodeURIComponent(rules[1]);
    renderRulesPage(main, variant);
    current = { stop: () => {}, rerender: () => renderRulesPage(main, variant) };
  } else if (path === "/") {
    const stop = renderHome(main);
    current = { stop, rerender: () => route() };
  } else {
    renderNotFound(main);
    current = { stop: () => {}, rerender: () => renderNotFound(main) };
  }
}

async function start() {
  await startI18n();
  renderHeader();
  const lang = document.querySelector("select[name=language]");
  lang?.addEventListener("change", () => {
    if (lang instanceof HTMLSelectElement) setLanguage(lang.value);
  });
  const pieces = document.querySelector("select[name=pieces]");
  pieces?.addEventListener("change", () => {
    if (!(pieces instanceof HTMLSelectElement)) return;
    setPieceLabels(pieces.value === "letters" ? "letters" : "traditional");
    current?.rerender();
  });
  window.addEventListener("languagechange", () => {
    renderHeader();
    current?.rerender();
  });
  route();
}

start();
