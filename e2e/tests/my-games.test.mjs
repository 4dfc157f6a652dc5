// @ts-check
/**
 * "My games": a game this device's player finished is listed, newest first,
 * with its result and links to its room, replay and analysis; the analysis
 * link analyses the game through its room, which keeps it for the next visit.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KOMA_URL, assertResult, createRoom, createRoomAt, newPlayer, play, useBrowser, waitForPly } from "../lib/koma.mjs";

const browser = useBrowser();

test("my games lists a finished game and the running one above it", async () => {
  const { context, page, errors } = await newPlayer(browser());
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

test("the analysis link analyses the room's game once; the next visit shows the kept analysis at once", async () => {
  const { context, page, errors } = await newPlayer(browser());
  // Sente drops the gold on 5b, guarded by the pawn on 5c: mate.
  const id = await createRoomAt(page, { variant: "shogi", mode: "local", position: "4k4/9/4P4/9/9/9/9/9/4K4 b G 1" });
  await play(page, id, "G*5b");
  await assertResult(page, "first", "checkmate");
  /** @type {string[]} */
  const asked = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith("/api/") && path.includes("/analysis")) asked.push(`${request.method()} ${path}`);
  });
  const open = async () => {
    await page.goto(`${KOMA_URL}/replay?room=${id}&analyse=1`);
    await page.locator('[data-eval-graph] [data-graph-ply="1"]').waitFor();
    await page.waitForFunction(() => !document.querySelector("[data-analysis-progress]"));
    assert.equal(await page.locator("[data-eval-graph] [data-graph-ply]").count(), 2);
  };
  await open();
  const room = `POST /api/v1/rooms/${id}/analysis`;
  assert.equal(asked[0], room, "analysed through the room");
  assert.ok(asked.some((line) => line.startsWith("GET /api/v1/analysis/")), `polled: ${asked}`);
  // Kept with the game: the room answers with the analysis itself.
  const kept = await fetch(`${KOMA_URL}/api/v1/rooms/${id}/analysis`, { method: "POST" });
  assert.equal(kept.status, 200);
  assert.equal((await kept.json()).status, "done");

  asked.length = 0;
  await open();
  assert.deepEqual(asked, [room], "the second visit runs nothing: one request, answered with the kept analysis");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});
