// @ts-check
/**
 * Takebacks: against the computer the player's move and the reply go at once;
 * online the opponent is asked, and declines or accepts on their own page.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { acceptInvitation, createRoom, newPlayer, play, room, useBrowser, waitForPly } from "../lib/koma.mjs";

const browser = useBrowser();

/**
 * Waits until the move list of `page` holds exactly `count` moves.
 * @param {import("playwright-core").Page} page
 * @param {number} count
 */
async function waitForMoves(page, count) {
  await page.waitForFunction((count) => document.querySelectorAll("[data-move-list] [data-ply]").length === count, count);
}

test("against the computer a takeback removes the move and its reply", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const id = await createRoom(page, { variant: "shogi", mode: "computer", level: 1 });
  await play(page, id, "7g7f");
  await waitForPly(page, 2);
  await page.locator("[data-action=takeback]:not([disabled])").click();
  await waitForMoves(page, 0);
  const after = await room(id);
  assert.deepEqual(after.moves, []);
  assert.equal(after.status, "playing");
  assert.equal(after.side_to_move, "first");
  // Play goes on from the start: the computer answers again.
  await play(page, id, "2g2f");
  await waitForPly(page, 2);
  assert.equal((await room(id)).moves[0], "2g2f");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("online the opponent declines a takeback, then accepts one", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  const id = await createRoom(host.page, { variant: "minishogi", mode: "online" });
  await acceptInvitation(host.page, guest.page);
  const players = [host.page, guest.page];
  await play(host.page, id, "5d5c", players);

  await host.page.locator("[data-action=takeback]").click();
  await guest.page.locator("[data-takeback-offer=first]").waitFor();
  await guest.page.locator("[data-action=decline-takeback]").click();
  await host.page.locator("[data-takeback-offer]").waitFor({ state: "detached" });
  assert.deepEqual((await room(id)).moves, ["5d5c"]);

  await host.page.locator("[data-action=takeback]").click();
  await guest.page.locator("[data-action=accept-takeback]").click();
  for (const page of players) await waitForMoves(page, 0);
  const after = await room(id);
  assert.deepEqual(after.moves, []);
  assert.equal(after.takeback_offer, null);
  assert.deepEqual([...host.errors, ...guest.errors], [], "no script errors");
  await host.context.close();
  await guest.context.close();
});
