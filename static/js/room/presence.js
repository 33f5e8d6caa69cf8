// The presence list is rendered once for the whole room; each page marks its own viewer.
import { room } from "./elements.js";

function markViewer() {
  const holder = room();
  const list = document.getElementById("presence");
  if (!holder || !list) return;
  const me = holder.getAttribute("data-viewer");
  list.querySelectorAll("li[data-user]").forEach((item) => {
    if (item.getAttribute("data-user") !== me || item.querySelector(".you")) return;
    const you = document.createElement("span");
    you.className = "muted you";
    you.textContent = holder.getAttribute("data-you-text");
    item.appendChild(document.createTextNode(" "));
    item.appendChild(you);
  });
}

document.addEventListener("htmx:oobAfterSwap", (event) => {
  if (event.detail.target && event.detail.target.id === "presence") markViewer();
});
