// @ts-check
/**
 * The room page keeps its room up to date from the socket's events, which
 * carry what changed: two players and a spectator play a game with a clock,
 * and no page fetches the room JSON per move; all three show the same moves,
 * clocks and end. A spectator whose socket dropped fetches the room once
 * when it reopens and catches up.
 *
 * The spectator's socket is routed through Playwright, as in
 * reconnect.test.mjs, so that cutting the network closes it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  KOMA_URL, acceptInvitation, assertResult, createRoom, moveList, newPlayer, play, useBrowser, waitForPly,
} from "../lib/koma.mjs";

const browser = useBrowser();

/**
 * Counts the page's fetches of the room JSON (`GET /api/v1/rooms/{id}`,
 * nothing under it).
 * @param {import("playwright-core").Page} page
 * @param {string} id
 * @returns {{ count: number }}
 */
function roomGets(page, id) {
  const counter = { count: 0 };
  const path = `/api/v1/rooms/${id}`;
  page.on("request", (request) => {
    if (request.method() === "GET" && new URL(request.url()).pathname === path) counter.count += 1;
  });
  return counter;
}

/**
 * What a page shows of the game: moves, each side's clock, the result.
 * @param {import("playwright-core").Page} page
 */
async function shown(page) {
  return {
    moves: await moveList(page),
    clocks: [
      await page.locator("[data-clock=first]").textContent(),
      await page.locator("[data-clock=second]").textContent(),
    ],
    result: await page.locator("[data-result]").getAttribute("data-winner"),
  };
}

test("moves reach both players and a spectator without a room fetch per move", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  const watcher = await newPlayer(browser());

  let offline = false;
  /** @type {Set<{page: import("playwright-core").WebSocketRoute, server: import("playwright-core").WebSocketRoute}>} */
  const sockets = new Set();
  await watcher.context.routeWebSocket(/\/api\/v1\/rooms\/[^/?]+\/ws/, (ws) => {
    if (offline) {
      ws.close({ code: 4000, reason: "offline" });
      return;
    }
    sockets.add({ page: ws, server: ws.connectToServer() });
  });

  const id = await createRoom(host.page, { variant: "shogi", mode: "online", settings: { main_time: "300" } });
  await acceptInvitation(host.page, guest.page);
  await watcher.page.goto(`${KOMA_URL}/rooms/${id}`);
  const pages = [host.page, guest.page, watcher.page];
  for (const page of pages) await page.locator("[data-connection=online]").waitFor();
  const gets = pages.map((page) => roomGets(page, id));

  const moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "2g2f", "8c8d"];
  for (const [index, move] of moves.entries()) {
    await play(index % 2 === 0 ? host.page : guest.page, id, move, pages);
  }
  assert.deepEqual(gets.map((counter) => counter.count), [0, 0, 0], "no page fetched the room per move");
  const watched = await moveList(watcher.page);
  assert.equal(watched.length, moves.length);
  assert.equal(watched[3], "△同　銀", "the notation came with the move");
  for (const page of [host.page, guest.page]) assert.deepEqual(await moveList(page), watched);

  // The spectator's network drops; two moves are played meanwhile.
  offline = true;
  await watcher.context.setOffline(true);
  for (const socket of sockets) {
    await socket.server.close();
    await socket.page.close({ code: 4000, reason: "offline" });
  }
  sockets.clear();
  await watcher.page.locator("[data-connection=reconnecting]").waitFor();
  await play(host.page, id, "2f2e", [host.page, guest.page]);
  await play(guest.page, id, "8d8e", [host.page, guest.page]);
  assert.equal((await moveList(watcher.page)).length, moves.length, "nothing arrives while offline");
  offline = false;
  await watcher.context.setOffline(false);
  await watcher.page.locator("[data-connection=online]").waitFor();
  await waitForPly(watcher.page, moves.length + 2);
  assert.deepEqual(await moveList(watcher.page), await moveList(host.page));
  assert.equal(gets[2].count, 1, "the reopened socket fetched the room once");

  // The end, with the clocks as they stopped, reaches every page.
  await host.page.locator("[data-action=resign]").click();
  await host.page.locator("[data-action=confirm-resign]").click();
  for (const page of pages) await assertResult(page, "second", "resignation");
  const ended = await shown(host.page);
  assert.ok(ended.clocks.every((clock) => /^\d+:\d\d$/.test(clock ?? "")), `${ended.clocks}`);
  for (const page of [guest.page, watcher.page]) assert.deepEqual(await shown(page), ended);
  assert.deepEqual(gets.map((counter) => counter.count), [0, 0, 1], "no page fetched the room for the end");
  assert.deepEqual([...host.errors, ...guest.errors, ...watcher.errors], [], "no script errors");
  for (const player of [host, guest, watcher]) await player.context.close();
});
