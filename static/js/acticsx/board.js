// Actics X planning by taps: a card then a square plays it there, an actor then a square
// moves it there, arrows (or a drag) change the order, and the plan is drawn on the board.
// Everything only fills the planning form's own fields, which work without JavaScript;
// boards are replaced live, so listeners sit on the document and the state is read back
// from the form each time.
import { forget } from "./choice.js";
import { draw, drawAll } from "./draw.js";
import { parts } from "./form.js";
import { keepPlans, restorePlans } from "./kept-plans.js";
import { dragEnd, dragOver, dragStart, drop, step } from "./order.js";
import { cancel, tapCard, tapSquare } from "./taps.js";

// Shows the tap controls (.ax-js-only) that only work with this script.
document.documentElement.classList.add("acticsx-js");

document.addEventListener("click", (event) => {
  const target = event.target;
  if (!target.closest) return;
  const p = parts(target);
  if (!p) return;
  const pick = target.closest("[data-pick-card]");
  if (pick) { tapCard(p, pick); return; }
  const square = target.closest(".ax-planning .ax-cell");
  if (square) { tapSquare(p, square.getAttribute("data-square")); return; }
  const stepper = target.closest("[data-order-step]");
  if (stepper) {
    step(p, stepper.closest("[data-actor-row]"), parseInt(stepper.getAttribute("data-order-step"), 10));
    // Moving the row moved the button with it; keyboard play goes on from the same button.
    stepper.focus();
  }
});

// The form's fields changed by hand (or by a tap, which announces its change) redraw it.
document.addEventListener("change", (event) => {
  const p = event.target.closest && parts(event.target);
  if (p && p.form.contains(event.target)) draw(p);
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  const p = event.target.closest && parts(event.target);
  if (p) cancel(p);
});

document.addEventListener("dragstart", dragStart);
document.addEventListener("dragover", dragOver);
document.addEventListener("drop", drop);
document.addEventListener("dragend", dragEnd);

// A plan sent lets go of the card or actor chosen: whatever comes back starts afresh.
document.addEventListener("submit", (event) => {
  const p = event.target.closest && parts(event.target);
  if (p && p.form === event.target) forget(p.board);
});

document.addEventListener("htmx:oobBeforeSwap", keepPlans);
document.addEventListener("htmx:oobAfterSwap", (event) => {
  restorePlans(event);
  drawAll();
});

// The arrows are drawn in pixels, so a new layout or a settled board needs them again.
window.addEventListener("resize", drawAll);
document.addEventListener("DOMContentLoaded", drawAll);
document.addEventListener("htmx:afterSettle", drawAll);
