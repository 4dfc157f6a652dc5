// The page's language: one dictionary per language (`i18n/<lang>.js`, the
// interface, merged with `i18n/rules-<lang>.js`, the rules pages), English as
// the fallback for any missing key, and the key itself as the last resort so
// a missing text shows what is missing instead of nothing.

import english from "./i18n/en.js";
import { storeLanguage, storedLanguage } from "./storage.js";

/** Every language the interface may be shown in. */
export const LANGUAGES = ["en", "de", "nl", "ja", "zh"];

/** @type {Record<string, string>} */
let fallback = { ...english };
/** @type {Record<string, string>} */
let dictionary = fallback;
let current = "en";

/**
 * A dictionary module's default export, or an empty one when the module is
 * missing (a language whose translation has not landed yet).
 * @param {string} path
 * @returns {Promise<Record<string, string>>}
 */
async function loadDictionary(path) {
  try {
    const module = await import(path);
    return module.default ?? {};
  } catch {
    return {};
  }
}

/**
 * The text of `key` in the current language, with each `{name}` replaced by
 * `params.name`.
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 * @returns {string}
 */
export function t(key, params) {
  const text = dictionary[key] ?? fallback[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? String(params[name]) : whole,
  );
}

/**
 * The text of `key` for the count `n`, in the plural form the current
 * language uses for it (`key.one`, `key.other` ... as `Intl.PluralRules`
 * names them; `key.other` where a language has no form of its own), with
 * `{n}` and each of `params` replaced.
 * @param {string} key
 * @param {number} n
 * @param {Record<string, string | number>} [params]
 * @returns {string}
 */
export function tn(key, n, params = {}) {
  const form = `${key}.${new Intl.PluralRules(current).select(n)}`;
  const chosen = form in dictionary || form in fallback ? form : `${key}.other`;
  return t(chosen, { ...params, n });
}

/**
 * A player's name as this page shows it: the server's name for a player who
 * gave none ("Anonymous") in the reader's language.
 * @param {string} name
 * @returns {string}
 */
export function shownName(name) {
  return name === "Anonymous" ? t("seat.anonymous") : name;
}

/** @returns {string} the current language's code */
export function language() {
  return current;
}

/**
 * The language to start with: the stored choice, else the first of the
 * browser's languages that Koma speaks, else English.
 * @returns {string}
 */
function initialLanguage() {
  const stored = storedLanguage();
  if (stored && LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const code = tag.toLowerCase().split("-")[0];
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

/**
 * Loads `lang` and makes it current without storing it.
 * @param {string} lang
 */
async function use(lang) {
  const [ui, rules] = await Promise.all([
    lang === "en" ? Promise.resolve(english) : loadDictionary(`./i18n/${lang}.js`),
    loadDictionary(`./i18n/rules-${lang}.js`),
  ]);
  dictionary = { ...ui, ...rules };
  current = lang;
  document.documentElement.lang = lang;
}

/** Loads the first language (and the English rules texts as fallback). */
export async function startI18n() {
  fallback = { ...english, ...(await loadDictionary("./i18n/rules-en.js")) };
  await use(initialLanguage());
}

/**
 * Switches to `lang`, remembers it and tells the page (a `languagechange`
 * event on `window`, with the code as `detail`).
 * @param {string} lang
 */
export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) return;
  await use(lang);
  storeLanguage(lang);
  window.dispatchEvent(new CustomEvent("languagechange", { detail: lang }));
}
