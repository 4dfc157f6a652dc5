// @ts-check
/**
 * The home page: the lobby lists an online room waiting for a player as soon
 * as it is created, a visitor takes the free seat from there, the statistics
 * have a row per variant, and each variant's rules page has its diagrams.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KOMA_URL, createRoom, newPlayer, useBrowser } from "../lib/koma.mjs";

const VARIANTS = ["shogi", "minishogi", "annan", "xiangqi"];

const browser = useBrowser();

test("a waiting room shows in the lobby and a visitor joins from there", async () => {
  const visitor = await newPlayer(browser());
  await visitor.page.goto(`${KOMA_URL}/`);
  await visitor.page.locator("[data-lobby-rooms]").waitFor({ state: "attached" });
  const host = await newPlayer(browser());
  const id = await createRoom(host.page, { variant: "minishogi", mode: "online" });

  // The visitor's open page hears of the room without reloading.
  const link = visitor.page.locator(`[data-lobby-rooms] a[data-room-id="${id}"]`);
  await link.waitFor();
  const waiting = Number((await visitor.page.locator("[data-count=waiting]").textContent())?.match(/\d+/)?.[0]);
  assert.ok(waiting >= 1, `rooms waiting: ${waiting}`);
  for (const variant of VARIANTS) await visitor.page.locator(`[data-stats] [data-stats-variant=${variant}]`).waitFor();

  await link.click();
  await visitor.page.waitForURL(`${KOMA_URL}/rooms/${id}`);
  for (const page of [host.page, visitor.page]) await page.locator("[data-status=playing]").waitFor();
  assert.equal(await visitor.page.locator("[data-board]").getAttribute("data-orientation"), "second");
  assert.deepEqual([...host.errors, ...visitor.errors], [], "no script errors");
  await host.context.close();
  await visitor.context.close();
});

/** The house rules of every game's rooms. */
const ROOM_SETTINGS = ["time_per_move", "main_time", "move_limit", "illegal_move_loses", "swap_first_player",
  "show_targets", "rated", "chat"];

test("every variant's rules page is linked from home and has move diagrams", async () => {
  const { context, page, errors } = await newPlayer(browser());
  for (const variant of VARIANTS) {
    await page.goto(`${KOMA_URL}/`);
    await page.locator(`a[href="/rules/${variant}"]`).first().click();
    await page.waitForURL(`${KOMA_URL}/rules/${variant}`);
    await page.locator(`[data-rules=${variant}] svg[data-diagram]`).first().waitFor();
    // The house rules every game's rooms take are all listed (docs/rules.md's room settings).
    const listed = await page.locator("[data-rules] [data-setting]").evaluateAll((items) =>
      items.map((item) => item.getAttribute("data-setting")));
    for (const key of ROOM_SETTINGS) assert.ok(listed.includes(key), `${variant}: no ${key} in ${listed}`);
  }
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});
