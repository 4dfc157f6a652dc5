// The sharing panel: the invitation (or watching) link, the record to
// download, the replay link, the spectators, this device's name, and the
// rules of the game.

import { recordUrl } from "../api.js";
import { el } from "../dom.js";
import { t, tn } from "../i18n.js";
import { family } from "../pieces.js";

/** @typedef {import("./state.js").RoomState} RoomState */

/** The record formats each family can be downloaded in. */
const RECORD_FORMATS = {
  shogi: ["kif", "ki2", "csa", "sfen"],
  xiangqi: ["wxf", "iccs", "fen"],
};

/**
 * The file extension of a record format.
 * @param {string} format
 */
function extension(format) {
  if (format === "iccs" || format === "wxf") return "pgn";
  if (format === "sfen" || format === "fen") return "txt";
  return format;
}

/**
 * Draws the panel.
 * @param {HTMLElement} box
 * @param {RoomState} state
 * @param {HTMLFormElement | null} rename the rename form, on a device holding a seat
 */
export function renderShare(box, state, rename) {
  const room = state.room;
  const label = el("label", { for: "invite-url", "data-invite-label": "" });
  const input = el("input", { id: "invite-url", readonly: "", "data-invite-url": "" });
  input.value = `${window.location.origin}/rooms/${encodeURIComponent(room.id)}`;
  input.addEventListener("focus", () => input.select());
  const copy = el("button", { type: "button", "data-action": "copy-invite" }, t("share.copy"));
  copy.addEventListener("click", async () => {
    input.select();
    let copied = false;
    try {
      await navigator.clipboard.writeText(input.value);
      copied = true;
    } catch {
      copied = document.execCommand?.("copy") ?? false;
    }
    copy.textContent = copied ? t("share.copied") : t("share.copy_failed");
    window.setTimeout(() => (copy.textContent = t("share.copy")), 2000);
  });
  const line = el("div", { class: "invite-line" });
  line.append(input, copy);

  const format = el("select", { name: "record-format", "aria-label": t("record.format") });
  for (const f of RECORD_FORMATS[family(room.variant)]) format.append(new Option(t(`record.${f}`), f));
  const download = el("a", { class: "button", "data-action": "download-record" }, t("record.download"));
  const setHref = () => {
    download.href = recordUrl(room.id, format.value);
    download.download = `koma-${room.variant}-${room.id.slice(0, 8)}.${extension(format.value)}`;
  };
  format.addEventListener("change", setHref);
  setHref();
  const record = el("div", { class: "record-line" });
  record.append(format, download);

  const replayLine = el("p", { class: "replay-link" });
  replayLine.append(el("a", { href: `/replay?room=${encodeURIComponent(room.id)}`, "data-action": "replay" }, t("record.replay")));
  const spectators = el("p", { class: "note", "data-spectators": "" });
  const rules = el("a", { href: `/rules/${room.variant}`, class: "rules-link" }, t("nav.rules"));
  box.replaceChildren(label, line, record, replayLine, spectators, ...(rename ? [rename] : []), rules);
  renderSpectators(box, state);
  renderInviteLabel(box, state);
}

/**
 * Names the link: an invitation while a seat is free, else a link to watch
 * (the seats are taken; whoever opens it watches).
 * @param {ParentNode} box the panel
 * @param {RoomState} state
 */
export function renderInviteLabel(box, state) {
  const label = box.querySelector("[data-invite-label]");
  if (!(label instanceof HTMLElement)) return;
  const inviting = state.room.mode === "online" && state.room.status === "waiting";
  label.dataset.inviteLabel = inviting ? "invite" : "watch";
  label.textContent = inviting ? t("share.invite") : t("share.watch");
}

/**
 * Shows how many people watch, and whether this device only watches.
 * @param {ParentNode} box the panel
 * @param {RoomState} state
 */
export function renderSpectators(box, state) {
  const line = box.querySelector("[data-spectators]");
  if (!(line instanceof HTMLElement)) return;
  const count = state.room.spectators;
  line.dataset.spectators = String(count ?? "");
  const watching = state.seat ? "" : t("room.watching");
  line.textContent = typeof count === "number"
    ? [tn("room.spectators", count), watching].filter(Boolean).join(" · ")
    : watching;
}
