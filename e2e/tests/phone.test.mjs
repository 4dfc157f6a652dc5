// @ts-check
/**
 * Every board on a phone: it fits the screen's width without sideways
 * scrolling, the hands stand above and below it, and a screenshot of each is
 * kept in target/e2e-screenshots/.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PHONE, createRoom, newPlayer, screenshot, useBrowser } from "../lib/koma.mjs";

const browser = useBrowser();

for (const variant of ["shogi", "minishogi", "annan", "xiangqi"]) {
  test(`${variant}: the board fits a phone`, async () => {
    const { context, page, errors } = await newPlayer(browser(), { viewport: PHONE });
    await createRoom(page, { variant, mode: "local" });
    await screenshot(page, `${variant}-phone`);
    const board = await page.locator("[data-board]").boundingBox();
    assert.ok(board, "the board is shown");
    assert.ok(board.x >= 0 && board.x + board.width <= PHONE.width + 0.5, `the board (${board.x}+${board.width}) fits ${PHONE.width} px`);
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    assert.ok(widths.scroll <= widths.client, `no sideways scrolling: ${widths.scroll} > ${widths.client}`);
    // Every square is on the screen's width.
    const squares = await page.locator("[data-board] [data-square]").evaluateAll((all) =>
      all.map((sq) => sq.getBoundingClientRect()).filter((r) => r.left < -0.5 || r.right > window.innerWidth + 0.5).length,
    );
    assert.equal(squares, 0, "squares outside the screen");
    if (variant !== "xiangqi") {
      // The first player's board: the opponent's hand above, one's own below.
      const above = await page.locator("[data-hand=second]").boundingBox();
      const below = await page.locator("[data-hand=first]").boundingBox();
      assert.ok(above && below, "both hands are shown");
      assert.ok(above.y + above.height <= board.y + 0.5, "Gote's hand is above the board");
      assert.ok(below.y >= board.y + board.height - 0.5, "Sente's hand is below the board");
    }
    assert.deepEqual(errors, [], "no script errors");
    await context.close();
  });
}
