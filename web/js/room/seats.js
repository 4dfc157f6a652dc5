// The two seats beside the board: who sits there, connection, away
// countdown, impasse points and the clock's place. This device's side sits
// at the bottom. While this device's own connection is lost, nobody's
// connection is known.

import { sideName } from "../board.js";
import { el } from "../dom.js";
import { shownName, t } from "../i18n.js";
import { family } from "../pieces.js";
import { positionAfter } from "../moves.js";
import { impassePoints, opponent } from "../position.js";

/** @typedef {import("./state.js").RoomState} RoomState */
/** @typedef {import("./types.js").SeatName} SeatName */
/** @typedef {import("./types.js").Side} Side */
/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("../position.js").Position} Position */

/**
 * Draws both seats.
 * @param {{ top: HTMLElement, bottom: HTMLElement }} slots
 * @param {RoomState} state
 * @param {number | null} reviewPly the ply under review, null for the live position
 */
export function renderSeats(slots, state, reviewPly) {
  const room = state.room;
  const reviewed = reviewPly === null ? null : positionAfter(room.variant, room.start, room.moves, reviewPly);
  const bottomSide = state.orientation();
  const bottomName = state.seatPlaying(bottomSide);
  const topName = bottomName === "first" ? "second" : "first";
  slots.top.replaceChildren(seatPanel(state, topName, opponent(bottomSide), reviewed));
  slots.bottom.replaceChildren(seatPanel(state, bottomName, bottomSide, reviewed));
}

/**
 * A seat: `[data-seat]` with its side, connection and away countdown.
 * @param {RoomState} state
 * @param {SeatName} name
 * @param {Side} side the side it plays in this game
 * @param {Position | null} reviewed the position under review, null for the live one
 * @returns {HTMLElement}
 */
function seatPanel(state, name, side, reviewed) {
  const room = state.room;
  const seat = room.seats[name];
  const known = state.connection === "online";
  const panel = el("div", {
    class: room.status === "playing" && room.side_to_move === side ? "seat to-move" : "seat",
    "data-seat": name,
    "data-side": side,
    "data-connected": known ? String(Boolean(seat && (seat.computer || seat.connected))) : "unknown",
  });
  const dot = el("span", { class: "dot", "aria-hidden": "true" });
  const who = el("span", { class: "who" });
  const parts = [sideName(room.variant, side)];
  if (state.heldSeats().includes(name)) parts.push(t("seat.you"));
  if (seat && !seat.computer && known) parts.push(seat.connected ? t("seat.connected") : t("seat.disconnected"));
  who.append(
    el("strong", { "data-seat-name": "" }, seatTitle(room, seat)),
    el("span", { class: "sub" }, parts.join(" · ")),
  );
  panel.append(dot, who);
  if (seat?.away) {
    panel.append(el("span", { class: "away", "data-away-notice": "" }, ""));
    panel.dataset.away = "0";
  }
  if (room.impasse_points && family(room.variant) === "shogi") {
    const points = reviewed ? impassePoints(reviewed, side) : room.impasse_points[side] ?? 0;
    panel.append(el("span", {
      class: "impasse-points",
      "data-impasse-points": side,
      title: t("impasse.points_title"),
      "aria-label": t("impasse.points", { n: points }),
    }, String(points)));
  }
  if (room.clocks) {
    panel.append(el("span", {
      class: "clock",
      "data-clock": side,
      role: "timer",
      "aria-label": t("clock.label", { side: sideName(room.variant, side) }),
    }));
  }
  return panel;
}

/**
 * Counts the away seats under `root` down: seconds left in `data-away` and
 * the text, "taken over" once the computer plays, or no figure when the
 * countdown's start is unknown.
 * @param {ParentNode} root
 * @param {RoomState} state
 */
export function tickAway(root, state) {
  for (const [name, until] of Object.entries(state.awayUntil)) {
    const panel = root.querySelector(`[data-seat=${name}]`);
    const away = panel?.querySelector(".away");
    if (!(panel instanceof HTMLElement) || !away || until === undefined) continue;
    const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    panel.dataset.away = String(left);
    away.textContent = t("seat.away", { n: left });
  }
  for (const panel of Array.from(root.querySelectorAll("[data-seat][data-away]"))) {
    const name = panel.getAttribute("data-seat") ?? "";
    const away = panel.querySelector(".away");
    if (state.seatNamed(name)?.taken_over && away) away.textContent = t("seat.taken_over");
    else if (!(name in state.awayUntil) && away) away.textContent = t("seat.away_unknown");
  }
}

/**
 * What a seat panel is headed with: the computer at its level, the player's
 * name, or that the seat is free.
 * @param {Room} room
 * @param {Seat | null} seat
 * @returns {string}
 */
function seatTitle(room, seat) {
  if (!seat) return t("seat.free");
  if (seat.computer) return room.level ? t("seat.computer_level", { n: room.level }) : t("seat.computer");
  return shownName(seat.name);
}
