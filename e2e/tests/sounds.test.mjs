// @ts-check
/**
 * Sounds: a move and a capture sound on the room page; muting is a choice of
 * the device and stays muted after a reload.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createRoom, launch, newPlayer, play } from "../lib/koma.mjs";

/** @type {import("playwright-core").Browser} */
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("moves and captures sound until muted, and the mute survives a reload", async () => {
  const { context, page, errors } = await newPlayer(browser);
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
