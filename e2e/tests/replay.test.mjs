// @ts-check
/**
 * Replaying a game record: a pasted KIF or an opened CSA file is read by the
 * server and shown on the board in review, with its comments on the move
 * shown; a record that cannot be read says
 * where; a room's record opens from its record box.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KOMA_URL, createRoom, moveList, newPlayer, pieces, play, useBrowser } from "../lib/koma.mjs";

const browser = useBrowser();

/** A short game: the bishops are exchanged and Sente drops one on 4e; Gote resigns. Commented. */
const KIF = `手合割：平手
先手：佐藤
後手：鈴木
手数----指手---------消費時間--
*角換わりの一局
   1 ７六歩(77)
   2 ３四歩(33)
   3 ２二角成(88)
   4 同　銀(31)
*角交換
*次は４五角
   5 ４五角打
   6 投了
まで5手で先手の勝ち
`;

/**
 * @param {import("playwright-core").Page} page
 * @param {number} ply
 */
async function showPly(page, ply) {
  await page.locator(`[data-board][data-review-ply="${ply}"]`).waitFor();
}

test("a pasted KIF is replayed move by move", async () => {
  const { context, page, errors } = await newPlayer(browser());
  await page.goto(`${KOMA_URL}/`);
  await page.locator('a[href="/replay"]').click();
  await page.waitForURL(/\/replay$/);
  const form = page.locator("form[data-import]");
  await form.locator("textarea[name=record]").fill(KIF);
  await form.locator("[data-action=import]").click();

  // It opens at the start; the list has the five moves in Japanese (the drop
  // needs no 打: no bishop on the board could reach 4e).
  await showPly(page, 0);
  assert.deepEqual(await moveList(page), ["▲７六歩", "△３四歩", "▲２二角成", "△同　銀", "▲４五角"]);
  const start = await pieces(page);
  assert.equal(start["8h"], "B first");
  const comments = page.locator("[data-comments]");
  assert.deepEqual(await comments.locator("p").allTextContents(), ["角換わりの一局"]);
  const result = page.locator("[data-result]");
  assert.deepEqual([await result.getAttribute("data-winner"), await result.getAttribute("data-reason")], ["first", "resignation"]);

  // Ply 3: Sente's bishop promoted on 2b.
  await page.locator('[data-move-list] [data-ply="3"]').click();
  await showPly(page, 3);
  let now = await pieces(page);
  assert.equal(now["2b"], "+B first");
  assert.equal(now["8h"], undefined);
  assert.equal(await comments.isVisible(), false, "no comment on ply 3");
  // The arrow keys step from there: ply 4, the silver takes it back.
  await page.keyboard.press("ArrowRight");
  await showPly(page, 4);
  now = await pieces(page);
  assert.equal(now["2b"], "S second");
  assert.equal(now["3a"], undefined);
  // Its comment, line by line, under the moves.
  assert.deepEqual(await comments.locator("p").allTextContents(), ["角交換", "次は４五角"]);
  assert.equal(await comments.isVisible(), true);
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await showPly(page, 2);
  // The end: the bishop dropped on 4e, shown without a review ply.
  await page.locator("[data-action=live]").click();
  await page.waitForFunction(() => !document.querySelector("[data-board]")?.hasAttribute("data-review-ply"));
  assert.equal((await pieces(page))["4e"], "B first");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("a record that cannot be read names the line; a CSA file is read", async () => {
  const { context, page, errors } = await newPlayer(browser());
  await page.goto(`${KOMA_URL}/replay`);
  const form = page.locator("form[data-import]");
  await form.locator("textarea[name=record]").fill("V2.2\nPI\n+\n+7776FU\n-3334FX\n");
  await form.locator("[data-action=import]").click();
  const alert = page.locator('[data-error="bad-record"]');
  await alert.waitFor({ state: "visible" });
  assert.match((await alert.textContent()) ?? "", /line 5, column 6/);
  assert.equal(await page.locator("[data-board]").count(), 0);

  await form.locator("input[type=file]").setInputFiles({
    name: "game.csa",
    mimeType: "text/plain",
    buffer: Buffer.from("V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n%TORYO\n"),
  });
  await showPly(page, 0);
  assert.equal(await moveList(page).then((list) => list.length), 3);
  await page.locator('[data-move-list] [data-ply="2"]').click();
  await showPly(page, 2);
  assert.equal((await pieces(page))["3d"], "P second");
  assert.equal(await page.locator("[data-error]").isVisible(), false);
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("a room's game opens in the replay from its record box", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const id = await createRoom(page, { variant: "xiangqi", mode: "local" });
  for (const move of ["h2e2", "h9g7"]) await play(page, id, move);
  await page.locator("[data-action=replay]").click();
  await page.waitForURL(/\/replay\?room=/);
  await page.locator("[data-board][data-variant=xiangqi]").waitFor();
  assert.deepEqual(await moveList(page), ["C2.5", "H8+7"]);
  await page.locator('[data-move-list] [data-ply="1"]').click();
  await showPly(page, 1);
  assert.equal((await pieces(page))["e2"], "C first");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});
