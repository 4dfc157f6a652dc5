// The seats' clocks, counting down between fetches of the room, and
// standing at what each side had left once the game is over.

/** @typedef {import("./state.js").RoomState} RoomState */

/**
 * Milliseconds as a clock shows them: h:mm:ss, m:ss, or tenths under ten seconds.
 * @param {number} ms
 */
export function clockText(ms) {
  const total = Math.max(0, ms);
  if (total < 10000) return (Math.floor(total / 100) / 10).toFixed(1);
  const seconds = Math.ceil(total / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/**
 * Sets the `[data-clock]` of each side under `root` to the time left now: the
 * running side's from the room's `remaining_ms` less the time since the
 * fetch, the other's main time left (or its time per move once that is gone);
 * in a finished game, what each had left at the end (0 for a loss on time).
 * @param {ParentNode} root
 * @param {RoomState} state
 */
export function tickClocks(root, state) {
  const { clocks, status } = state.room;
  if (!clocks) return;
  for (const side of /** @type {const} */ (["first", "second"])) {
    const clock = root.querySelector(`[data-clock=${side}]`);
    if (!clock) continue;
    let ms;
    let running = false;
    const left = runningLeft(state);
    if (status === "finished" && clocks.final_left_ms) {
      ms = clocks.final_left_ms[side];
    } else if (clocks.running === side && left !== null) {
      ms = left;
      running = true;
    } else {
      const main = clocks.main_left_ms?.[side] ?? 0;
      ms = main > 0 ? main : clocks.time_per_move * 1000;
    }
    clock.textContent = clockText(ms);
    clock.classList.toggle("running", running);
    clock.classList.toggle("low", running && ms < 10000);
  }
}

/**
 * What the running side has left for this move now, in ms; null when no
 * clock runs.
 * @param {RoomState} state
 * @returns {number | null}
 */
export function runningLeft(state) {
  const { clocks, status } = state.room;
  if (!clocks || clocks.running === null || clocks.remaining_ms === null || status !== "playing") return null;
  return clocks.remaining_ms - (performance.now() - state.fetchedAt);
}
