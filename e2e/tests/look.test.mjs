// @ts-check
/**
 * What the pages look like: nothing drawn over anything else, nothing wider
 * than a phone, every choice shown whole in every language, and check marked
 * as plainly in xiangqi as in shogi.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KOMA_URL, PHONE, acceptInvitation, createRoom, createRoomAt, newPlayer, play, screenshot, useBrowser, waitForPly } from "../lib/koma.mjs";

/** @typedef {import("playwright-core").Page} Page */

const browser = useBrowser();

/**
 * The share of a square's pixels that are plainly red (as the check mark is).
 * @param {Page} page
 * @param {string} at the square
 */
async function redShare(page, at) {
  const png = await page.locator(`[data-board] [data-square="${at}"]`).screenshot();
  return page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const context = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let red = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] > 150 && data[i] - data[i + 1] > 90 && data[i] - data[i + 2] > 90) red += 1;
    }
    return red / (data.length / 4);
  }, png.toString("base64"));
}

test("check is marked as plainly on the xiangqi general as on the shogi king", async () => {
  const { context, page, errors } = await newPlayer(browser());
  // A rook (chariot) on the king's file, nothing between: the second player is in check.
  await createRoomAt(page, { variant: "shogi", mode: "local", position: "4k4/9/9/9/9/9/9/4R4/3K5 w - 1" });
  await page.locator("[data-board] [data-square='5a'].check").waitFor();
  const shogi = await redShare(page, "5a");
  await createRoomAt(page, { variant: "xiangqi", mode: "local", position: "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1" });
  await page.locator("[data-board] [data-square='e9'].check").waitFor();
  await screenshot(page, "xiangqi-check");
  const xiangqi = await redShare(page, "e9");
  assert.ok(shogi > 0.02, `the shogi king's square is marked: ${shogi}`);
  assert.ok(xiangqi >= shogi, `the general's mark (${xiangqi} of its point red) is as plain as the king's (${shogi})`);
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("every choice of the home page and a room is shown whole in every language", async () => {
  for (const locale of ["en-US", "de-DE", "nl-NL", "ja-JP", "zh-CN"]) {
    const { context, page, errors } = await newPlayer(browser(), { locale });
    await page.goto(`${KOMA_URL}/`);
    await page.locator("form[data-new-game]").waitFor();
    assert.deepEqual(await cutOptions(page), [], `${locale}: the home page`);
    for (const variant of ["shogi", "xiangqi"]) {
      await createRoom(page, { variant, mode: "local" });
      assert.deepEqual(await cutOptions(page), [], `${locale}: a ${variant} room`);
    }
    assert.deepEqual(errors, [], "no script errors");
    await context.close();
  }
});

/**
 * The options of the page's visible selects that would not fit their select
 * when chosen: each option's text is set in the select's font and compared
 * with the room the select leaves for text (its width less padding and arrow).
 * @param {Page} page
 * @returns {Promise<string[]>}
 */
function cutOptions(page) {
  return page.evaluate(() => {
    const ARROW = 16;
    /** @type {string[]} */
    const cut = [];
    const probe = document.createElement("span");
    probe.style.cssText = "position: absolute; visibility: hidden; white-space: pre";
    document.body.append(probe);
    for (const select of document.querySelectorAll("select")) {
      if (!select.checkVisibility()) continue;
      const style = getComputedStyle(select);
      probe.style.font = style.font;
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - ARROW;
      for (const option of select.options) {
        probe.textContent = option.text;
        const width = probe.getBoundingClientRect().width;
        if (width > room) cut.push(`${select.name}: "${option.text}" needs ${Math.ceil(width)} px of ${room}`);
      }
    }
    probe.remove();
    return cut;
  });
}

test("on a phone, a long player name wraps in the open rooms", async () => {
  const host = await newPlayer(browser());
  await host.page.goto(`${KOMA_URL}/`);
  await host.page.evaluate(() => localStorage.setItem("koma.name", "W".repeat(40)));
  await createRoom(host.page, { variant: "shogi", mode: "online" });
  const id = new URL(host.page.url()).pathname.split("/").pop();
  const phone = await newPlayer(browser(), { viewport: PHONE });
  await phone.page.goto(`${KOMA_URL}/`);
  await phone.page.locator(`[data-lobby-rooms] [data-room-id="${id}"]`).waitFor();
  await screenshot(phone.page, "home-long-name-phone");
  const widths = await phone.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(widths.scroll <= widths.client, `no sideways scrolling: ${widths.scroll} > ${widths.client}`);
  assert.deepEqual([...host.errors, ...phone.errors], [], "no script errors");
  await host.context.close();
  await phone.context.close();
});

test("on a phone, the notice of an away player the computer took over stands clear of their name", async () => {
  const host = await newPlayer(browser(), { viewport: PHONE });
  const guest = await newPlayer(browser());
  // 10 s a move: the computer takes over before the guest's clock runs out, and moves.
  const id = await createRoom(host.page, { variant: "xiangqi", mode: "online", settings: { time_per_move: "10" } });
  await acceptInvitation(host.page, guest.page);
  await play(host.page, id, "h2e2", [host.page, guest.page]);
  await guest.context.close();
  await waitForPly(host.page, 2);
  const seat = host.page.locator("[data-seat=second][data-away]");
  await seat.locator("[data-away-notice]", { hasText: "Away: the computer plays for them" }).waitFor();
  await screenshot(host.page, "xiangqi-away-phone");
  const [name, notice, panel] = await Promise.all([
    seat.locator("[data-seat-name]").boundingBox(),
    seat.locator("[data-away-notice]").boundingBox(),
    seat.boundingBox(),
  ]);
  assert.ok(name && notice && panel, "the name and the notice are shown");
  const overlap = name.x < notice.x + notice.width && notice.x < name.x + name.width
    && name.y < notice.y + notice.height && notice.y < name.y + name.height;
  assert.ok(!overlap, `the notice ${JSON.stringify(notice)} is drawn over the name ${JSON.stringify(name)}`);
  for (const box of [name, notice]) {
    assert.ok(box.x >= panel.x - 0.5 && box.x + box.width <= panel.x + panel.width + 0.5, "inside the seat's panel");
  }
  assert.ok(name.width > 40, `the name keeps its room: ${name.width} px`);
  assert.deepEqual(host.errors, [], "no script errors");
  await host.context.close();
});
