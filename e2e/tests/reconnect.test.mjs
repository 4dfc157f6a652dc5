// @ts-check
/**
 * A player's network drops in an online game: the page says it is
 * reconnecting, the opponent moves meanwhile, and once the network is back
 * the page catches up (the missed move shows) and play goes on.
 *
 * Chromium's offline emulation (`context.setOffline`) stops new requests but
 * does not close a WebSocket that is already open, so the room socket is
 * routed through Playwright: cutting the network closes both ends of every
 * routed socket, and sockets opened while offline are closed at once.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { acceptInvitation, createRoom, moveList, newPlayer, play, room, useBrowser, waitForPly } from "../lib/koma.mjs";

const browser = useBrowser();

test("a player who loses the network gets back what was missed", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());

  let offline = false;
  /** @type {Set<{page: import("playwright-core").WebSocketRoute, server: import("playwright-core").WebSocketRoute}>} */
  const sockets = new Set();
  await host.context.routeWebSocket(/\/api\/v1\/rooms\/[^/?]+\/ws/, (ws) => {
    if (offline) {
      ws.close({ code: 4000, reason: "offline" });
      return;
    }
    sockets.add({ page: ws, server: ws.connectToServer() });
  });
  const cut = async () => {
    offline = true;
    await host.context.setOffline(true);
    for (const socket of sockets) {
      await socket.server.close();
      await socket.page.close({ code: 4000, reason: "offline" });
    }
    sockets.clear();
  };
  const restore = async () => {
    offline = false;
    await host.context.setOffline(false);
  };

  const id = await createRoom(host.page, { variant: "shogi", mode: "online" });
  await acceptInvitation(host.page, guest.page);
  await host.page.locator("[data-connection=online]").waitFor();
  await play(host.page, id, "7g7f", [host.page, guest.page]);

  await cut();
  await host.page.locator("[data-connection=reconnecting]").waitFor();
  // The server has noticed: the opponent sees the host's seat disconnected.
  await guest.page.locator("[data-seat=first][data-connected=false]").waitFor();
  await play(guest.page, id, "3c3d", [guest.page]);
  assert.equal((await moveList(host.page)).length, 1, "nothing arrives while offline");

  await restore();
  await host.page.locator("[data-connection=online]").waitFor();
  await waitForPly(host.page, 2);
  await guest.page.locator("[data-seat=first][data-connected=true]").waitFor();
  assert.deepEqual(await moveList(host.page), await moveList(guest.page));

  // Play goes on from the reconnected page.
  await play(host.page, id, "2g2f", [host.page, guest.page]);
  const final = await room(id);
  assert.deepEqual(final.moves, ["7g7f", "3c3d", "2g2f"]);
  assert.deepEqual(await moveList(host.page), await moveList(guest.page));
  assert.equal((await moveList(host.page)).length, 3, "no move is shown twice");
  assert.deepEqual([...host.errors, ...guest.errors], [], "no script errors");
  await host.context.close();
  await guest.context.close();
});
