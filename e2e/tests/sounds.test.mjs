// @ts-check
/**
 * Sounds: a move, a capture, check, low time and the game's end sound on the
 * room page; muting is a choice of the device and stays muted after a reload.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRoom, createRoomAt, newPlayer, play, useBrowser } from "../lib/koma.mjs";

const browser = useBrowser();

test("moves and captures sound until muted, and the mute survives a reload", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const id = await createRoom(page, { variant: "shogi", mode: "local" });
  const mute = page.locator("[data-action=mute]");
  assert.equal(await mute.getAttribute("aria-pressed"), "false");
  await play(page, id, "7g7f");
  await page.locator("body[data-sound=move]").waitFor({ state: "attached" });
  await play(page, id, "3c3d");
  // The bishops meet: Sente's takes Gote's.
  await play(page, id, "8h2b+");
  await page.locator("body[data-sound=capture]").waitFor({ state: "attached" });

  await mute.click();
  assert.equal(await mute.getAttribute("aria-pressed"), "true");
  await page.reload();
  await page.locator("[data-board]").waitFor();
  assert.equal(await page.locator("[data-action=mute]").getAttribute("aria-pressed"), "true");
  await play(page, id, "3a2b");
  assert.equal(await page.locator("body").getAttribute("data-sound"), null, "muted: no sound");

  await page.locator("[data-action=mute]").click();
  await play(page, id, "B*4e");
  await page.locator("body[data-sound=move]").waitFor({ state: "attached" });
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

/** Sente to move with a gold in hand: G*4b checks, G*5b (the pawn on 5c guarding it) mates. */
const GOLD_DROPS = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";

test("a check and the game's end each have their sound", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const checked = await createRoomAt(page, { variant: "shogi", mode: "local", position: GOLD_DROPS });
  await play(page, checked, "G*4b");
  await page.locator("body[data-sound=check]").waitFor({ state: "attached" });
  // The king takes the gold: a capture, no longer check.
  await play(page, checked, "5a4b");
  await page.locator("body[data-sound=capture]").waitFor({ state: "attached" });

  const mated = await createRoomAt(page, { variant: "shogi", mode: "local", position: GOLD_DROPS });
  await play(page, mated, "G*5b");
  await page.locator("[data-result][data-reason=checkmate]").waitFor();
  assert.equal(await page.locator("body").getAttribute("data-sound"), "end");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("the last 10 seconds of the player's clock sound once per turn", async () => {
  const { context, page, errors } = await newPlayer(browser());
  // 10 seconds a move: every turn starts within the last 10 seconds.
  const id = await createRoom(page, { variant: "minishogi", mode: "local", settings: { time_per_move: "10" } });
  await page.locator("body[data-sound=low-time]").waitFor({ state: "attached" });
  // Every sound from now on, in order. Two sounds in one task come as one
  // callback: each record's value is the next record's old value, the last
  // one's is the attribute now.
  await page.evaluate(() => {
    const heard = /** @type {string[]} */ ([]);
    /** @type {any} */ (window).heard = heard;
    new MutationObserver((records) => {
      records.forEach((_, i) => heard.push(records[i + 1]?.oldValue ?? document.body.dataset.sound ?? ""));
    }).observe(document.body, { attributeFilter: ["data-sound"], attributeOldValue: true });
  });
  await play(page, id, "5d5c");
  await page.waitForFunction(() => /** @type {any} */ (window).heard.includes("low-time"));
  // The next turn warns again, and only once (the warning may come before
  // the move's own sound: the page's redraw can come before the move's event).
  await page.waitForTimeout(1500);
  const heard = await page.evaluate(() => /** @type {any} */ (window).heard);
  assert.deepEqual([...heard].sort(), ["low-time", "move"]);
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});
