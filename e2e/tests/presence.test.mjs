// @ts-check
/**
 * Who is in a room, without polling: the seats' connections and the number
 * of spectators follow the room WebSocket's presence frames; a seated player
 * changes their name and both players see it in the seat. A player who
 * leaves short of time is taken over in time, and a game over shows the
 * final clocks and nobody away.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KOMA_URL, acceptInvitation, assertResult, createRoom, newPlayer, play, room, useBrowser, waitForPly } from "../lib/koma.mjs";

const browser = useBrowser();

test("spectators are counted and a player's leaving shows at once", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  const id = await createRoom(host.page, { variant: "minishogi", mode: "online" });
  await host.page.locator('[data-spectators="0"]').waitFor();
  // The guest's socket opens after their seat event: only presence tells the host.
  await acceptInvitation(host.page, guest.page);

  const watcher = await newPlayer(browser());
  await watcher.page.goto(`${KOMA_URL}/rooms/${id}`);
  await watcher.page.locator("[data-board]").waitFor();
  for (const page of [host.page, guest.page, watcher.page]) await page.locator('[data-spectators="1"]').waitFor();
  assert.equal((await room(id)).seats.second?.computer, false);

  await watcher.context.close();
  for (const page of [host.page, guest.page]) await page.locator('[data-spectators="0"]').waitFor();
  await guest.context.close();
  await host.page.locator("[data-seat=second][data-connected=false]").waitFor();
  assert.deepEqual(host.errors, [], "no script errors");
  await host.context.close();
});

test("a player renames their seat and both players see the name", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  const id = await createRoom(host.page, { variant: "shogi", mode: "online" });
  await acceptInvitation(host.page, guest.page);
  const form = host.page.locator("form[data-rename]");
  await form.locator("input[name=name]").fill("Kai the Bold");
  await form.locator("[data-action=rename]").click();
  for (const page of [host.page, guest.page]) {
    await page.locator("[data-seat=first]", { hasText: "Kai the Bold" }).waitFor();
  }
  assert.equal((await room(id)).seats.first?.name, "Kai the Bold");
  // The guest renames their own seat, not the host's.
  await guest.page.locator("form[data-rename] input[name=name]").fill("Bo");
  await guest.page.locator("form[data-rename] [data-action=rename]").click();
  await host.page.locator("[data-seat=second]", { hasText: "Bo" }).waitFor();
  const seats = (await room(id)).seats;
  assert.deepEqual([seats.first?.name, seats.second?.name], ["Kai the Bold", "Bo"]);
  // The name is kept for the next game this browser starts.
  await host.page.goto(`${KOMA_URL}/`);
  assert.equal(await host.page.locator("form[data-new-game] input[name=name]").inputValue(), "Kai the Bold");
  assert.deepEqual([...host.errors, ...guest.errors], [], "no script errors");
  await host.context.close();
  await guest.context.close();
});

test("on one device the two players name their own seats", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const id = await createRoom(page, { variant: "annan", mode: "local" });
  const form = page.locator("form[data-rename]");
  await form.locator("select[name=seat]").selectOption("second");
  await form.locator("input[name=name]").fill("Kid");
  await form.locator("[data-action=rename]").click();
  await page.locator("[data-seat=second]", { hasText: "Kid" }).waitFor();
  await form.locator("select[name=seat]").selectOption("first");
  assert.notEqual(await form.locator("input[name=name]").inputValue(), "Kid", "the first seat's own name is offered");
  const seats = (await room(id)).seats;
  assert.equal(seats.second?.name, "Kid");
  assert.notEqual(seats.first?.name, "Kid");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("a player who leaves on a 10 s move is taken over in time; the game lost on time shows 0.0 and nobody away", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  const id = await createRoom(host.page, { variant: "minishogi", mode: "online", settings: { time_per_move: "10" } });
  await acceptInvitation(host.page, guest.page);
  await play(host.page, id, "5d5c", [host.page, guest.page]);
  // The guest leaves on their turn with less than the 20 s grace period on the clock.
  await guest.context.close();
  await host.page.locator("[data-seat=second][data-away]").waitFor();
  await waitForPly(host.page, 2);
  const taken = await room(id);
  assert.equal(taken.moves.length, 2, "the computer moved for the guest");
  assert.equal(taken.status, "playing", "before the guest's clock ran out");
  // The host lets their own 10 s run out.
  await assertResult(host.page, "second", "timeout");
  assert.equal(await host.page.locator("[data-clock=first]").textContent(), "0.0", "the loser's clock");
  assert.equal(await host.page.locator("[data-clock=second]").textContent(), "0:10", "the winner's time per move");
  await host.page.locator("[data-seat=second]:not([data-away])").waitFor();
  assert.equal(await host.page.locator("[data-away-notice]").count(), 0, "no away notice after the game");
  assert.deepEqual(host.errors, [], "no script errors");
  await host.context.close();
});
