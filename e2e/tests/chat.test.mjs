// @ts-check
/**
 * Quick chat: a phrase one player sends arrives on the other player's page
 * in that player's own language; a spectator sees it but has no buttons.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KOMA_URL, acceptInvitation, createRoom, newPlayer, useBrowser } from "../lib/koma.mjs";

const browser = useBrowser();

test("a phrase sent in English arrives in Japanese on the other page", async () => {
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser(), { locale: "ja-JP" });
  const id = await createRoom(host.page, { variant: "xiangqi", mode: "online" });
  await acceptInvitation(host.page, guest.page);
  const watcher = await newPlayer(browser(), { locale: "de-DE" });
  await watcher.page.goto(`${KOMA_URL}/rooms/${id}`);
  await watcher.page.locator("[data-chat]").waitFor({ state: "attached" });

  await host.page.locator("[data-phrase=good_luck]").click();
  const line = guest.page.locator("[data-chat-line=good_luck]");
  await line.waitFor();
  assert.match(await line.textContent() ?? "", /よろしくお願いします$/);
  await host.page.locator("[data-chat-line=good_luck]").waitFor();
  assert.match(await host.page.locator("[data-chat-line=good_luck]").textContent() ?? "", /Good luck$/);
  await watcher.page.locator("[data-chat-line=good_luck]").waitFor();
  assert.match(await watcher.page.locator("[data-chat-line=good_luck]").textContent() ?? "", /Viel Glück$/);
  assert.equal(await watcher.page.locator("[data-phrase]").count(), 0, "a spectator cannot chat");

  await guest.page.locator("[data-phrase=thank_you]").click();
  await host.page.locator("[data-chat-line=thank_you]").waitFor();
  assert.match(await host.page.locator("[data-chat-line=thank_you]").textContent() ?? "", /Thank you$/);
  assert.deepEqual([...host.errors, ...guest.errors, ...watcher.errors], [], "no script errors");
  for (const player of [host, guest, watcher]) await player.context.close();
});
