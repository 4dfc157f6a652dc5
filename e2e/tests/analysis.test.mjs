// @ts-check
/**
 * Analysis after the game: a game played to mate is analysed by the server's
 * engine; the page draws the evaluation graph (one point per position), marks
 * the move where the losing side hung its rook a blunder, and draws the best
 * move as an arrow on the position shown. The replay page analyses a pasted
 * record the same way. During an online game both players must agree first.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KOMA_URL, acceptInvitation, createRoom, newPlayer, play, room, useBrowser } from "../lib/koma.mjs";

const browser = useBrowser();

/**
 * Gote to move; its rook on 1b guards 5b. 1b1e leaves 5b to Sente's gold
 * drop (the pawn on 5c guards it) and puts the rook where the silver on 2f
 * takes it: G*5b mates.
 */
const START = "4k4/8r/4P4/9/9/7S1/9/9/4K4 w G 1";
const MOVES = ["1b1e", "G*5b"];

/**
 * The marks of the move list: ply → mark.
 * @param {import("playwright-core").Page} page
 */
function marks(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll("[data-move-list] [data-ply]")].map((button) => [
        button.getAttribute("data-ply"),
        button.getAttribute("data-mark"),
      ]),
    ),
  );
}

/**
 * Clicks "Analyse" and waits for the graph's last point.
 * @param {import("playwright-core").Page} page
 * @param {number} positions
 */
async function analyse(page, positions) {
  await page.locator("[data-analysis] [data-action=analyse]").click();
  await page.locator(`[data-eval-graph] [data-graph-ply="${positions - 1}"]`).waitFor();
  await page.waitForFunction(() => !document.querySelector("[data-analysis-progress]"));
  assert.equal(await page.locator("[data-eval-graph] [data-graph-ply]").count(), positions);
}

test("a game played to mate is analysed: graph, the blunder marked, the best move's arrow", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const response = await fetch(`${KOMA_URL}/api/v1/rooms`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ variant: "shogi", mode: "local", position: START }),
  });
  assert.equal(response.status, 201);
  const created = await response.json();
  await page.goto(`${KOMA_URL}/`);
  await page.evaluate((seat) => {
    localStorage.setItem(`koma.room.${seat.id}`, JSON.stringify({ token: seat.token, seats: ["first", "second"] }));
  }, created);
  await page.goto(`${KOMA_URL}/rooms/${created.id}`);
  await page.locator("[data-board][data-variant=shogi]").waitFor();
  // No analysis while the game is played.
  assert.equal(await page.locator("[data-analysis]").count(), 0);
  for (const move of MOVES) await play(page, created.id, move);
  await page.locator("[data-result][data-reason=checkmate]").waitFor();

  await analyse(page, MOVES.length + 1);
  // Gote's 1b1e hung the rook and let the gold mate: a blunder; the mate is no mistake.
  assert.deepEqual(await marks(page), { 1: "blunder", 2: null });
  const blunder = page.locator('[data-move-list] [data-ply="1"]');
  assert.match(await blunder.innerText(), /\?\?/);

  // The point of the start shows it, with the engine's best move: the rook
  // stays on file 1 and promotes (1b1i+), drawn as an arrow from 1b to 1i.
  await page.locator('[data-eval-graph] [data-graph-ply="0"]').click();
  await page.locator('[data-board][data-review-ply="0"]').waitFor();
  const best = await page.locator("[data-best-move]").getAttribute("data-best-move");
  assert.ok(best?.startsWith("1b"), `best move ${best}`);
  await page.locator(`[data-board] [data-best-arrow="1b-${best?.slice(2, 4)}"]`).waitFor();
  // After the blunder the best move is the mating drop: a ring on 5b.
  await page.locator('[data-eval-graph] [data-graph-ply="1"]').click();
  await page.locator('[data-board][data-review-ply="1"]').waitFor();
  assert.equal(await page.locator("[data-best-move]").getAttribute("data-best-move"), "G*5b");
  await page.locator('[data-board] [data-best-arrow="5b"]').waitFor();
  // Written as the move list writes moves: Japanese by default, Western once chosen.
  assert.equal(await page.locator("[data-best-move]").innerText(), "▲５二金");
  await page.locator("select[name=notation]").selectOption("western");
  await page.locator("[data-best-move]", { hasText: "G*5b" }).waitFor();
  assert.equal(await page.locator("[data-pv]").innerText(), "G*5b");
  await page.locator("select[name=notation]").selectOption("japanese");
  assert.match(await page.locator("[data-score]").innerText(), /^#1$/);

  // Kept with the game: a new visit shows it at once.
  await page.reload();
  await analyse(page, MOVES.length + 1);
  assert.deepEqual(await marks(page), { 1: "blunder", 2: null });
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("a pasted record is analysed on the replay page", async () => {
  const { context, page, errors } = await newPlayer(browser());
  await page.goto(`${KOMA_URL}/replay`);
  const form = page.locator("form[data-import]");
  await form.locator("textarea[name=record]").fill(`sfen ${START} moves ${MOVES.join(" ")}`);
  await form.locator("[data-action=import]").click();
  await page.locator("[data-move-list] [data-ply]").first().waitFor();
  await analyse(page, MOVES.length + 1);
  assert.deepEqual(await marks(page), { 1: "blunder", 2: null });
  await page.locator('[data-eval-graph] [data-graph-ply="1"]').click();
  await page.locator('[data-board] [data-best-arrow="5b"]').waitFor();
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("online, a game being played is analysed once both players agreed", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  const id = await createRoom(host.page, { variant: "minishogi", mode: "online" });
  await acceptInvitation(host.page, guest.page);
  const players = [host.page, guest.page];
  await play(host.page, id, "5d5c", players);
  assert.equal(await host.page.locator("[data-analysis]").count(), 0, "no analysis unasked");
  await host.page.locator("[data-action=ask-analysis]").click();
  await host.page.locator("[data-action=ask-analysis][disabled]").waitFor();
  assert.equal((await room(id)).analysis_offer, "first");
  assert.equal(await guest.page.locator("[data-analysis]").count(), 0, "no analysis on one player's asking");
  await guest.page.locator("[data-action=accept-analysis]").click();
  for (const page of players) {
    await page.locator("[data-analysis] [data-action=analyse]").waitFor();
    assert.equal(await page.locator("[data-action=ask-analysis], [data-action=accept-analysis]").count(), 0);
  }
  await analyse(guest.page, 2);
  assert.equal((await room(id)).status, "playing");
  assert.deepEqual([...host.errors, ...guest.errors], [], "no script errors");
  await host.context.close();
  await guest.context.close();
});
