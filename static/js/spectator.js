// The spectator's page on its own socket: the session's public side, read-only.
import { keepLive, lastSeq, replaceWithNotice } from "./live-socket.js";

const CLOSE_WATCH_ENDED = 4403;

keepLive({
  place: () => ({ last_seq: lastSeq() }),
  // The GM stopped sharing the table (or made a new link): the room gives way to a notice.
  closed(code) {
    const room = document.getElementById("room");
    if (code === CLOSE_WATCH_ENDED && room) replaceWithNotice(room, room.getAttribute("data-closed-text"));
  },
});

// The newest lines are what a spectator came for: the list opens at its end and follows
// new lines while the reader is there; one who scrolled back keeps their place.
let following = true;

function timeline() {
  return document.getElementById("timeline-items");
}

function toNewest() {
  const list = timeline();
  if (list) list.scrollTop = list.scrollHeight;
}

document.addEventListener("scroll", (event) => {
  const list = timeline();
  if (!list || event.target !== list) return;
  following = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
}, true);

document.addEventListener("htmx:wsAfterMessage", () => {
  if (following) toNewest();
});

// Pictures loading in the lines make them taller: a reader at the end stays there.
document.addEventListener("load", (event) => {
  const list = timeline();
  if (following && list && event.target.tagName === "IMG" && list.contains(event.target)) toNewest();
}, true);

toNewest();
