// @ts-check
/**
 * What every browser test shares: the browser, players (a browser context and
 * its page), the server's room JSON, and moves played by clicking. Pages are
 * reached only through the DOM contract of the web front end (data-*
 * attributes, form field names), never through its CSS classes or texts,
 * except the square classes `selected` and `target` that the contract names.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before } from "node:test";
import { chromium } from "playwright-core";

/** @typedef {import("playwright-core").Browser} Browser */
/** @typedef {import("playwright-core").BrowserContext} BrowserContext */
/** @typedef {import("playwright-core").Page} Page */
/**
 * The parts of the room JSON (`GET /api/v1/rooms/{id}`) the tests read.
 * @typedef {{
 *   id: string, variant: string, level: number | null, status: string,
 *   settings: Record<string, unknown>, position: string, moves: string[],
 *   legal_moves: string[], side_to_move: "first" | "second",
 *   notation: Record<string, string[]>, result: Record<string, unknown>,
 *   game: number, seats: Record<"first" | "second", {computer: boolean, side: string, name: string, connected: boolean} | null>,
 *   spectators: number, draw_offer: string | null, impasse_points: {first: number, second: number} | null, takeback_offer: "first" | "second" | null, analysis_offer: "first" | "second" | null,
 * }} Room
 */

/** The server under test, e.g. `http://127.0.0.1:41234` (set by crates/koma/tests/browser.rs). */
export const KOMA_URL = (() => {
  const url = process.env.KOMA_URL;
  if (!url) throw new Error("KOMA_URL is not set: run the browser tests through `cargo test -p koma --test browser`");
  return url.replace(/\/$/, "");
})();

/** Where screenshots go (gitignored under target/). */
const SCREENSHOTS = process.env.KOMA_SCREENSHOTS ?? new URL("../../target/e2e-screenshots", import.meta.url).pathname;

/** The sizes the pages are checked at. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Long enough for a slow shared machine; assertions never depend on it. */
const WAIT_MS = 15_000;

/**
 * Starts headless Chromium from Debian's package.
 * @param {{ env?: Record<string, string> }} [options] env: variables added to the browser's environment
 */
function launch(options = {}) {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    env: options.env ? { ...process.env, ...options.env } : undefined,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * The browser of a test file: registers node:test's `before`, which starts it
 * (as `launch` does, with `options`), and `after`, which closes it, so call it
 * once at the file's top level.
 * @param {{ env?: Record<string, string> }} [options] env: variables added to the browser's environment
 * @returns {() => Browser} the browser, once started (in a test)
 */
export function useBrowser(options = {}) {
  /** @type {Browser | undefined} */
  let browser;
  before(async () => {
    browser = await launch(options);
  });
  after(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("the browser is started in `before`: use it in a test");
    return browser;
  };
}

/**
 * A person at a device: a fresh browser context (own storage) with one page,
 * in English unless told otherwise. Script errors on the page are collected in
 * `errors` so a test can check that none happened.
 * @param {Browser} browser
 * @param {{viewport?: {width: number, height: number}, locale?: string}} [options]
 */
export async function newPlayer(browser, options = {}) {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    locale: options.locale ?? "en-US",
  });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  return { context, page, errors };
}

/**
 * The room JSON of `GET /api/v1/rooms/{id}`.
 * @param {string} id
 * @returns {Promise<Room>}
 */
export async function room(id) {
  const response = await fetch(`${KOMA_URL}/api/v1/rooms/${id}`);
  assert.equal(response.status, 200, `GET room ${id}`);
  return response.json();
}

/**
 * The room id of a page at `/rooms/{id}`.
 * @param {Page} page
 */
export function roomId(page) {
  const match = new URL(page.url()).pathname.match(/^\/rooms\/([^/]+)$/);
  assert.ok(match, `not a room page: ${page.url()}`);
  return match[1];
}

/**
 * Creates a room from the home page's form and waits for its board.
 * @param {Page} page
 * @param {{variant: string, mode: string, level?: number, settings?: Record<string, string>}} choice
 *   `settings`: other choices of the form, by select name (`time_per_move: "10"`)
 * @returns {Promise<string>} the room id
 */
