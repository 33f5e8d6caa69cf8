// Actics X's action phase, step by step on the board: each step of the log lights up in
// turn together with the square it happened on. Runs when a new resolution arrives and on
// demand.
const running = {};

function replaySteps(board) {
  if (!board || running[board.id]) return;
  const steps = board.querySelectorAll(".steps li");
  if (!steps.length) return;
  const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  running[board.id] = true;
  let index = 0;
  function clear() {
    board.querySelectorAll(".step-current, .ax-highlight").forEach((element) => {
      element.classList.remove("step-current", "ax-highlight");
    });
  }
  function next() {
    clear();
    if (index >= steps.length) {
      running[board.id] = false;
      return;
    }
    const step = steps[index++];
    step.classList.add("step-current");
    const square = step.getAttribute("data-square");
    if (square) {
      const cell = board.querySelector('.ax-cell[data-square="' + square + '"]');
      if (cell) cell.classList.add("ax-highlight");
    }
    setTimeout(next, reduce ? 150 : 700);
  }
  next();
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-replay-steps]");
  if (button) replaySteps(document.getElementById(button.getAttribute("data-replay-steps")));
});

// A board that arrives with a new resolution plays it once; the one a page opens with does
// not.
const resolutionShown = {};
function replayNewResolutions() {
  document.querySelectorAll(".acticsx-board").forEach((board) => {
    const heading = board.querySelector(".resolution h4");
    const key = heading ? heading.textContent : "";
    if (key && resolutionShown[board.id] !== key) {
      const first = resolutionShown[board.id] === undefined;
      resolutionShown[board.id] = key;
      if (!first) replaySteps(board);
    }
  });
}
document.addEventListener("DOMContentLoaded", replayNewResolutions);
document.addEventListener("htmx:afterSettle", replayNewResolutions);
document.addEventListener("htmx:oobAfterSwap", replayNewResolutions);
