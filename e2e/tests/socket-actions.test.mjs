// @ts-check
/**
 * A seat's moves and actions go over the room's WebSocket while it is open
 * (no request per move), by HTTP while it is not; a refusal reads the same
 * either way; and a socket that drops with a move on its way never gets the
 * move played twice nor lost without a word.
 *
 * The sockets are routed through Playwright (`routeRoomSockets`): the tests
 * see the frames the page sends, hold back or answer some, and cut the
 * network.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  acceptInvitation, closeRouted, createRoom, moveList, newPlayer, play, room, roomPosts, routeRoomSockets,
  useBrowser, waitForPly,
} from "../lib/koma.mjs";

const browser = useBrowser();

/**
 * Clicks a board move (no promotion question) without waiting for it to land.
 * @param {import("playwright-core").Page} page
 * @param {string} move
 */
async function click(page, move) {
  await page.locator(`[data-board] [data-square="${move.slice(0, 2)}"]`).click();
  await page.locator(`[data-board] [data-square="${move.slice(2, 4)}"]`).click();
}

/**
 * The page's error alert, once it shows `code`: its text.
 * @param {import("playwright-core").Page} page
 * @param {string} code
 */
async function errorShown(page, code) {
  const alert = page.locator(`[data-error="${code}"]`);
  await alert.waitFor({ state: "visible" });
  return (await alert.textContent()) ?? "";
}

test("moves and actions go over the socket: no POST while it is open", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  const routed = await routeRoomSockets(host.context);
  const id = await createRoom(host.page, { variant: "shogi", mode: "online" });
  await acceptInvitation(host.page, guest.page);
  for (const page of [host.page, guest.page]) await page.locator("[data-connection=online]").waitFor();
  const posts = [roomPosts(host.page, id), roomPosts(guest.page, id)];

  const moves = ["7g7f", "3c3d", "2g2f", "4a3b"];
  for (const [index, move] of moves.entries()) {
    await play(index % 2 === 0 ? host.page : guest.page, id, move, [host.page, guest.page]);
  }
  await host.page.locator("[data-action=draw]").click();
  await guest.page.locator("[data-action=accept-draw]").waitFor();
  await guest.page.locator("[data-phrase=good_luck]").click();
  await host.page.locator("[data-chat-line=good_luck]").waitFor();

  assert.deepEqual(posts.map((counter) => counter.paths), [[], []], "no action went by HTTP");
  const sent = routed.sent.filter((frame) => frame.type !== "ping");
  assert.deepEqual(
    sent.map((frame) => [frame.type, frame.move]),
    [["move", "7g7f"], ["move", "2g2f"], ["draw", undefined]],
    "the host's moves and offer went on its socket",
  );
  assert.ok(sent.every((frame, index) => sent.findIndex((other) => other.request_id === frame.request_id) === index), "each frame has its own request_id");
  assert.deepEqual((await room(id)).moves, moves);
  assert.equal((await room(id)).draw_offer, "first");
  assert.deepEqual([...host.errors, ...guest.errors], [], "no script errors");
  await host.context.close();
  await guest.context.close();
});

test("with the socket closed a move goes by POST, and the page shows it once the socket is back", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  const routed = await routeRoomSockets(host.context);
  const id = await createRoom(host.page, { variant: "shogi", mode: "online" });
  await acceptInvitation(host.page, guest.page);
  await host.page.locator("[data-connection=online]").waitFor();
  const posts = roomPosts(host.page, id);

  // Only the socket is down: the page's requests still reach the server.
  await routed.cut();
  await host.context.setOffline(false);
  await host.page.locator("[data-connection=reconnecting]").waitFor();
  await click(host.page, "7g7f");
  await waitForPly(guest.page, 1);
  assert.deepEqual(posts.paths, ["moves"], "the move went by POST");
  assert.equal(await host.page.locator("[data-error]").isVisible(), false, "no error");

  await routed.restore();
  await host.page.locator("[data-connection=online]").waitFor();
  await waitForPly(host.page, 1);
  await play(guest.page, id, "3c3d", [guest.page, host.page]);
  await play(host.page, id, "2g2f", [host.page, guest.page]);
  assert.deepEqual(posts.paths, ["moves"], "once the socket is back, moves go over it again");
  assert.deepEqual((await room(id)).moves, ["7g7f", "3c3d", "2g2f"]);
  assert.deepEqual(await moveList(host.page), await moveList(guest.page));
  assert.deepEqual([...host.errors, ...guest.errors], [], "no script errors");
  await host.context.close();
  await guest.context.close();
});

