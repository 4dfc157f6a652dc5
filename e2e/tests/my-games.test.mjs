// @ts-check
/**
 * "My games": a game this device's player finished is listed, newest first,
 * with its result and links to its room, replay and analysis.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { KOMA_URL, assertResult, createRoom, launch, newPlayer, play, waitForPly } from "../lib/koma.mjs";

/** @type {import("playwright-core").Browser} */
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("my games lists a finished game and the running one above it", async () => {
  const { context, page, errors } = await newPlayer(browser);
  const lost = await createRoom(page, { variant: "minishogi", mode: "computer", level: 1 });
  await play(page, lost, "5d5c");
  await waitForPly(page, 2);
  await page.locator("[data-action=resign]").click();
  await page.locator("[data-action=confirm-resign]").click();
  await assertResult(page, "second", "resignation");
  await page.goto(`${KOMA_URL}/`);
  const running = await createRoom(page, { variant: "shogi", mode: "local" });

  await page.goto(`${KOMA_URL}/`);
  await page.locator("[data-games-link]").click();
  await page.waitForURL(/\/games$/);
  const rows = page.locator("[data-games] [data-game]");
  await rows.nth(1).waitFor();
  assert.deepEqual(
    await rows.evaluateAll((items) => items.map((item) => item.getAttribute("data-game"))),
    [running, lost],
    "newest first",
  );
  const finished = page.locator(`[data-game="${lost}"]`);
  assert.equal(await finished.getAttribute("data-result"), "loss");
  const text = await finished.textContent() ?? "";
  assert.match(text, /Minishogi/);
  assert.match(text, /against Computer/);
  assert.match(text, /Lost \(resignation\)/);
  assert.equal(await finished.locator("[data-link=replay]").getAttribute("href"), `/replay?room=${lost}`);
  assert.equal(await finished.locator("[data-link=analysis]").getAttribute("href"), `/replay?room=${lost}&analyse=1`);
  await finished.locator("[data-link=room]").click();
  await page.waitForURL(new RegExp(`/rooms/${lost}$`));
  await assertResult(page, "second", "resignation");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});
