// Main is for play: a run of bookkeeping lines (requests, allowances, entries, exits) folds
// into one line that opens on a tap; the Information channel shows them whole. Worked out
// again from the lines whenever the list changes, so lines arriving live fold as a fresh
// load folds them; nothing is touched when nothing changes (the list's observer calls it).
import { room, timeline } from "./elements.js";

const foldOpen = {};

function runsOfBookkeeping(list) {
  const runs = [];
  let run = [];
  Array.from(list.children).forEach((item) => {
    if (!item.hasAttribute("data-seq") || item.classList.contains("event-offtopic")) return;
    if (!item.textContent.trim()) return;
    if (item.classList.contains("event-folds")) {
      run.push(item);
      return;
    }
    if (run.length) runs.push(run);
    run = [];
  });
  if (run.length) runs.push(run);
  return runs.filter((lines) => lines.length >= 2);
}

function foldLineBefore(list, lines) {
  const key = lines[0].getAttribute("data-seq");
  let fold = list.querySelector('li.fold-line[data-fold="' + key + '"]');
  if (!fold) {
    fold = document.createElement("li");
    fold.className = "fold-line";
    fold.setAttribute("data-fold", key);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link-button fold-toggle";
    fold.appendChild(button);
  }
  if (fold.nextElementSibling !== lines[0]) list.insertBefore(fold, lines[0]);
  return fold;
}

export function foldLines() {
  const list = timeline();
  const holder = room();
  if (!list || !holder) return;
  const kept = {};
  const folded = [];
  runsOfBookkeeping(list).forEach((lines) => {
    const key = lines[0].getAttribute("data-seq");
    kept[key] = true;
    const open = !!foldOpen[key];
    const toggle = foldLineBefore(list, lines).firstElementChild;
    const text = lines.length + " " + holder.getAttribute("data-fold-text");
    if (toggle.textContent !== text) toggle.textContent = text;
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    toggle.setAttribute("aria-controls", lines.map((line) => line.id).join(" "));
    if (!open) folded.push(...lines);
  });
  list.querySelectorAll("li.fold-line").forEach((fold) => {
    if (!kept[fold.getAttribute("data-fold")]) fold.remove();
  });
  list.querySelectorAll("li.is-folded").forEach((line) => {
    if (folded.indexOf(line) < 0) line.classList.remove("is-folded");
  });
  folded.forEach((line) => line.classList.add("is-folded"));
}

document.addEventListener("click", (event) => {
  const toggle = event.target.closest && event.target.closest(".fold-toggle");
  if (!toggle) return;
  const key = toggle.parentNode.getAttribute("data-fold");
  foldOpen[key] = !foldOpen[key];
  foldLines();
});