export async function createRoom(page, { variant, mode, level, settings = {} }) {
  await page.goto(`${KOMA_URL}/`);
  const form = page.locator("form[data-new-game]");
  await form.locator("select[name=variant]").selectOption(variant);
  await form.locator("select[name=mode]").selectOption(mode);
  if (level !== undefined) await form.locator("select[name=level]").selectOption(String(level));
  for (const [name, value] of Object.entries(settings)) await form.locator(`select[name=${name}]`).selectOption(value);
  await form.locator("[data-action=create]").click();
  await page.waitForURL(/\/rooms\/[^/]+$/);
  await page.locator(`[data-board][data-variant=${variant}]`).waitFor();
  return roomId(page);
}

/**
 * Creates a room from a start position through the API (the home page's
 * form offers none) and opens it in `page` as its creator: the page keeps
 * the room's seat token as it keeps its own rooms'.
 * @param {Page} page
 * @param {{variant: string, mode: string, position: string, level?: number}} choice
 * @returns {Promise<string>} the room id
 */
export async function createRoomAt(page, { variant, mode, position, level }) {
  const response = await fetch(`${KOMA_URL}/api/v1/rooms`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ variant, mode, position, level }),
  });
  assert.equal(response.status, 201, await response.clone().text());
  const created = await response.json();
  const seats = mode === "local" ? ["first", "second"] : [created.seat];
  await page.goto(`${KOMA_URL}/`);
  await page.evaluate(({ id, token, seats }) => {
    localStorage.setItem(`koma.room.${id}`, JSON.stringify({ token, seats }));
  }, { ...created, seats });
  await page.goto(`${KOMA_URL}/rooms/${created.id}`);
  await page.locator(`[data-board][data-variant=${variant}]`).waitFor();
  return created.id;
}

/**
 * Opens the invitation link of `host`'s room in `guest`'s page and waits for
 * both seats to be taken.
 * @param {Page} host
 * @param {Page} guest
 */
export async function acceptInvitation(host, guest) {
  const link = await host.locator("[data-invite-url]").inputValue();
  assert.match(link, /\/rooms\/[^/]+$/, "the invitation link names the room");
  await guest.goto(link);
  await guest.locator("[data-board]").waitFor();
  // Both pages know the game has begun and show both players connected.
  for (const page of [host, guest]) {
    await page.locator("[data-status=playing]").waitFor();
    for (const seat of ["first", "second"]) await page.locator(`[data-seat=${seat}][data-connected=true]`).waitFor();
  }
}

/** @param {string} square */
export function square(square) {
  return `[data-board] [data-square="${square}"]`;
}

/**
 * Waits until the move list of `page` shows at least `plies` moves.
 * @param {Page} page
 * @param {number} plies
 */
export async function waitForPly(page, plies) {
  await page.locator(`[data-move-list] [data-ply="${plies}"]`).waitFor();
}

/**
 * Plays `move` (USI or ICCS, the server's text) on `page` as a player would:
 * clicks the piece (or the hand piece for a drop), checks that the
 * destination is marked as a target, clicks it, and answers the promotion
 * question when the rules leave the choice open. Then waits until every page
 * in `watchers` (the mover's own included) lists the move.
 * @param {Page} page
 * @param {string} id the room
 * @param {string} move
 * @param {Page[]} watchers
 */
export async function play(page, id, move, watchers = [page]) {
  const before = await room(id);
  assert.ok(before.legal_moves.includes(move), `${move} is legal in ${before.position}`);
  const drop = move.match(/^([A-Z])\*([0-9][a-i])$/);
  const to = drop ? drop[2] : move.slice(2, 4);
  if (drop) {
    const piece = page.locator(`[data-hand=${before.side_to_move}] [data-hand-piece="${drop[1]}"]`);
    await piece.click();
  } else {
    await page.locator(square(move.slice(0, 2))).click();
    await assertClass(page, move.slice(0, 2), "selected");
  }
  if (before.settings.show_targets !== false) await assertClass(page, to, "target");
  await page.locator(square(to)).click();
  const base = move.replace(/\+$/, "");
  if (!drop && before.legal_moves.includes(base) && before.legal_moves.includes(`${base}+`)) {
    const dialog = page.locator("[data-promotion]");
    await dialog.waitFor();
    await dialog.locator(`button[data-promote=${move.endsWith("+") ? "yes" : "no"}]`).click();
  }
  for (const watcher of watchers) await waitForPly(watcher, before.moves.length + 1);
  const after = await room(id);
  assert.equal(after.moves[before.moves.length], move, "the server has the move that was clicked");
}

/**
 * Waits until the square has the class (the contract's `selected`, `target` ...).
 * @param {Page} page
 * @param {string} at
 * @param {string} name
 */
