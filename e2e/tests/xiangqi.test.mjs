// @ts-check
/**
 * Xiangqi as its players read it: the file numbers along each side's edge,
 * counted from that side's right as the move text counts them; the move list
 * in WXF or Chinese notation, chosen and remembered like shogi's; letters on
 * the pieces that are those of the move list; WXF explained on the rules page.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KOMA_URL, acceptInvitation, createRoom, moveList, newPlayer, play, square, useBrowser } from "../lib/koma.mjs";

const browser = useBrowser();

/**
 * The file numbers above and below the board, left to right as drawn, with the
 * side each edge belongs to.
 * @param {import("playwright-core").Page} page
 */
function fileNumbers(page) {
  return page.evaluate(() => {
    const board = /** @type {Element} */ (document.querySelector("[data-board]"));
    const bars = [...document.querySelectorAll("[data-file-numbers]")];
    const byPosition = bars.map((bar) => ({
      side: bar.getAttribute("data-file-numbers"),
      above: bar.getBoundingClientRect().bottom <= board.getBoundingClientRect().top + 1,
      numbers: [...bar.children].map((span) => span.textContent),
      lefts: [...bar.children].map((span) => Math.round(span.getBoundingClientRect().left)),
    }));
    const files = [...(board.querySelector("[role=row]")?.querySelectorAll("[data-square]") ?? [])].map((sq) => ({
      file: (sq.getAttribute("data-square") ?? "")[0],
      left: Math.round(sq.getBoundingClientRect().left),
    }));
    return { bars: byPosition, files };
  });
}

/**
 * The text on the piece standing on `at`.
 * @param {import("playwright-core").Page} page
 * @param {string} at
 */
const pieceText = (page, at) => page.locator(`${square(at)} [data-piece]`).textContent().then((t) => t?.trim());

test("each side's file numbers run along its own edge, from its right", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  await createRoom(host.page, { variant: "xiangqi", mode: "online" });
  await acceptInvitation(host.page, guest.page);
  const red = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];
  const black = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];
  for (const { page } of [host, guest]) {
    const orientation = await page.locator("[data-board]").getAttribute("data-orientation");
    const { bars, files } = await fileNumbers(page);
    assert.equal(bars.length, 2, "one row of numbers on each edge");
    const below = bars.find((bar) => !bar.above);
    const above = bars.find((bar) => bar.above);
    assert.ok(below && above);
    // The side at the bottom has its numbers below the board, the other above.
    assert.equal(below.side, orientation);
    assert.equal(above.side, orientation === "first" ? "second" : "first");
    // Each number stands over its file: Red counts a..i as 9..1, Black as 1..9.
    for (const bar of bars) {
      bar.lefts.forEach((left, i) => assert.ok(Math.abs(left - files[i].left) <= 2, `number ${i} is over its file`));
      const expected = files.map(({ file }) => (bar.side === "first" ? red : black)["abcdefghi".indexOf(file)]);
      assert.deepEqual(bar.numbers, expected, `${bar.side}'s numbers seen by ${orientation}`);
      // Read left to right, a side's own numbers run from its left (9) to its right (1)
      // when it sits at the bottom.
      if (bar === below) assert.equal(bar.numbers[8], bar.side === "first" ? "一" : "1");
    }
  }
  const orientations = await Promise.all([host, guest].map(({ page }) => page.locator("[data-board]").getAttribute("data-orientation")));
  assert.deepEqual(orientations.sort(), ["first", "second"], "the players see the board from both sides");
  assert.deepEqual([...host.errors, ...guest.errors], [], "no script errors");
  await host.context.close();
  await guest.context.close();
});

test("the move list is WXF or Chinese, remembered, and the letters on the pieces follow it", async () => {
  const { context, page, errors } = await newPlayer(browser(), { locale: "en-US" });
  const id = await createRoom(page, { variant: "xiangqi", mode: "local" });
  const notation = page.locator("select[name=notation]");
  assert.equal(await notation.inputValue(), "wxf", "WXF outside the Chinese page");
  assert.deepEqual(await notation.locator("option").evaluateAll((options) => options.map((o) => /** @type {HTMLOptionElement} */ (o).value)), ["wxf", "chinese"]);
  await play(page, id, "h2e2");
  await play(page, id, "h9g7");
  await play(page, id, "c3c4");
  assert.deepEqual(await moveList(page), ["C2.5", "H8+7", "P7+1"]);

  // Letters on the pieces are the move list's letters: the soldier is P.
  await page.locator("select[name=pieces]").selectOption("letters");
  await page.waitForFunction((selector) => document.querySelector(selector)?.textContent?.trim() === "C", `${square("e2")} [data-piece]`);
  assert.equal(await pieceText(page, "c4"), "P");
  assert.equal(await pieceText(page, "g7"), "H");
  assert.equal(await pieceText(page, "e0"), "K");

  await notation.selectOption("chinese");
  await page.waitForFunction(() => document.querySelector("[data-move-list] [data-ply='1']")?.textContent === "炮二平五");
  assert.deepEqual(await moveList(page), ["炮二平五", "马8进7", "兵七进一"]);
  // ... and the pieces then carry the characters of Chinese move text, each side's own.
  assert.equal(await pieceText(page, "e2"), "炮");
  assert.equal(await pieceText(page, "c4"), "兵");
  assert.equal(await pieceText(page, "c6"), "卒");
  assert.equal(await pieceText(page, "e0"), "帅");
  assert.equal(await pieceText(page, "e9"), "将");

  // Remembered on the device, as the shogi choice is.
  await page.reload();
  await page.locator("[data-move-list] [data-ply='3']").waitFor();
  assert.equal(await notation.inputValue(), "chinese");
  assert.deepEqual(await moveList(page), ["炮二平五", "马8进7", "兵七进一"]);
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("the Chinese page shows Chinese move text by default", async () => {
  const { context, page, errors } = await newPlayer(browser(), { locale: "zh-CN" });
  const id = await createRoom(page, { variant: "xiangqi", mode: "local" });
  assert.equal(await page.locator("select[name=notation]").inputValue(), "chinese");
  await play(page, id, "h2e2");
  await play(page, id, "h9g7");
  await play(page, id, "h0g2");
  await play(page, id, "i9h9");
  assert.deepEqual(await moveList(page), ["炮二平五", "马8进7", "马二进三", "车9平8"]);
  // Choosing WXF there is kept too.
  await page.locator("select[name=notation]").selectOption("wxf");
  await page.waitForFunction(() => document.querySelector("[data-move-list] [data-ply='1']")?.textContent === "C2.5");
  assert.deepEqual(await moveList(page), ["C2.5", "H8+7", "H2+3", "R9.8"]);
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("the rules page explains WXF and Chinese notation with the board's file numbers", async () => {
  const { context, page, errors } = await newPlayer(browser(), { locale: "en-US" });
  await page.goto(`${KOMA_URL}/rules/xiangqi`);
  const section = page.locator("[data-section=notation]");
  await section.waitFor();
  const text = await section.textContent() ?? "";
  for (const example of ["C2.5", "H8+7", "炮二平五", "马8进7", "前炮", "后炮"]) assert.ok(text.includes(example), `explains ${example}`);
  const coordinates = await page.locator("[data-diagram=setup] .rules-coordinates text").allTextContents();
  for (const number of ["一", "九", "1", "9"]) assert.ok(coordinates.includes(number), `the setup diagram shows ${number}`);
  assert.ok(!coordinates.includes("a"), "no ICCS letters on the diagram");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});
