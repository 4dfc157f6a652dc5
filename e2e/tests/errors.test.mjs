// @ts-check
/**
 * Errors the player sees: a refused or failed request shows the server's
 * reason in the page's `[data-error]` alert instead of nothing happening.
 * The refusals are the server's own JSON bodies (or error frames, for the
 * actions the room page sends on its socket), answered by Playwright's
 * routing so the test does not exhaust the real server's limits.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KOMA_URL, closeRouted, createRoom, newPlayer, play, room, routeRoomSockets, useBrowser } from "../lib/koma.mjs";

const browser = useBrowser();

/**
 * The visible error alert of `page` once it has `code`.
 * @param {import("playwright-core").Page} page
 * @param {string} code
 */
async function errorShown(page, code) {
  const alert = page.locator(`[data-error="${code}"]`);
  await alert.waitFor({ state: "visible" });
  assert.equal(await alert.getAttribute("role"), "alert");
  return (await alert.textContent()) ?? "";
}

test("creating a room over the hourly limit says so and stays on the form", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const limit = { code: "too-many", message: "at most 1 rooms per device per hour" };
  await page.route("**/api/v1/rooms", (route) =>
    route.request().method() === "POST"
      ? route.fulfill({ status: 429, contentType: "application/json", body: JSON.stringify(limit) })
      : route.fallback(),
  );
  await page.goto(`${KOMA_URL}/`);
  await page.locator("[data-error]").waitFor({ state: "attached" });
  assert.equal(await page.locator("[data-error]").isVisible(), false, "no error before a request fails");
  await page.locator("form[data-new-game] [data-action=create]").click();
  const text = await errorShown(page, "too-many");
  assert.ok(text.includes(limit.message), `the server's message is shown: ${text}`);
  assert.equal(new URL(page.url()).pathname, "/");

  // Bad settings (422) and no answer at all (the network) are shown the same way.
  await page.unroute("**/api/v1/rooms");
  const refusal = { code: "bad-request", message: "move_limit: expected 0 (no limit) or a number of plies" };
  await page.route("**/api/v1/rooms", (route) =>
    route.fulfill({ status: 422, contentType: "application/json", body: JSON.stringify(refusal) }),
  );
  await page.locator("form[data-new-game] [data-action=create]").click();
  assert.ok((await errorShown(page, "bad-request")).includes(refusal.message));
  await page.unroute("**/api/v1/rooms");
  await page.route("**/api/v1/rooms", (route) => route.abort("connectionrefused"));
  await page.locator("form[data-new-game] [data-action=create]").click();
  await errorShown(page, "network");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("a refused move or action on the room page shows the reason, and the next success clears it", async () => {
  const { context, page, errors } = await newPlayer(browser());
  // The page acts on its socket: the first move is lost with the socket, a
  // resignation is refused with the server's error frame.
  let dropMove = true;
  const refusal = { code: "not-playing", message: "the game is over" };
  await routeRoomSockets(context, {
    onSend: (frame, socket) => {
      if (frame.type === "move" && dropMove) {
        dropMove = false;
        closeRouted(socket);
        return false;
      }
      if (frame.type === "resign") {
        socket.page.send(JSON.stringify({ type: "error", request_id: frame.request_id, ...refusal }));
        return false;
      }
      return true;
    },
  });
  const id = await createRoom(page, { variant: "shogi", mode: "local" });
  await page.locator("[data-connection=online]").waitFor();
  assert.equal(await page.locator("[data-error]").isVisible(), false);

  // The move's socket drops on the way: the page says so and the board stays.
  await page.locator('[data-board] [data-square="7g"]').click();
  await page.locator('[data-board] [data-square="7f"]').click();
  await errorShown(page, "network");
  assert.deepEqual((await room(id)).moves, []);

  // The server refuses an action: its message is shown.
  await page.locator("[data-connection=online]").waitFor();
  await page.locator("[data-action=resign]").click();
  await page.locator("[data-action=confirm-resign]").click();
  assert.ok((await errorShown(page, "not-playing")).includes("The game is not being played."));

  // A move that goes through clears the alert.
  await play(page, id, "7g7f");
  await page.locator("[data-error]").waitFor({ state: "hidden" });
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("a move or action by HTTP (the socket closed) shows its refusal or failure the same way", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const routed = await routeRoomSockets(context);
  const id = await createRoom(page, { variant: "shogi", mode: "local" });
  await page.locator("[data-connection=online]").waitFor();
  await routed.cut();
  await context.setOffline(false);
  await page.locator("[data-connection=reconnecting]").waitFor();

  await page.route("**/api/v1/rooms/*/moves", (route) => route.abort("connectionreset"));
  await page.locator('[data-board] [data-square="7g"]').click();
  await page.locator('[data-board] [data-square="7f"]').click();
  await errorShown(page, "network");
  assert.deepEqual((await room(id)).moves, []);

  await page.unroute("**/api/v1/rooms/*/moves");
  const refusal = { code: "not-playing", message: "the game is over" };
  await page.route("**/api/v1/rooms/*/resign", (route) =>
    route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify(refusal) }),
  );
  await page.locator("[data-action=resign]").click();
  await page.locator("[data-action=confirm-resign]").click();
  assert.ok((await errorShown(page, "not-playing")).includes("The game is not being played."));
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("an invitation whose join fails says why and watches", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  const id = await createRoom(host.page, { variant: "minishogi", mode: "online" });
  await guest.page.route("**/api/v1/rooms/*/join", (route) => route.abort("connectionreset"));
  await guest.page.goto(`${KOMA_URL}/rooms/${id}`);
  await guest.page.locator("[data-board][data-variant=minishogi]").waitFor();
  await errorShown(guest.page, "network");
  // Nobody took the seat: the room still waits for the friend.
  assert.equal((await room(id)).seats.second, null);
  assert.deepEqual([...host.errors, ...guest.errors], [], "no script errors");
  await host.context.close();
  await guest.context.close();
});

test("a move answered 'room-moving' (a cluster's room changing node) is sent again and lands", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const moving = {
    code: "room-moving",
    message: "the room is moving to another node: try again in a moment",
  };
  // Nothing was done: refused on the socket, the move goes again by HTTP,
  // which asks again while the room keeps moving.
  let refusedOnSocket = 0;
  await routeRoomSockets(context, {
    onSend: (frame, socket) => {
      if (frame.type !== "move") return true;
      refusedOnSocket += 1;
      socket.page.send(JSON.stringify({ type: "error", request_id: frame.request_id, ...moving }));
      return false;
    },
  });
  const id = await createRoom(page, { variant: "shogi", mode: "local" });
  await page.locator("[data-connection=online]").waitFor();
  let refused = 0;
  await page.route("**/api/v1/rooms/*/moves", (route) => {
    if (refused < 2) {
      refused += 1;
      return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify(moving) });
    }
    return route.fallback();
  });
  await page.locator('[data-board] [data-square="7g"]').click();
  await page.locator('[data-board] [data-square="7f"]').click();
  await page.locator(`[data-move-list] [data-ply="1"]`).waitFor({ timeout: 10_000 });
  assert.equal(refusedOnSocket, 1, "refused once on the socket");
  assert.equal(refused, 2, "then twice by HTTP, and the third try went through");
  assert.deepEqual((await room(id)).moves, ["7g7f"]);
  assert.equal(await page.locator("[data-error]").isVisible(), false, "no error shown for a retried move");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});
