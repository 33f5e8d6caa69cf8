// The order the actors act in, changed with the arrow buttons (for touch and keys) or by
// dragging a row (for a mouse). Both move the row and renumber, so the form says the same.
import { say } from "./announce.js";
import { draw } from "./draw.js";
import { parts, renumber } from "./form.js";

export function step(p, row, by) {
  const rows = Array.prototype.slice.call(p.form.querySelectorAll("[data-actor-row]"));
  const at = rows.indexOf(row);
  const to = at + by;
  if (to < 0 || to >= rows.length) return;
  if (by < 0) row.parentNode.insertBefore(row, rows[to]);
  else row.parentNode.insertBefore(row, rows[to].nextSibling);
  renumber(p.form);
  draw(p);
  say(p.form, "order", { actor: row.getAttribute("data-name"), n: to + 1 });
}

let dragged = null;

export function dragStart(event) {
  dragged = event.target.closest && event.target.closest("[data-actor-row]");
  if (dragged && event.dataTransfer) {
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", dragged.getAttribute("data-actor-row"));
  }
}

// Only a row of the same list accepts the drop: another board's rows are another plan.
export function dragOver(event) {
  const over = dragged && event.target.closest && event.target.closest("[data-actor-row]");
  if (over && over.parentNode === dragged.parentNode) event.preventDefault();
}

export function drop(event) {
  const over = dragged && event.target.closest && event.target.closest("[data-actor-row]");
  if (!over || over === dragged || over.parentNode !== dragged.parentNode) return;
  event.preventDefault();
  const rows = Array.prototype.slice.call(over.parentNode.children);
  const later = rows.indexOf(dragged) < rows.indexOf(over);
  over.parentNode.insertBefore(dragged, later ? over.nextSibling : over);
  const p = parts(over);
  renumber(p.form);
  draw(p);
  say(p.form, "order", { actor: dragged.getAttribute("data-name"), n: rows.indexOf(over) + 1 });
  dragged = null;
}

export function dragEnd() {
  dragged = null;
}
