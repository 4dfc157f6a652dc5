// @ts-check
/**
 * Looking back through a game: the move list keeps the reviewed move in
 * view, the status and the impasse points are the reviewed position's, and
 * Home and End jump to the start and the end.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { GAMES } from "../lib/games.mjs";
import { KOMA_URL, createRoom, newPlayer, room, useBrowser, waitForPly } from "../lib/koma.mjs";

const browser = useBrowser();

test("reviewing move 8 of 32 shows move 8 in the list, its side to move and its impasse points", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const id = await createRoom(page, { variant: "shogi", mode: "local" });
  const token = await page.evaluate((id) => JSON.parse(localStorage.getItem(`koma.room.${id}`) ?? "{}").token, id);
  const moves = GAMES.shogi.moves.slice(0, 32);
  for (const move of moves) {
    const response = await fetch(`${KOMA_URL}/api/v1/rooms/${id}/moves`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ move }),
    });
    assert.equal(response.status, 200, `${move}: ${await response.text()}`);
  }
  await waitForPly(page, 32);
  const live = await room(id);
  // The first eight moves capture nothing: 27 points each, as at the start; later captures changed that.
  assert.notDeepEqual(live.impasse_points, { first: 27, second: 27 });
  const status = page.locator("[data-status]");
  assert.equal(await status.textContent(), "Sente to move.");

  await page.locator("[data-move-list] [data-ply='32']").click();
  for (let i = 0; i < 24; i++) await page.keyboard.press("ArrowLeft");
  await page.locator("[data-status][data-review='8']").waitFor();
  assert.equal(await status.textContent(), "Move 8 of 32: Sente to move");
  const points = await page.locator("[data-impasse-points]").evaluateAll((all) =>
    Object.fromEntries(all.map((p) => [p.getAttribute("data-impasse-points"), p.textContent])));
  assert.deepEqual(points, { first: "27", second: "27" });
  // The reviewed move stands inside the list's scrolled box.
  const inView = await page.locator("[data-move-list]").evaluate((list) => {
    const box = list.getBoundingClientRect();
    const shown = list.querySelector("[data-ply='8']")?.getBoundingClientRect();
    return Boolean(shown && shown.top >= box.top && shown.bottom <= box.bottom);
  });
  assert.ok(inView, "move 8 is in view in the move list");

  await page.keyboard.press("Home");
  await page.locator("[data-status][data-review='0']").waitFor();
  assert.equal(await status.textContent(), "Start position: Sente to move");
  await page.keyboard.press("End");
  await page.locator("[data-status]:not([data-review])").waitFor();
  assert.equal(await status.textContent(), "Sente to move.");
  const last = await page.locator("[data-move-list]").evaluate((list) => {
    const box = list.getBoundingClientRect();
    const shown = list.querySelector("[data-ply='32']")?.getBoundingClientRect();
    return Boolean(shown && shown.top >= box.top && shown.bottom <= box.bottom);
  });
  assert.ok(last, "the last move is in view again");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});
