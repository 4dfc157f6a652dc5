// @ts-check
/**
 * A player's actions and what the room says to whoever opens it: resigning
 * asks first and is not the next Tab stop after the board; the invitation
 * is offered only while a seat is free.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { acceptInvitation, assertResult, createRoom, newPlayer, room, useBrowser } from "../lib/koma.mjs";

const browser = useBrowser();

test("resigning asks first, and the next Tab stop after the board is not Resign", async () => {
  const { context, page, errors } = await newPlayer(browser());
  const id = await createRoom(page, { variant: "xiangqi", mode: "local" });
  await page.locator("[data-board] [tabindex='0']").focus();
  await page.keyboard.press("Tab");
  const next = await page.evaluate(() => document.activeElement?.getAttribute("data-action") ?? document.activeElement?.tagName);
  assert.notEqual(next, "resign", "Tab from the board");

  await page.locator("[data-action=resign]").click();
  const question = page.locator("[data-confirm=resign]");
  await question.waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-action")), "cancel-resign", "the safe answer has the focus");
  assert.equal((await room(id)).status, "playing", "asking changes nothing");
  await page.keyboard.press("Escape");
  await question.waitFor({ state: "detached" });
  await page.locator("[data-action=resign]").click();
  await page.locator("[data-action=cancel-resign]").click();
  await question.waitFor({ state: "detached" });
  assert.equal((await room(id)).status, "playing");

  await page.locator("[data-action=resign]").click();
  await page.locator("[data-action=confirm-resign]").click();
  await assertResult(page, "second", "resignation");
  assert.deepEqual(errors, [], "no script errors");
  await context.close();
});

test("the invitation is offered only while a seat is free", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  await createRoom(host.page, { variant: "minishogi", mode: "online" });
  const label = host.page.locator("[data-invite-label]");
  assert.equal(await label.getAttribute("data-invite-label"), "invite");
  assert.match((await label.textContent()) ?? "", /takes the free seat/);
  await acceptInvitation(host.page, guest.page);
  for (const page of [host.page, guest.page]) {
    await page.locator("[data-invite-label=watch]").waitFor();
    assert.equal(await page.locator("[data-invite-label]").textContent(), "Link to watch this game");
  }
  const later = await newPlayer(browser());
  await later.page.goto(host.page.url());
  await later.page.locator("[data-invite-label=watch]").waitFor();
  for (const person of [host, guest, later]) {
    assert.deepEqual(person.errors, [], "no script errors");
    await person.context.close();
  }
});
