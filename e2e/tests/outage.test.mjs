// @ts-check
/**
 * The server stops while a game is played: the page says the connection is
 * lost and that it is retrying, no seat is shown online, a move tried
 * meanwhile is said to have failed in the player's words; once the server
 * is back the page recovers by itself and play goes on.
 *
 * The test runs a server of its own (`KOMA_BIN`, set by
 * crates/koma/tests/browser.rs; target/debug/koma otherwise), so that
 * stopping it leaves the other tests' server alone.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { newPlayer, useBrowser } from "../lib/koma.mjs";

const KOMA_BIN = process.env.KOMA_BIN ?? new URL("../../target/debug/koma", import.meta.url).pathname;

const browser = useBrowser();

/** @returns {Promise<number>} a loopback port free now */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === "object" ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Starts `koma serve` on `port` with `dir` as its data and waits for /healthz.
 * @param {number} port
 * @param {string} dir
 */
async function serve(port, dir) {
  const child = spawn(KOMA_BIN, ["serve", "--bind", `127.0.0.1:${port}`, "--data-dir", dir, "--log", "warn"], { stdio: "ignore" });
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // Not listening yet.
    }
    assert.ok(Date.now() < until, "koma serve answers /healthz within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Stops a server started by `serve` and waits until it is gone.
 * @param {import("node:child_process").ChildProcess} child
 */
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await gone;
}

test("with the server down the page says the connection is lost and retries, and recovers when it is back", async () => {
  const dir = mkdtempSync(join(tmpdir(), "koma-outage-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let server = await serve(port, dir);
  const host = await newPlayer(browser());
  const guest = await newPlayer(browser());
  try {
    await host.page.goto(`${url}/`);
    const form = host.page.locator("form[data-new-game]");
    await form.locator("select[name=variant]").selectOption("minishogi");
    await form.locator("select[name=mode]").selectOption("online");
    await form.locator("[data-action=create]").click();
    await host.page.waitForURL(/\/rooms\/[^/]+$/);
    await guest.page.goto(host.page.url());
    for (const page of [host.page, guest.page]) {
      for (const seat of ["first", "second"]) await page.locator(`[data-seat=${seat}][data-connected=true]`).waitFor();
    }

    await stop(server);
    const connection = host.page.locator("[data-connection=reconnecting]");
    await connection.waitFor();
    assert.equal(await connection.textContent(), "Connection lost: trying to reconnect…");
    for (const seat of ["first", "second"]) {
      await host.page.locator(`[data-seat=${seat}][data-connected=unknown]`).waitFor();
      assert.doesNotMatch((await host.page.locator(`[data-seat=${seat}]`).textContent()) ?? "", /online/);
    }
    // A move tried meanwhile fails in the player's words, without the browser's.
    await host.page.locator('[data-board] [data-square="5d"]').click();
    await host.page.locator('[data-board] [data-square="5c"]').click();
    const error = host.page.locator("[data-error=network]");
    await error.waitFor();
    assert.equal(await error.textContent(), "The server cannot be reached.");

    server = await serve(port, dir);
    await host.page.locator("[data-connection=online]").waitFor();
    for (const seat of ["first", "second"]) await host.page.locator(`[data-seat=${seat}][data-connected=true]`).waitFor();
    // Play goes on.
    await host.page.locator('[data-board] [data-square="5d"]').click();
    await host.page.locator('[data-board] [data-square="5c"]').click();
    await guest.page.locator("[data-move-list] [data-ply='1']").waitFor();
    assert.deepEqual([...host.errors, ...guest.errors], [], "no script errors");
  } finally {
    await host.context.close();
    await guest.context.close();
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
});
