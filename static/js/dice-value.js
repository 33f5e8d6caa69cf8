// The roller's share of a roll's randomness: a fresh value from the browser's own secure
// generator, sent with each roll so the server cannot pick the faces alone. Kept (the last
// few) in this browser so the verification page can say "this value came from you".
(function () {
  "use strict";
  var KEPT = 50;
  var STORE = "srs-dice-values";

  function freshValue() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  function remember(value) {
    try {
      var kept = JSON.parse(window.localStorage.getItem(STORE) || "[]");
      kept.push(value);
      window.localStorage.setItem(STORE, JSON.stringify(kept.slice(-KEPT)));
    } catch (error) {
      // Storage refused (private mode, quota): the roll still goes out with its value.
    }
  }

  function fill(form) {
    var input = form && form.querySelector && form.querySelector("input[data-dice-value]");
    if (!input || !window.crypto || !window.crypto.getRandomValues) return null;
    input.value = freshValue();
    remember(input.value);
    return input.value;
  }

  // A plain submit (no htmx): fill the field before the browser reads the form.
  document.addEventListener("submit", function (event) { fill(event.target); }, true);

  // htmx reads the form's values itself: give this request its own fresh value.
  document.addEventListener("htmx:configRequest", function (event) {
    var element = event.detail.elt;
    var form = element && (element.tagName === "FORM" ? element : element.closest && element.closest("form"));
    var value = fill(form);
    if (value) event.detail.parameters.dice_value = value;
  });
})();
