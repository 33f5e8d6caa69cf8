// Card details: right-click or a long press opens a card's detail like a click on its
// summary does (the keyboard already toggles it with Enter or Space).
(function () {
  "use strict";
  function detailOf(target) {
    return target.closest && target.closest("[data-card-detail]");
  }
  document.addEventListener("contextmenu", function (event) {
    var detail = detailOf(event.target);
    if (!detail) return;
    event.preventDefault();
    detail.open = true;
  });
  var timer = null;
  document.addEventListener("pointerdown", function (event) {
    var detail = detailOf(event.target);
    if (!detail || event.pointerType === "mouse") return;
    timer = setTimeout(function () { detail.open = true; }, 500);
  });
  ["pointerup", "pointercancel", "pointermove"].forEach(function (name) {
    document.addEventListener(name, function () { clearTimeout(timer); });
  });
})();

// The action phase, step by step on the board: each step of the log lights up in turn
// together with the square it happened on. Runs when a new resolution arrives and on demand.
(function () {
  "use strict";
  var running = {};

  function play(board) {
    if (!board || running[board.id]) return;
    var steps = board.querySelectorAll(".steps li");
    if (!steps.length) return;
    var reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    running[board.id] = true;
    var index = 0;
    function clear() {
      board.querySelectorAll(".step-current, .ax-highlight").forEach(function (el) {
        el.classList.remove("step-current", "ax-highlight");
      });
    }
    function next() {
      clear();
      if (index >= steps.length) { running[board.id] = false; return; }
      var step = steps[index++];
      step.classList.add("step-current");
      var square = step.getAttribute("data-square");
      if (square) {
        var cell = board.querySelector('.ax-cell[data-square="' + square + '"]');
        if (cell) cell.classList.add("ax-highlight");
      }
      setTimeout(next, reduce ? 150 : 700);
    }
    next();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-replay-steps]");
    if (button) play(document.getElementById(button.getAttribute("data-replay-steps")));
  });
  // A board that arrives with a new resolution plays it once.
  var seen = {};
  function check(root) {
    (root || document).querySelectorAll(".acticsx-board").forEach(function (board) {
      var heading = board.querySelector(".resolution h4");
      var key = heading ? heading.textContent : "";
      if (key && seen[board.id] !== key) {
        var first = seen[board.id] === undefined;
        seen[board.id] = key;
        if (!first) play(board);
      }
    });
  }
  document.addEventListener("DOMContentLoaded", function () { check(document); });
  document.addEventListener("htmx:afterSettle", function () { check(document); });
  document.addEventListener("htmx:oobAfterSwap", function () { check(document); });
})();
