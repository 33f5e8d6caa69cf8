// Recompute a roll's proof with the browser's own WebCrypto: nothing the server computed is
// used, only what it published. The procedure ("srs-dice/v1") is written out in the README.
(function () {
  "use strict";
  var P = "srs-dice/v1";
  var WORD = 1n << 64n;
  var encoder = new TextEncoder();

  function hex(bytes) {
    return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  function unhex(text) {
    if (typeof text !== "string" || !/^([0-9a-f]{2})*$/.test(text)) throw new Error("hex");
    var bytes = new Uint8Array(text.length / 2);
    for (var i = 0; i < bytes.length; i++) bytes[i] = parseInt(text.substr(i * 2, 2), 16);
    return bytes;
  }

  function join() {
    var parts = Array.from(arguments);
    var out = new Uint8Array(parts.reduce(function (n, part) { return n + part.length; }, 0));
    var at = 0;
    parts.forEach(function (part) { out.set(part, at); at += part.length; });
    return out;
  }

  async function sha256(bytes) {
    return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  }

  async function deriveFaces(keyBytes, value, draws) {
    var key = await crypto.subtle.importKey(
      "raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]
    );
    var words = [];
    var block = 0;
    var faces = [];
    for (var d = 0; d < draws.length; d++) {
      var count = Number(draws[d][0]);
      var sides = BigInt(draws[d][1]);
      if (sides < 1n) throw new Error("sides");
      // Words at or above the limit are skipped, so every face is exactly equally likely.
      var limit = WORD - (WORD % sides);
      for (var i = 0; i < count; i++) {
        for (;;) {
          if (!words.length) {
            var message = encoder.encode(P + "/faces|" + value + "|" + block);
            var digest = new DataView(await crypto.subtle.sign("HMAC", key, message));
            for (var w = 0; w < 4; w++) words.push(digest.getBigUint64(w * 8, false));
            block += 1;
          }
          var x = words.shift();
          if (x < limit) { faces.push(1n + (x % sides)); break; }
        }
      }
    }
    return faces;
  }

  // Check one proof; resolves to {verdict, leaf, root, faces}. verdict: "ok", "commitment",
  // "values", "faces" or "malformed".
  async function verify(data) {
    var result = { verdict: "malformed", leaf: "", root: "", faces: [] };
    var key, path;
    try {
      key = unhex(data.key);
      path = data.path.map(unhex);
      if (key.length !== 32 || path.some(function (s) { return s.length !== 32; })) return result;
    } catch (error) {
      return result;
    }
    var index = Number(data.index);
    if (!Number.isInteger(index) || index < 0 || index >= data.size
        || 1 << path.length !== data.size) return result;
    var prefix = encoder.encode(
      P + "/leaf|" + data.session + "|" + data.epoch + "|" + data.index + "|"
    );
    var node = await sha256(join(new Uint8Array([0]), prefix, key));
    result.leaf = hex(node);
    for (var step = 0; step < path.length; step++) {
      var right = (index >> step) & 1;
      node = await sha256(right
        ? join(new Uint8Array([1]), path[step], node)
        : join(new Uint8Array([1]), node, path[step]));
    }
    result.root = hex(node);
    if (result.root !== data.root) { result.verdict = "commitment"; return result; }
    // A match's seed: the value is each seated player's browser's value, joined in order.
    var values = data.values || [];
    if (!Array.isArray(values) || (values.length && values.join("") !== data.value)) {
      result.verdict = "values";
      return result;
    }
    var faces = (await deriveFaces(key, data.value, data.draws)).map(String);
    result.faces = faces;
    var same = function (other) { return other.length === faces.length
      && other.every(function (face, at) { return String(face) === faces[at]; }); };
    result.verdict = same(data.faces) && (data.shown == null || same(data.shown)) ? "ok" : "faces";
    return result;
  }

  window.srsDiceVerify = verify;

  function show(verdict) {
    document.querySelectorAll("#dice-verdict [data-verdict]").forEach(function (line) {
      line.hidden = line.dataset.verdict !== verdict;
    });
  }

  function out(name, text) {
    var place = document.querySelector('[data-out="' + name + '"]');
    if (place) place.textContent = text;
  }

  async function run() {
    var source = document.getElementById("dice-proof-data");
    if (!source) return;
    var data = JSON.parse(source.textContent);
    try {
      var kept = JSON.parse(window.localStorage.getItem("srs-dice-values") || "[]");
      var mine = document.querySelector("[data-dice-mine]");
      var offered = (data.values && data.values.length) ? data.values : [data.value];
      if (mine && offered.some(function (value) { return kept.indexOf(value) !== -1; })) {
        mine.hidden = false;
      }
    } catch (error) {
      // No storage: the page simply cannot tell whose value it was.
    }
    if (!window.crypto || !window.crypto.subtle) { show("nocrypto"); return; }
    var result = await verify(data);
    out("leaf", result.leaf || "—");
    out("root", result.root || "—");
    out("faces", result.faces.join(", ") || "—");
    show(result.verdict);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})();
