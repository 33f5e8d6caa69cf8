// Phone: a tab bar shows one of the room's panels at a time; wide screens show them all and
// ignore it.
import { playCard } from "./elements.js";
import { isFollowing, scrollToNewest } from "./following.js";

export function showPanel(name) {
  document.querySelectorAll("[data-room-panel]").forEach((panel) => {
    panel.classList.toggle("is-current", panel.getAttribute("data-room-panel") === name);
  });
  document.querySelectorAll("[data-room-tab]").forEach((tab) => {
    tab.setAttribute("aria-pressed", tab.getAttribute("data-room-tab") === name ? "true" : "false");
  });
  if (name === "play") {
    const badge = document.querySelector("[data-chat-badge]");
    if (badge) {
      badge.hidden = true;
      badge.textContent = "";
    }
    if (isFollowing()) scrollToNewest();
  }
}

// On a phone showing another panel, the Chat tab counts the lines that came meanwhile.
export function countOnChatTab(lines) {
  const bar = document.querySelector(".room-tabs");
  const play = playCard();
  if (!bar || !play || bar.offsetParent === null || play.classList.contains("is-current")) return;
  const badge = document.querySelector("[data-chat-badge]");
  badge.textContent = String((parseInt(badge.textContent, 10) || 0) + lines);
  badge.hidden = false;
}

document.addEventListener("click", (event) => {
  const tab = event.target.closest("[data-room-tab]");
  if (tab) showPanel(tab.getAttribute("data-room-tab"));
});
