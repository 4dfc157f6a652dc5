// @ts-check
/**
 * Two people on two devices play a whole game to checkmate in each variant:
 * one creates an online room from the home page, the other opens the
 * invitation link; both click pieces, hand pieces and target squares.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { GAMES } from "../lib/games.mjs";
import {
  acceptInvitation,
  assertClass,
  assertResult,
  createRoom,
  moveList,
  newPlayer,
  pieces,
  play,
  room,
  screenshot,
  useBrowser,
} from "../lib/koma.mjs";

const browser = useBrowser();

for (const [variant, game] of Object.entries(GAMES)) {
  test(`${variant}: a game to checkmate through an invitation link (${game.shows})`, async () => {
    const host = await newPlayer(browser());
    const guest = await newPlayer(browser());
    const id = await createRoom(host.page, { variant, mode: "online" });
    await acceptInvitation(host.page, guest.page);
    // The creator plays first; the board is turned for the second player.
    assert.equal(await host.page.locator("[data-board]").getAttribute("data-orientation"), "first");
    assert.equal(await guest.page.locator("[data-board]").getAttribute("data-orientation"), "second");

    const players = [host.page, guest.page];
    for (const [index, move] of game.moves.entries()) {
      await play(players[index % 2], id, move, players);
      if (index === 20) await screenshot(host.page, `${variant}-desktop`);
    }

    for (const page of players) await assertResult(page, "first", "checkmate");
    // The mating move is marked (from and to), and so is the king in check.
    const last = game.moves[game.moves.length - 1];
    const marked = last.includes("*") ? [last.slice(2, 4)] : [last.slice(0, 2), last.slice(2, 4)];
    for (const page of players) {
      for (const at of marked) await assertClass(page, at, "last-move");
      const king = Object.entries(await pieces(page)).find(([, piece]) => piece === "K second");
      assert.ok(king, "the mated king is on the board");
      await assertClass(page, king[0], "check");
    }
    const final = await room(id);
    assert.deepEqual(final.moves, game.moves);
    assert.deepEqual(final.result, { result: "first", reason: "checkmate", side_to_move: "second", in_check: true });

    // The move list is written in the variant's notation, as the server writes it.
    const style = await host.page.locator("select[name=notation]").inputValue();
    const expected = final.notation[style];
    assert.equal(expected.length, game.moves.length, `notation ${style}`);
    for (const page of players) {
      const entries = await moveList(page);
      entries.forEach((entry, ply) => assert.ok(entry.includes(expected[ply]), `ply ${ply + 1}: "${entry}" shows ${expected[ply]}`));
    }
    assert.deepEqual([...host.errors, ...guest.errors], [], "no script errors");
    await host.context.close();
    await guest.context.close();
  });
}
