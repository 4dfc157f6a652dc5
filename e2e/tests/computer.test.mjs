// @ts-check
/**
 * Against the computer at level 1: each move is answered; resigning ends the
 * game and a rematch starts at once with the sides swapped; a draw offered to
 * it is answered at once, from its evaluation.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { assertResult, createRoom, createRoomAt, newPlayer, play, room, useBrowser, waitForPly } from "../lib/koma.mjs";

const browser = useBrowser();

test("the computer at level 1 answers every move", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const id = await createRoom(page, { variant: "shogi", mode: "computer", level: 1 });
  const created = await room(id);
  assert.equal(created.level, 1);
  assert.equal(created.seats.second?.computer, true);
  // Pawn moves that stay legal whatever the computer answers, unless it takes
  // the pawn: then another legal move of a pawn or any piece is played.
  for (const wish of ["7g7f", "2g2f", "6g6f"]) {
    const now = await room(id);
    assert.equal(now.side_to_move, "first");
    const move = now.legal_moves.includes(wish) ? wish : now.legal_moves.find((m) => !m.includes("*") && !m.endsWith("+"));
    assert.ok(move, `a board move is legal in ${now.position}`);
    await play(page, id, move);
    await waitForPly(page, now.moves.length + 2);
  }
  const final = await room(id);
  assert.equal(final.moves.length, 6);
  assert.equal(final.status, "playing");

  // Resigning (answering yes if the page asks) loses; the rematch swaps sides,
  // so the computer opens the second game and the board turns.
  page.on("dialog", (dialog) => dialog.accept());
  await page.locator("[data-action=resign]").click();
  await page.locator("[data-action=confirm-resign]").click();
  await assertResult(page, "second", "resignation");
  await page.locator("[data-action=rematch]").click();
  await page.locator('[data-board][data-orientation="second"]').waitFor();
  // The old game's list is gone once the computer's opening move is the only entry.
  await page.waitForFunction(() => document.querySelectorAll("[data-move-list] [data-ply]").length === 1);
  const rematch = await room(id);
  assert.equal(rematch.game, 2);
  assert.equal(rematch.seats.first?.side, "second");
  assert.equal(rematch.moves.length, 1, "the computer's first move only");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("the computer declines a draw in a level position and accepts one it expects to lose", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const id = await createRoom(page, { variant: "shogi", mode: "computer", level: 1 });
  await page.locator("[data-action=draw]").click();
  await page.locator("[data-draw-declined=second]").waitFor();
  assert.equal(await page.locator("[data-draw-declined]").textContent(), "Gote declines the draw.");
  assert.ok(await page.locator("[data-action=draw]").isDisabled(), "not offered again before a move");
  const declined = await room(id);
  assert.equal(declined.status, "playing");
  assert.equal(declined.draw_offer, null);

  // Gote, the computer, has its king alone against a rook and a bishop.
  const lost = await createRoomAt(page, { variant: "shogi", mode: "computer", level: 1, position: "4k4/9/9/9/9/9/9/1B5R1/4K4 b - 1" });
  await page.locator("[data-action=draw]").click();
  await assertResult(page, "draw", "agreement");
  assert.equal((await room(lost)).status, "finished");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});
