// Every translation must have exactly the keys of English, for the interface
// dictionaries (`web/js/i18n/<lang>.js`) and the rules pages
// (`web/js/i18n/rules-<lang>.js`) separately, keep every `{param}` English
// uses, and leave no text empty. Then every rules page is rendered in every
// language into a minimal fake DOM, and no text may be a bare key (a key that
// no dictionary has, English included). Plain Node, no browser:
//   node --test e2e/i18n-keys.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";

const TRANSLATIONS = ["de", "nl", "ja", "zh"];
const DICTIONARIES = { interface: "", rules: "rules-" };

/**
 * @param {string} file e.g. "rules-de"
 * @returns {Promise<Record<string, string>>}
 */
async function load(file) {
  const module = await import(new URL(`../web/js/i18n/${file}.js`, import.meta.url).href);
  return module.default;
}

/**
 * The `{name}` parameters of a text. `{name_lower}` is the same value in lower
 * case (English writes "Sente pawn"; German keeps the noun's capital with
 * `{piece}`), so both count as `name`.
 * @param {string} text
 * @returns {string[]}
 */
function params(text) {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1].replace(/_lower$/, ""));
}

for (const [kind, prefix] of Object.entries(DICTIONARIES)) {
  test(`${kind}: English texts are non-empty strings`, async () => {
    const english = await load(`${prefix}en`);
    assert.ok(Object.keys(english).length > 0, "English dictionary is empty");
    for (const [key, text] of Object.entries(english)) {
      assert.equal(typeof text, "string", `${key} is not a string`);
      assert.notEqual(text.trim(), "", `${key} is empty`);
    }
  });

  for (const lang of TRANSLATIONS) {
    test(`${kind}: ${lang} has exactly the English keys and keeps their {params}`, async () => {
      const english = await load(`${prefix}en`);
      const translated = await load(`${prefix}${lang}`);
      const missing = Object.keys(english).filter((key) => !(key in translated));
      const extra = Object.keys(translated).filter((key) => !(key in english));
      assert.deepEqual(missing, [], `${prefix}${lang}.js lacks keys`);
      assert.deepEqual(extra, [], `${prefix}${lang}.js has keys English does not`);
      for (const [key, text] of Object.entries(translated)) {
        assert.equal(typeof text, "string", `${lang} ${key} is not a string`);
        assert.notEqual(text.trim(), "", `${lang} ${key} is empty`);
        const wanted = params(english[key]);
        const got = params(text);
        for (const name of wanted) {
          assert.ok(got.includes(name), `${lang} ${key} drops {${name}}: "${text}"`);
        }
        for (const name of got) {
          assert.ok(wanted.includes(name), `${lang} ${key} has {${name}}, which English does not pass`);
        }
      }
    });
  }
}

test("no key is in both the interface and the rules dictionaries (the rules one would hide the other)", async () => {
  const ui = await load("en");
  const rules = await load("rules-en");
  assert.deepEqual(Object.keys(rules).filter((key) => key in ui), []);
});

/**
 * Just enough DOM for rules.js: elements with attributes, children and text.
 * Enough to render every page under Node and read back what a reader would see.
 */
class FakeElement {
  /** @param {string} tag */
  constructor(tag) {
    this.tag = tag;
    /** @type {Record<string, string>} */
    this.attributes = {};
    /** @type {Array<FakeElement | string>} */
    this.children = [];
  }
  /** @param {string} name @param {string} value */
  setAttribute(name, value) {
    this.attributes[name] = String(value);
  }
  /** @param {...(FakeElement | string)} nodes */
  append(...nodes) {
    for (const node of nodes) {
      if (node instanceof FakeElement && node.tag === "#fragment") this.children.push(...node.children);
      else this.children.push(node);
    }
  }
  replaceChildren() {
    this.children = [];
  }
  /** @param {string} text */
  set textContent(text) {
    this.children = [String(text)];
  }
  /** @returns {FakeElement[]} this element and every element below it */
  all() {
    return [this, ...this.children.flatMap((c) => (c instanceof FakeElement ? c.all() : []))];
  }
}

/** Installs the fake page globals once: document, window, localStorage, navigator. */
function installFakePage() {
  /** @type {Map<string, string>} */
  const stored = new Map();
  Object.assign(globalThis, {
    document: {
      documentElement: { lang: "" },
      createElement: (/** @type {string} */ tag) => new FakeElement(tag),
      createElementNS: (/** @type {string} */ _ns, /** @type {string} */ tag) => new FakeElement(tag),
      createDocumentFragment: () => new FakeElement("#fragment"),
    },
    window: globalThis,
    localStorage: {
      getItem: (/** @type {string} */ key) => stored.get(key) ?? null,
      setItem: (/** @type {string} */ key, /** @type {string} */ value) => stored.set(key, String(value)),
      removeItem: (/** @type {string} */ key) => stored.delete(key),
    },
  });
  Object.defineProperty(globalThis, "navigator", { value: { languages: ["en"] }, configurable: true });
  if (!globalThis.dispatchEvent) globalThis.dispatchEvent = () => true;
}

test("rules pages render in every language and label with no missing text", async () => {
  installFakePage();
  const { startI18n, setLanguage, LANGUAGES } = await import("../web/js/i18n.js");
  const { renderRules } = await import("../web/js/rules.js");
  await startI18n();
  const rawKey = /^(rules|piece|letter)\.[\w.+-]+$/;
  for (const lang of LANGUAGES) {
    await setLanguage(lang);
    for (const labels of ["traditional", "letters"]) {
      localStorage.setItem("koma.pieces", labels);
      for (const variant of ["shogi", "minishogi", "annan", "xiangqi"]) {
        const root = new FakeElement("main");
        renderRules(/** @type {any} */ (root), variant);
        const elements = root.all();
        const where = `${variant} in ${lang} with ${labels} labels`;
        assert.ok(elements.some((e) => e.attributes["data-rules"] === variant), `no article for ${where}`);
        const diagrams = elements.filter((e) => e.tag === "svg" && e.attributes["data-diagram"]);
        assert.ok(diagrams.length >= 8, `${where}: only ${diagrams.length} diagrams`);
        for (const svg of diagrams) {
          assert.equal(svg.attributes.role, "img", `${where}: ${svg.attributes["data-diagram"]} has no role`);
          assert.ok(svg.attributes["aria-label"]?.trim(), `${where}: ${svg.attributes["data-diagram"]} has no aria-label`);
        }
        const texts = elements.flatMap((e) => [
          ...e.children.filter((c) => typeof c === "string"),
          ...Object.values(e.attributes),
        ]);
        assert.deepEqual(texts.filter((text) => rawKey.test(text.trim())), [], `${where}: texts without a translation`);
        assert.deepEqual(texts.filter((text) => /\{\w+\}/.test(text)), [], `${where}: unfilled {params}`);
      }
    }
  }
});
