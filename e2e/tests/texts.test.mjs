// @ts-check
/**
 * Texts a player reads in their own language: the computer's and an unnamed
 * player's names, and counts in the plural form the language uses. And the
 * page keeps the player credential the server issues.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KOMA_URL, acceptInvitation, createRoom, newPlayer, useBrowser } from "../lib/koma.mjs";

const browser = useBrowser();

test("the computer and an unnamed player are named in the reader's language", async () => {
  const { context, page, errors } = await newPlayer(browser(), { locale: "de-DE" });
  await createRoom(page, { variant: "minishogi", mode: "computer", level: 1 });
  const seats = page.locator("[data-seat] strong");
  await page.locator("[data-seat=second] strong", { hasText: "Computer, Stufe 1" }).waitFor();
  const names = await seats.allTextContents();
  assert.ok(names.includes("Anonym"), `seat names: ${names}`);
  assert.ok(!names.some((name) => name.includes("(level")), `seat names: ${names}`);
  // The page keeps the player and credential the server issued, and uses them again.
  const kept = await page.evaluate(() => [localStorage.getItem("koma.player"), localStorage.getItem("koma.player.secret")]);
  assert.ok(kept[0] && kept[1], `kept: ${kept}`);
  await createRoom(page, { variant: "shogi", mode: "local" });
  const again = await page.evaluate(() => localStorage.getItem("koma.player"));
  assert.equal(again, kept[0]);
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("counts take the plural form of the language", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  await createRoom(host.page, { variant: "xiangqi", mode: "online" });
  await acceptInvitation(host.page, guest.page);
  const watcher = await newPlayer(browser());
  await watcher.page.goto(host.page.url());
  const line = host.page.locator("[data-spectators='1']");
  await line.waitFor();
  assert.equal((await line.textContent())?.trim(), "1 watching");
  // The watcher reads the count and what it is doing as two sentences.
  const own = watcher.page.locator("[data-spectators='1']");
  await own.waitFor();
  assert.match((await own.textContent()) ?? "", /^1 watching · You are watching this game\.$/);
  await watcher.page.goto(`${KOMA_URL}/`);
  const playing = watcher.page.locator("[data-count=playing]");
  await playing.filter({ hasText: /^[1-9]/ }).waitFor();
  const text = (await playing.textContent()) ?? "";
  const count = Number(text.match(/\d+/)?.[0]);
  assert.ok(count >= 1, text);
  assert.equal(text, count === 1 ? "1 game being played" : `${count} games being played`);
  for (const person of [host, guest, watcher]) {
    assert.deepEqual(person.errors, [], "no script errors");
    await person.context.close();
  }
});

test("an address with no page says so and leads home; an unknown game's rules page has a real title", async () => {
  const { context, page, errors } = await newPlayer(browser());
  for (const path of ["/no/such/page", "/rooms/"]) {
    const response = await page.goto(`${KOMA_URL}${path}`);
    assert.equal(response?.status(), 404, path);
    await page.locator("[data-not-found]").waitFor();
    assert.equal(await page.title(), "Page not found · Koma");
    await page.locator("[data-home-link]").click();
    await page.waitForURL(`${KOMA_URL}/`);
    await page.locator("form[data-new-game]").waitFor();
  }
  await page.goto(`${KOMA_URL}/rules/chess`);
  await page.locator("article.rules").filter({ hasText: "chess" }).waitFor();
  assert.equal(await page.title(), "Rules of chess · Koma");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("an open room's clock names only the parts it has", async () => {
  const host = await newPlayer(browser());
  const id = await createRoom(host.page, { variant: "shogi", mode: "online", settings: { time_per_move: "30" } });
  const visitor = await newPlayer(browser());
  await visitor.page.goto(`${KOMA_URL}/`);
  const line = visitor.page.locator("[data-lobby-rooms] li").filter({ has: visitor.page.locator(`[data-room-id="${id}"]`) });
  await line.waitFor();
  const text = (await line.textContent()) ?? "";
  assert.match(text, /30 s per move/);
  assert.doesNotMatch(text, /None/);
  for (const person of [host, visitor]) {
    assert.deepEqual(person.errors, [], "no script errors");
    await person.context.close();
  }
});
