// @ts-check
/**
 * Two people on one device: a local game keeps its position and move list
 * through a page reload, and play goes on after it.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createRoom, launch, moveList, newPlayer, pieces, play, room, waitForPly } from "../lib/koma.mjs";

/** @type {import("playwright-core").Browser} */
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/**
 * The pieces in both hands: `first P` → count.
 * @param {import("playwright-core").Page} page
 */
function hands(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll("[data-hand] [data-hand-piece]")].map((piece) => [
        `${piece.closest("[data-hand]")?.getAttribute("data-hand")} ${piece.getAttribute("data-hand-piece")}`,
        piece.getAttribute("data-count"),
      ]),
    ),
  );
}

test("a local game survives a reload and goes on", async () => {
  const { context, page, errors } = await newPlayer(browser);
  const id = await createRoom(page, { variant: "shogi", mode: "local" });
  // The bishops are exchanged (Sente promoting on 2b) and Sente drops one back.
  const moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8c8d"];
  for (const move of moves) await play(page, id, move);
  const shown = { pieces: await pieces(page), hands: await hands(page), moves: await moveList(page) };
  assert.equal(shown.pieces["4e"], "B first");
  assert.equal(shown.hands["second B"], "1");

  await page.reload();
  await waitForPly(page, moves.length);
  assert.deepEqual({ pieces: await pieces(page), hands: await hands(page), moves: await moveList(page) }, shown);

  // Both seats are still this device's: Sente takes the pawn on 3d.
  await play(page, id, "4e3d");
  assert.equal((await room(id)).moves.length, moves.length + 1);
  assert.equal((await pieces(page))["3d"], "B first");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});
