// The dice commitments (roots) this browser has seen, kept per batch: if the server later
// shows another root for a batch seen before, every roll of that batch could have been
// changed, so the page says so. Commitments arrive with the page and live over the socket.
(function () {
  "use strict";
  var STORE = "srs-dice-roots";

  function load() {
    try {
      return JSON.parse(window.localStorage.getItem(STORE) || "{}") || {};
    } catch (error) {
      return {};
    }
  }

  function warn(batch, seen, now) {
    var box = document.querySelector("[data-dice-root-warning]");
    if (!box) return;
    var out = function (name, text) {
      var place = box.querySelector('[data-out="' + name + '"]');
      if (place) place.textContent = text;
    };
    out("batch", batch.split(":")[1] || batch);
    out("seen", seen);
    out("now", now);
    box.hidden = false;
  }

  function check(root) {
    var elements = (root || document).querySelectorAll("[data-dice-root][data-dice-batch]");
    if (!elements.length) return;
    var kept = load();
    var changed = false;
    elements.forEach(function (element) {
      var batch = element.dataset.diceBatch;
      var shown = element.dataset.diceRoot;
      if (!/^[0-9a-f]{64}$/.test(shown)) return;
      if (!kept[batch]) {
        kept[batch] = shown;
        changed = true;
      } else if (kept[batch] !== shown) {
        // The first root seen is kept: a server cannot overwrite it by showing another.
        warn(batch, kept[batch], shown);
      }
    });
    if (changed) {
      try {
        window.localStorage.setItem(STORE, JSON.stringify(kept));
      } catch (error) {
        // No storage (private mode, quota): nothing to compare with later.
      }
    }
  }

  function start() {
    check(document);
    new MutationObserver(function (records) {
      records.forEach(function (record) {
        record.addedNodes.forEach(function (node) {
          if (node.nodeType === 1) check(node.parentNode || node);
        });
      });
    }).observe(document.body, { childList: true, subtree: true });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
