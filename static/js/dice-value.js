// The roller's share of a roll's randomness: a fresh value from the browser's own secure
// generator, sent with each roll so the server cannot pick the faces alone. Right before
// drawing it, the page asks the server to set the roll's key aside (a reservation, published
// at once), so the server has fixed the key before it sees the value. Kept (the last few) in
// this browser so the verification page can say "this value came from you".
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

  function valueInput(form) {
    return form && form.querySelector && form.querySelector("input[data-dice-value]");
  }

  // The form whose own submission this htmx request is, or null. A preview inside a
  // rolling form (the check widget's chances) posts from a child element: it rolls
  // nothing, so it must neither set a key aside nor spend the drawn value.
  function submittedForm(event) {
    var element = event.detail.elt;
    return element && element.tagName === "FORM" ? element : null;
  }

  function fill(form) {
    var input = valueInput(form);
    if (!input || !window.crypto || !window.crypto.getRandomValues) return null;
    input.value = freshValue();
    remember(input.value);
    return input.value;
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  // Ask for this roll's key; resolves to the reservation's id, or "" when none was given
  // (the roll then takes the next key when it arrives, as a page without script does).
  function reserve(form) {
    var input = valueInput(form);
    var place = form.querySelector("input[data-dice-reservation]");
    if (!input || !place || !input.dataset.diceReserve || !window.fetch) return Promise.resolve("");
    return window.fetch(input.dataset.diceReserve, {
      method: "POST",
      headers: { "X-CSRFToken": csrfToken() },
      credentials: "same-origin",
    }).then(function (response) {
      return response.ok ? response.json() : {};
    }).then(function (answer) {
      place.value = answer.reservation ? String(answer.reservation) : "";
      if (answer.batch && answer.root) keepRoot(answer.batch, answer.root);
      return place.value;
    }, function () {
      place.value = "";
      return "";
    });
  }

  // A key committed with its reservation (a practice game's, which no session's page
  // shows): kept where the pages that show commitments compare them (dice-roots.js).
  function keepRoot(batch, root) {
    try {
      var kept = JSON.parse(window.localStorage.getItem("srs-dice-roots") || "{}") || {};
      if (!kept[batch]) kept[batch] = root;
      window.localStorage.setItem("srs-dice-roots", JSON.stringify(kept));
    } catch (error) {
      // No storage: nothing to compare with later.
    }
  }

  // A plain submit (no htmx): fill the field before the browser reads the form; where a
  // key is to be reserved first, hold the submit until it is, then send it again.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || form.matches("[hx-post]") || !valueInput(form)) return;
    if (form.dataset.diceReady) {
      delete form.dataset.diceReady;
      return;
    }
    if (!valueInput(form).dataset.diceReserve || !window.fetch || !form.requestSubmit) {
      fill(form);
      return;
    }
    event.preventDefault();
    var submitter = event.submitter;
    reserve(form).then(function () {
      fill(form);
      form.dataset.diceReady = "1";
      form.requestSubmit(submitter && submitter.form === form ? submitter : undefined);
    });
  }, true);

  // htmx: reserve the key first, then draw the value and send.
  document.addEventListener("htmx:confirm", function (event) {
    var form = submittedForm(event);
    if (!valueInput(form) || event.detail.verb !== "post") return;
    event.preventDefault();
    reserve(form).then(function () {
      fill(form);
      event.detail.issueRequest(true);
    });
  });

  // htmx reads the form's values itself: give this request the value drawn above.
  document.addEventListener("htmx:configRequest", function (event) {
    var form = submittedForm(event);
    var input = valueInput(form);
    if (!input || !input.value) return;
    event.detail.parameters.dice_value = input.value;
    var place = form.querySelector("input[data-dice-reservation]");
    if (place) event.detail.parameters.dice_reservation = place.value;
    // Each roll draws afresh: a form sent again reserves and draws again.
    input.value = "";
    if (place) place.value = "";
  });
})();
