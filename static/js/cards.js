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
