// The newest line stays in view while the reader is at the bottom; a reader who scrolled
// back keeps their place and gets a button down to the new lines instead.
import { timeline } from "./elements.js";

let following = true;
// Where the script last put the list: only a reader moving up from there stops following
// (the pane shrinking under a still list is no reason to).
let placedAt = 0;

function atBottom(list) {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 40;
}

function newLinesButton() {
  return document.querySelector("[data-new-lines]");
}

export function isFollowing() {
  return following;
}

export function scrollToNewest() {
  const list = timeline();
  if (list) {
    list.scrollTop = list.scrollHeight;
    placedAt = list.scrollTop;
  }
  following = true;
  const button = newLinesButton();
  if (button) button.hidden = true;
}

// Lines in the shown channel have come: followed, or announced by the button. A list not
// laid out (a phone showing another panel) is followed, to be at its end when shown.
export function newLinesArrived() {
  const list = timeline();
  if (following || (list && list.clientHeight === 0)) {
    scrollToNewest();
  } else {
    newLinesButton().hidden = false;
  }
}

document.addEventListener("scroll", (event) => {
  const list = timeline();
  if (!list || event.target !== list) return;
  if (atBottom(list)) {
    following = true;
    placedAt = list.scrollTop;
    newLinesButton().hidden = true;
  } else if (list.scrollTop < placedAt - 2) {
    following = false;
  }
}, true);

document.addEventListener("click", (event) => {
  if (event.target.closest("[data-new-lines]")) scrollToNewest();
});

// The pane shrinks (a check alert above it) and lines grow (dice pictures loading): a
// reader following the newest line stays with it.
function keepFollowing() {
  const list = timeline();
  if (following && list) {
    list.scrollTop = list.scrollHeight;
    placedAt = list.scrollTop;
  }
}

export function followResizes(list) {
  if (window.ResizeObserver) new ResizeObserver(keepFollowing).observe(list);
}

document.addEventListener("load", (event) => {
  const list = timeline();
  if (list && event.target.tagName === "IMG" && list.contains(event.target)) keepFollowing();
}, true);
