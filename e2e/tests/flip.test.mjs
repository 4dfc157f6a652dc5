// @ts-check
/**
 * The flip button turns the board (and the coordinates beside it) on the room
 * page, for players and spectators alike, and on the replay page.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KOMA_URL, createRoom, newPlayer, play, useBrowser } from "../lib/koma.mjs";

const browser = useBrowser();

/**
 * The board's orientation and the file names above it, left to right.
 * @param {import("playwright-core").Page} page
 */
async function seen(page) {
  const board = page.locator("[data-board]");
  return {
    orientation: await board.getAttribute("data-orientation"),
    files: await page.locator(".coords.files span").allTextContents(),
  };
}

test("the board turns round and back, its coordinates with it", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const id = await createRoom(page, { variant: "shogi", mode: "local" });
  const usual = await seen(page);
  assert.deepEqual(usual, { orientation: "first", files: ["9", "8", "7", "6", "5", "4", "3", "2", "1"] });
  await page.locator("[data-action=flip]").click();
  await page.locator('[data-board][data-orientation="second"]').waitFor();
  assert.deepEqual((await seen(page)).files, ["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
  assert.equal(await page.locator("[data-action=flip]").getAttribute("aria-pressed"), "true");
  // Play goes on on the turned board.
  await play(page, id, "7g7f");
  assert.equal((await seen(page)).orientation, "second");
  await page.locator("[data-action=flip]").click();
  await page.locator('[data-board][data-orientation="first"]').waitFor();

  // A spectator flips too, and the replay page has the button.
  const watcher = await newPlayer(browser());
  await watcher.page.goto(`${KOMA_URL}/rooms/${id}`);
  await watcher.page.locator("[data-action=flip]").click();
  await watcher.page.locator('[data-board][data-orientation="second"]').waitFor();
  await watcher.page.goto(`${KOMA_URL}/replay?room=${id}`);
  await watcher.page.locator('[data-board][data-orientation="first"]').waitFor();
  assert.equal(await watcher.page.locator(".coords.files span").count(), 9, "the replay board has coordinates");
  await watcher.page.locator("[data-action=flip]").click();
  await watcher.page.locator('[data-board][data-orientation="second"]').waitFor();
  assert.deepEqual([...errors, ...watcher.errors], [], "no script errors");
  await context.close();
  await watcher.context.close();
});
