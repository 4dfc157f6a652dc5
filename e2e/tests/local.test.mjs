// @ts-check
/**
 * Two people on one device: a local game keeps its position and move list
 * through a page reload, and play goes on after it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { assertClass, createRoom, moveList, newPlayer, pieces, play, room, square, useBrowser, waitForPly } from "../lib/koma.mjs";

const browser = useBrowser();

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
  const { context, page, errors } = await newPlayer(browser());
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

  // Reviewing: the first ply shows the start with 7g7f played, and the live
  // position comes back.
  await page.locator('[data-move-list] [data-ply="1"]').click();
  await page.locator('[data-board][data-review-ply="1"]').waitFor();
  assert.equal((await pieces(page))["7f"], "P first");
  assert.equal((await pieces(page))["8h"], "B first");
  await page.locator("[data-action=live]").click();
  await page.waitForFunction(() => !document.querySelector("[data-board]")?.hasAttribute("data-review-ply"));
  assert.deepEqual(await pieces(page), shown.pieces);

  // Both seats are still this device's: Sente takes the pawn on 3d.
  await play(page, id, "4e3d");
  assert.equal((await room(id)).moves.length, moves.length + 1);
  assert.equal((await pieces(page))["3d"], "B first");

  // The keyboard: Gote's pawn 2c is chosen with Enter and moved one square
  // down the screen (towards Sente) with the arrow and Enter again.
  await page.locator(square("2c")).focus();
  await page.keyboard.press("Enter");
  await assertClass(page, "2c", "selected");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await waitForPly(page, moves.length + 2);
  assert.equal((await room(id)).moves.at(-1), "2c2d");

  // Dragging: Sente's pawn 2g to 2f.
  await page.locator(square("2g")).dragTo(page.locator(square("2f")));
  await waitForPly(page, moves.length + 3);
  assert.equal((await room(id)).moves.at(-1), "2g2f");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});