export async function assertClass(page, at, name) {
  await page.waitForFunction(
    ([selector, name]) => document.querySelector(selector)?.classList.contains(name),
    [square(at), name],
  );
}

/**
 * Every piece on the board: square → `code side` (e.g. `7g` → `P first`).
 * @param {Page} page
 * @returns {Promise<Record<string, string>>}
 */
export function pieces(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll("[data-board] [data-square]")].flatMap((sq) => {
        const piece = sq.querySelector("[data-piece]");
        return piece ? [[sq.getAttribute("data-square"), `${piece.getAttribute("data-piece")} ${piece.getAttribute("data-side")}`]] : [];
      }),
    ),
  );
}

/**
 * The move list's entries, in order.
 * @param {Page} page
 */
export function moveList(page) {
  return page.locator("[data-move-list] [data-ply]").allTextContents();
}

/**
 * Waits for the result element and checks winner and reason.
 * @param {Page} page
 * @param {string} winner `first`, `second` or `draw`
 * @param {string} reason the API's code, e.g. `checkmate`
 */
export async function assertResult(page, winner, reason) {
  const result = page.locator("[data-result][data-winner][data-reason]");
  await result.waitFor();
  assert.equal(await result.getAttribute("data-winner"), winner);
  assert.equal(await result.getAttribute("data-reason"), reason);
}

/**
 * Saves a screenshot of the whole page as `target/e2e-screenshots/<name>.png`.
 * @param {Page} page
 * @param {string} name
 */
export async function screenshot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * A room socket routed through Playwright: the page's end and the server's.
 * @typedef {{ page: import("playwright-core").WebSocketRoute, server: import("playwright-core").WebSocketRoute }} RoutedSocket
 */

/**
 * What a frame hook decides: pass the frame on, or not (the hook may answer
 * it or close the socket itself).
 * @typedef {(frame: any, socket: RoutedSocket) => boolean | Promise<boolean>} FrameHook
 */

/**
 * Routes every room socket of `context` through Playwright, so that a test
 * can see the frames, answer or hold them back, and cut the network.
 * Chromium's offline emulation (`context.setOffline`) stops new requests but
 * does not close a WebSocket already open; `cut()` closes both ends of every
 * routed socket and, until `restore()`, every socket opened meanwhile.
 * @param {BrowserContext} context
 * @param {{ onSend?: FrameHook, onReceive?: FrameHook }} [hooks] see each frame the page
 *   sends (`onSend`) or the server sends (`onReceive`), parsed, before it is passed on
 */
export async function routeRoomSockets(context, hooks = {}) {
  /** @type {Set<RoutedSocket>} */
  const sockets = new Set();
  const routed = {
    offline: false,
    /** @type {any[]} every frame the page sent, parsed, in order */
    sent: [],
    sockets,
    async cut() {
      routed.offline = true;
      await context.setOffline(true);
      for (const socket of sockets) await closeRouted(socket);
      sockets.clear();
    },
    async restore() {
      routed.offline = false;
      await context.setOffline(false);
    },
  };
  await context.routeWebSocket(/\/api\/v1\/rooms\/[^/?]+\/ws/, (ws) => {
    if (routed.offline) {
      ws.close({ code: 4000, reason: "offline" });
      return;
    }
    /** @type {RoutedSocket} */
    const socket = { page: ws, server: ws.connectToServer() };
    sockets.add(socket);
    ws.onMessage(async (message) => {
      const frame = JSON.parse(String(message));
      routed.sent.push(frame);
      if (await (hooks.onSend?.(frame, socket) ?? true)) socket.server.send(message);
    });
    socket.server.onMessage(async (message) => {
      if (await (hooks.onReceive?.(JSON.parse(String(message)), socket) ?? true)) ws.send(message);
    });
  });
  return routed;
}

/**
 * Closes both ends of a routed socket, as a network that fails does.
 * @param {RoutedSocket} socket
 */
export async function closeRouted(socket) {
  await socket.server.close();
  await socket.page.close({ code: 4000, reason: "offline" });
}

/**
 * Counts the page's `POST`s under the room's path (its seat's actions by HTTP).
 * @param {Page} page
 * @param {string} id
 * @returns {{ paths: string[] }} the paths posted to, in order
 */
export function roomPosts(page, id) {
  const counter = { paths: /** @type {string[]} */ ([]) };
  const prefix = `/api/v1/rooms/${id}/`;
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === "POST" && path.startsWith(prefix)) counter.paths.push(path.slice(prefix.length));
  });
  return counter;
}
