// @ts-check
/**
 * Pieces and move text render on a machine without a CJK font: Chromium runs
 * with a fontconfig that hides every font holding a character of the page's
 * own fonts (`web/fonts`, listed in `scripts/fonts/*.txt`), and every
 * character of the piece labels and of the move list must then draw something
 * other than the missing-glyph box.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { GAMES } from "../lib/games.mjs";
import { createRoom, newPlayer, play, useBrowser } from "../lib/koma.mjs";

/** The CJK characters the page's fonts hold, from the generator's lists. */
const CJK = [..."pieces moves".split(" ").map((name) =>
  readFileSync(new URL(`../../scripts/fonts/${name}.txt`, import.meta.url), "utf8").trim(),
).join("")].filter((c) => (c.codePointAt(0) ?? 0) >= 0x3000);

/**
 * A fontconfig that keeps the system's fonts but rejects every one with
 * Chinese, Japanese or Korean, or with any of `CJK`.
 * @param {string} dir
 */
function fontconfigWithoutCjk(dir) {
  const langs = ["ja", "zh-cn", "zh-tw", "zh-hk", "ko"]
    .map((lang) => `<pattern><patelt name="lang"><string>${lang}</string></patelt></pattern>`);
  const chars = [...new Set(CJK)]
    .map((c) => `<pattern><patelt name="charset"><charset><int>0x${c.codePointAt(0)?.toString(16)}</int></charset></patelt></pattern>`);
  const file = join(dir, "fonts.conf");
  writeFileSync(file, `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <cachedir>${join(dir, "cache")}</cachedir>
  <selectfont><rejectfont>
    ${[...langs, ...chars].join("\n    ")}
  </rejectfont></selectfont>
</fontconfig>
`);
  return file;
}

const dir = mkdtempSync(join(tmpdir(), "koma-fonts-"));
const browser = useBrowser({ env: { FONTCONFIG_FILE: fontconfigWithoutCjk(dir) } });
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * For each element of `selector`, each character of its text drawn on a
 * canvas in the element's own font and, to prove the premise, in the system's
 * fonts alone, each compared with a code point no font has (the missing-glyph
 * box): `{ text, tofu, withoutWebFont }` lists the characters drawn as the box.
 * @param {import("playwright-core").Page} page
 * @param {string} selector
 */
function inkOf(page, selector) {
  return page.evaluate(async (selector) => {
    const canvas = document.createElement("canvas");
    canvas.width = 96;
    canvas.height = 96;
    const context = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d", { willReadFrequently: true }));
    /** @param {string} font @param {string} text */
    const pixels = (font, text) => {
      context.clearRect(0, 0, canvas.width, canvas.height);
      context.font = font;
      context.textBaseline = "middle";
      context.fillText(text, 16, 48);
      return context.getImageData(0, 0, canvas.width, canvas.height).data;
    };
    /** @param {Uint8ClampedArray} a @param {Uint8ClampedArray} b */
    const same = (a, b) => a.every((value, i) => value === b[i]);
    /** @param {Uint8ClampedArray} a */
    const ink = (a) => a.some((value, i) => i % 4 === 3 && value > 0);
    const results = [];
    for (const element of document.querySelectorAll(selector)) {
      const style = getComputedStyle(element);
      const text = (element.textContent ?? "").trim();
      const font = `${style.fontWeight} 48px ${style.fontFamily}`;
      const system = `${style.fontWeight} 48px serif`;
      await document.fonts.load(font, text);
      const missing = pixels(font, "\u0378");
      const tofu = [];
      const withoutWebFont = [];
      for (const c of new Set(text)) {
        if ((c.codePointAt(0) ?? 0) < 0x3000) continue;
        if (same(pixels(font, c), missing)) tofu.push(c);
        if (!same(pixels(system, c), pixels(system, "\u0378"))) withoutWebFont.push(c);
      }
      results.push({ text, inked: ink(pixels(font, text)), tofu, withoutWebFont });
    }
    return results;
  }, selector);
}

for (const variant of Object.keys(GAMES)) {
  test(`${variant}: piece labels and move text have ink without system CJK fonts`, async () => {
    const { context, page, errors } = await newPlayer(browser(), { locale: variant === "xiangqi" ? "zh-CN" : "ja-JP" });
    const id = await createRoom(page, { variant, mode: "local" });
    await play(page, id, GAMES[variant].moves[0]);

    const labels = await inkOf(page, "[data-board] [data-piece] text");
    const moves = await inkOf(page, "[data-move-list] [data-ply]");
    assert.ok(labels.length >= 10, `${labels.length} pieces on the board`);
    assert.equal(moves.length, 1, "the move is listed");
    for (const { text, inked, tofu, withoutWebFont } of [...labels, ...moves]) {
      assert.ok(/[\u3000-\uffff]/u.test(text), `"${text}" is written in CJK characters`);
      assert.deepEqual(withoutWebFont, [], `"${text}": the system still has a font for ${withoutWebFont.join("")}`);
      assert.ok(inked, `"${text}" has ink`);
      assert.deepEqual(tofu, [], `"${text}": ${tofu.join("")} drawn as the missing-glyph box`);
    }
    const loaded = await page.evaluate(() =>
      [...document.fonts].filter((face) => face.status === "loaded").map((face) => face.family.replace(/"/g, "")),
    );
    assert.ok(loaded.includes("Koma Pieces") && loaded.includes("Koma Moves"), `loaded fonts: ${loaded.join(", ")}`);
    assert.deepEqual(errors, [], "no script errors");
    await context.close();
  });
}
