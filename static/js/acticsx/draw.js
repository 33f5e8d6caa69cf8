// The plan drawn on the board from the form's fields: cards where they will be played,
// each actor's move or action numbered in the order the server will run them, and the
// squares the chosen card or actor can go to.
import { arrows } from "./arrows.js";
import { current, legalSquares } from "./choice.js";
import { actorSelect, cardSelect, cell, parts } from "./form.js";

function mark(target, kind, order, text, to) {
  if (!target) return;
  const span = document.createElement("span");
  if (to) span.setAttribute("data-to", to);
  span.className = "ax-mark ax-mark-" + kind;
  span.setAttribute("aria-hidden", "true");
  if (order) {
    const b = document.createElement("b");
    b.textContent = order;
    span.appendChild(b);
  }
  if (text) span.appendChild(document.createTextNode(text));
  target.appendChild(span);
}

// The order the server will read: order numbers first, then the square (as it sorts).
function plannedActors(form) {
  const entries = [];
  form.querySelectorAll("[data-actor-row]").forEach((row) => {
    const square = row.getAttribute("data-actor-row");
    const select = actorSelect(form, square);
    if (!select || select.value === "wait" || !select.value) return;
    const order = parseInt(form.querySelector('input[name="order_' + square + '"]').value, 10);
    entries.push({ square: square, order: isNaN(order) ? 99 : order, option: select.options[select.selectedIndex] });
  });
  entries.sort((a, b) => {
    if (a.order !== b.order) return a.order - b.order;
    return a.square < b.square ? -1 : a.square > b.square ? 1 : 0;
  });
  return entries;
}

export function draw(p) {
  const board = p.board, form = p.form;
  board.querySelectorAll(".ax-mark").forEach((m) => { m.remove(); });
  board.querySelectorAll(".ax-cell").forEach((c) => {
    c.classList.remove("ax-legal", "ax-chosen", "ax-plan-to");
  });
  form.querySelectorAll("[data-card-row]").forEach((row) => {
    const index = row.getAttribute("data-card-row");
    const select = cardSelect(form, index);
    const pick = row.querySelector("[data-pick-card]");
    if (select && select.value) mark(cell(board, select.value), "play", null, pick.getAttribute("data-name"));
    if (pick) pick.classList.toggle("ax-card-planned", !!(select && select.value));
  });
  plannedActors(form).forEach((entry, position) => {
    const n = position + 1;
    const target = entry.option.getAttribute("data-target");
    if (target) {
      mark(cell(board, entry.square), "from", n, entry.option.getAttribute("data-mark"), target);
      mark(cell(board, target), "to", n, "");
      const to = cell(board, target);
      if (to) to.classList.add("ax-plan-to");
    } else {
      mark(cell(board, entry.square), "action", n, entry.option.getAttribute("data-mark"));
    }
  });
  arrows(board);
  form.querySelectorAll("[data-actor-row]").forEach((row, position) => {
    const number = row.querySelector(".ax-order-number");
    if (number) number.textContent = position + 1;
  });
  const choice = current(p);
  form.querySelectorAll("[data-pick-card]").forEach((pick) => {
    const on = !!choice && choice.card === pick.getAttribute("data-pick-card");
    pick.setAttribute("aria-pressed", on ? "true" : "false");
  });
  if (choice) {
    const from = choice.actor !== undefined ? cell(board, choice.actor) : null;
    if (from) from.classList.add("ax-chosen");
    legalSquares(p, choice).forEach((square) => {
      const c = cell(board, square);
      if (c) c.classList.add("ax-legal");
    });
  }
}

// A board without a plan form (a confirmed plan, a spectator's view) still gets the arrows
// of the plan the server marked on it.
export function drawAll() {
  document.querySelectorAll(".acticsx-board").forEach((board) => {
    const p = parts(board);
    if (p) draw(p); else arrows(board);
  });
}
