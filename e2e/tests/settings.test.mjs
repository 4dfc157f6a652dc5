// @ts-check
/**
 * The language and the piece labels: switching either changes what the page
 * shows at once, and the choice is remembered on the device.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import english from "../../web/js/i18n/en.js";
import { KOMA_URL, createRoom, newPlayer, square, useBrowser } from "../lib/koma.mjs";

const browser = useBrowser();

/** @param {import("playwright-core").Page} page */
const lang = (page) => page.locator("html").getAttribute("lang");

test("switching the language changes the texts and <html lang>", async () => {
  const { context, page, errors } = await newPlayer(browser(), { locale: "en-US" });
  await page.goto(`${KOMA_URL}/`);
  const create = page.locator("form[data-new-game] [data-action=create]");
  await create.waitFor();
  assert.equal(await lang(page), "en");
  const englishText = await create.textContent();

  for (const code of ["de", "ja"]) {
    await page.locator("select[name=language]").selectOption(code);
    await page.waitForFunction((code) => document.documentElement.lang === code, code);
    assert.notEqual(await create.textContent(), englishText, `the create button is translated to ${code}`);
  }
  // The choice is remembered: a reload keeps Japanese.
  const japaneseText = await create.textContent();
  await page.reload();
  await create.waitFor();
  assert.equal(await lang(page), "ja");
  assert.equal(await create.textContent(), japaneseText);
  assert.equal(await page.locator("select[name=language]").inputValue(), "ja");

  // In a room too: the status line follows the language.
  await page.locator("select[name=language]").selectOption("en");
  await page.waitForFunction(() => document.documentElement.lang === "en");
  await createRoom(page, { variant: "shogi", mode: "local" });
  const status = page.locator("[data-status]");
  const englishStatus = await status.textContent();
  await page.locator("select[name=language]").selectOption("de");
  await page.waitForFunction(() => document.documentElement.lang === "de");
  await page.waitForFunction((text) => document.querySelector("[data-status]")?.textContent !== text, englishStatus);
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("piece labels switch between traditional characters and letters", async () => {
  const { context, page, errors } = await newPlayer(browser(), { locale: "en-US" });
  /**
   * The text on the piece standing on `at`.
   * @param {string} at
   */
  const label = async (at) => (await page.locator(`${square(at)} [data-piece]`).textContent())?.trim();
  /** @param {string} value */
  const choose = async (value) => {
    await page.locator("select[name=pieces]").selectOption(value);
  };

  await createRoom(page, { variant: "shogi", mode: "local" });
  await choose("traditional");
  await page.waitForFunction((selector) => document.querySelector(selector)?.textContent?.trim() === "歩", `${square("7g")} [data-piece]`);
  assert.equal(await label("8h"), "角");
  assert.equal(await label("2b"), "角");
  await choose("letters");
  await page.waitForFunction((selector) => document.querySelector(selector)?.textContent?.trim() !== "歩", `${square("7g")} [data-piece]`);
  assert.equal(await label("7g"), english["letter.shogi.P"]);
  assert.equal(await label("2h"), english["letter.shogi.R"]);

  // The choice is remembered, and applies to xiangqi pieces of both sides,
  // with the letters of WXF, the move list's notation.
  await createRoom(page, { variant: "xiangqi", mode: "local" });
  assert.equal(await page.locator("select[name=pieces]").inputValue(), "letters");
  const letters = { a0: "R", b0: "H", c0: "E", d0: "A", e0: "K", b2: "C", a3: "P", a6: "P", e9: "K", b9: "H" };
  for (const [at, letter] of Object.entries(letters)) assert.equal(await label(at), letter, at);
  await choose("traditional");
  await page.waitForFunction((selector) => document.querySelector(selector)?.textContent?.trim() === "兵", `${square("a3")} [data-piece]`);
  assert.equal(await label("a6"), "卒");
  assert.equal(await label("b2"), "炮");
  assert.equal(await label("b7"), "砲");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});