test("a move the server refuses reads the same over the socket as by HTTP", async () => {
  const { context, page, errors } = await newPlayer(browser());
  // The page sends only legal moves: the test turns 7g7f into 7g7e on the way.
  const illegal = "7g7e";
  const routed = await routeRoomSockets(context, {
    onSend: (frame, socket) => {
      if (frame.type !== "move") return true;
      socket.server.send(JSON.stringify({ ...frame, move: illegal }));
      return false;
    },
  });
  await page.route("**/api/v1/rooms/*/moves", (route) =>
    route.continue({ postData: JSON.stringify({ move: illegal }) }),
  );
  const id = await createRoom(page, { variant: "shogi", mode: "local" });
  await page.locator("[data-connection=online]").waitFor();
  let posts = roomPosts(page, id);

  await click(page, "7g7f");
  const alert = page.locator("[data-error]:not([data-error=''])");
  await alert.waitFor({ state: "visible" });
  const bySocket = { code: await alert.getAttribute("data-error"), text: await alert.textContent() };
  assert.deepEqual(posts.paths, [], "refused on the socket, not sent again by HTTP");
  assert.equal(routed.sent.filter((frame) => frame.type === "move").length, 1);

  // The page again, its socket refused: the same move goes by HTTP.
  await routed.cut();
  await context.setOffline(false);
  await page.reload();
  posts = roomPosts(page, id);
  await page.locator("[data-connection=reconnecting]").waitFor();
  assert.equal(await page.locator("[data-error]").isVisible(), false);
  await click(page, "7g7f");
  await alert.waitFor({ state: "visible" });
  const byHttp = { code: await alert.getAttribute("data-error"), text: await alert.textContent() };
  assert.deepEqual(posts.paths, ["moves"]);
  assert.notEqual(bySocket.code, "network");
  assert.deepEqual(bySocket, byHttp, "the same code and words");
  assert.deepEqual((await room(id)).moves, []);
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

/**
 * An online game whose host's room socket closes, once, at the first frame
 * of `type` it sends (`onSend`) or receives (`onReceive`): that frame is lost.
 * @param {"onSend" | "onReceive"} direction
 * @param {string} type
 */
async function gameWithOneDrop(direction, type) {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  let drop = true;
  /** @type {import("../lib/koma.mjs").FrameHook} */
  const dropOnce = (frame, socket) => {
    if (frame.type !== type || !drop) return true;
    drop = false;
    closeRouted(socket);
    return false;
  };
  const routed = await routeRoomSockets(host.context, { [direction]: dropOnce });
  const id = await createRoom(host.page, { variant: "shogi", mode: "online" });
  await acceptInvitation(host.page, guest.page);
  await host.page.locator("[data-connection=online]").waitFor();
  return { host, guest, routed, id, posts: roomPosts(host.page, id) };
}

test("a socket that drops before the move reached the server: the failure shows, the move is not sent again", async () => {
  const { host, guest, routed, id, posts } = await gameWithOneDrop("onSend", "move");

  await click(host.page, "7g7f");
  await errorShown(host.page, "network");
  // The socket comes back and the room is fetched: the move is not there,
  // the failure stays, and nothing was sent again.
  await host.page.locator("[data-connection=online]").waitFor();
  await host.page.waitForLoadState("networkidle");
  assert.equal(await host.page.locator("[data-error=network]").isVisible(), true, "the failure stays");
  assert.deepEqual((await room(id)).moves, []);
  assert.deepEqual(await moveList(host.page), []);
  assert.equal(routed.sent.filter((frame) => frame.type === "move").length, 1, "sent once");
  assert.deepEqual(posts.paths, []);

  // The player plays again: it lands, once, and the failure goes.
  await play(host.page, id, "7g7f", [host.page, guest.page]);
  await host.page.locator("[data-error]").waitFor({ state: "hidden" });
  assert.deepEqual((await room(id)).moves, ["7g7f"]);
  assert.deepEqual([...host.errors, ...guest.errors], [], "no script errors");
  await host.context.close();
  await guest.context.close();
});

test("a socket that drops after the move was stored, before its ack: the move shows once, no failure stays", async () => {
  // The ack and everything after it are lost with the socket.
  const { host, guest, routed, id, posts } = await gameWithOneDrop("onReceive", "ack");

  await click(host.page, "7g7f");
  await waitForPly(guest.page, 1);
  // The reopened socket brings the move: the page shows it, and no failure.
  await host.page.locator("[data-connection=online]").waitFor();
  await waitForPly(host.page, 1);
  await host.page.locator("[data-error]").waitFor({ state: "hidden" });
  assert.equal(routed.sent.filter((frame) => frame.type === "move").length, 1, "sent once");
  assert.deepEqual(posts.paths, [], "not sent again by HTTP");
  assert.deepEqual((await room(id)).moves, ["7g7f"]);
  assert.deepEqual(await moveList(host.page), await moveList(guest.page));

  // Play goes on over the new socket.
  await play(guest.page, id, "3c3d", [guest.page, host.page]);
  await play(host.page, id, "2g2f", [host.page, guest.page]);
  assert.deepEqual((await room(id)).moves, ["7g7f", "3c3d", "2g2f"]);
  assert.deepEqual([...host.errors, ...guest.errors], [], "no script errors");
  await host.context.close();
  await guest.context.close();
});
