// Websocket glue that htmx attributes cannot express. The server only sends timeline events
// after the client says which it already has, so a reconnect catches up without loss or
// duplicates; the connection state stays visible; the newest line stays in view.
(function () {
  "use strict";

  function lastSeq() {
    var highest = 0;
    document.querySelectorAll("#timeline-items [data-seq]").forEach(function (item) {
      highest = Math.max(highest, parseInt(item.getAttribute("data-seq"), 10) || 0);
    });
    return highest;
  }

  function setStatus(connected) {
    var status = document.getElementById("connection-status");
    if (!status) return;
    status.textContent = status.getAttribute(connected ? "data-connected-text" : "data-disconnected-text");
    status.classList.toggle("is-live", connected);
  }

  function scrollToNewest() {
    var list = document.getElementById("timeline-items");
    if (list) list.scrollTop = list.scrollHeight;
  }

  // A board already showing this version (the mover's own page got it with the answer to
  // its request) is left alone, so a card or piece chosen meanwhile stays chosen.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var incoming = event.detail.fragment && event.detail.fragment.firstElementChild;
    if (!target || !incoming || !target.classList.contains("match-board")) return;
    // An older version delivered late (two moves announced from two threads) never
    // replaces a newer board either.
    var shown = parseInt(target.getAttribute("data-version"), 10);
    var coming = parseInt(incoming.getAttribute("data-version"), 10);
    if (!isNaN(shown) && !isNaN(coming) && coming <= shown) {
      event.detail.shouldSwap = false;
    }
  });

  // A form that typed text (an introduction, backstage notes, a new scene) clears itself
  // once the server says the action went through; a refusal leaves the text to fix.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (!form || !form.classList || !form.classList.contains("resettable")) return;
    var xhr = event.detail.xhr;
    if (xhr && xhr.getResponseHeader("X-Action-Ok") === "1") form.reset();
  });

  // Panels are re-rendered whole when they change. Keep what the viewer was doing in them:
  // text typed and choices made but not sent, open disclosures, and the keyboard focus, so
  // an update from someone else never snatches a half-made decision away.
  var LIVE_PANELS = ["stage", "chat-form", "roll-box", "characters", "gm-controls",
    "player-controls", "cast-panel", "check-request-form", "contest-form", "npc-roll-form"];
  var panelMemory = {};
  function fieldKey(field) { return field.id || (field.name ? "name:" + field.name : null); }
  function isDirty(field) {
    if (field.type === "hidden" || field.type === "submit" || field.type === "button") return false;
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      return Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    return field.value !== field.defaultValue;
  }
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || LIVE_PANELS.indexOf(target.id) < 0) return;
    var focused = document.activeElement;
    var memory = { open: [], fields: {}, focus: null, focusText: null, selection: null };
    target.querySelectorAll("details[id]").forEach(function (d) {
      memory.open.push([d.id, d.open]);
    });
    target.querySelectorAll("input, textarea, select").forEach(function (field) {
      var key = fieldKey(field);
      if (!key || (!isDirty(field) && field !== focused)) return;
      memory.fields[key] = field.tagName === "SELECT"
        ? { select: Array.prototype.map.call(field.options, function (o) { return o.selected ? o.value : null; }) }
        : { value: field.value, checked: field.checked };
    });
    if (focused && target.contains(focused)) {
      memory.focus = fieldKey(focused);
      memory.focusText = focused.textContent.trim();
      if (typeof focused.selectionStart === "number") {
        try { memory.selection = [focused.selectionStart, focused.selectionEnd]; } catch (e) { /* not text */ }
      }
    }
    panelMemory[target.id] = memory;
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail.target;
    if (!target || !panelMemory[target.id]) return;
    var memory = panelMemory[target.id];
    delete panelMemory[target.id];
    var panel = document.getElementById(target.id);
    if (!panel) return;
    memory.open.forEach(function (pair) {
      var details = document.getElementById(pair[0]);
      if (details && panel.contains(details)) details.open = pair[1];
    });
    var restored = {};
    panel.querySelectorAll("input, textarea, select").forEach(function (field) {
      var key = fieldKey(field);
      var saved = key && memory.fields[key];
      if (!saved || restored[key]) return;
      restored[key] = true;
      if (saved.select) {
        Array.prototype.forEach.call(field.options, function (o) { o.selected = saved.select.indexOf(o.value) >= 0; });
      } else if (field.type === "checkbox" || field.type === "radio") {
        field.checked = saved.checked;
      } else {
        field.value = saved.value;
      }
    });
    var focusTo = null;
    if (memory.focus) {
      focusTo = Array.prototype.find.call(panel.querySelectorAll("input, textarea, select"), function (field) {
        return fieldKey(field) === memory.focus;
      });
    }
    if (!focusTo && memory.focusText) {
      focusTo = Array.prototype.find.call(panel.querySelectorAll("button, summary"), function (el) {
        return el.textContent.trim() === memory.focusText;
      });
    }
    if (focusTo) {
      focusTo.focus();
      if (memory.selection && typeof focusTo.setSelectionRange === "function") {
        try { focusTo.setSelectionRange(memory.selection[0], memory.selection[1]); } catch (e) { /* not text */ }
      }
    }
  });

  // The presence list is rendered once for the whole room; each page marks its own viewer.
  function markViewer() {
    var room = document.getElementById("room");
    var list = document.getElementById("presence");
    if (!room || !list) return;
    var me = room.getAttribute("data-viewer");
    list.querySelectorAll("li[data-user]").forEach(function (item) {
      if (item.getAttribute("data-user") !== me || item.querySelector(".you")) return;
      var you = document.createElement("span");
      you.className = "muted you";
      you.textContent = room.getAttribute("data-you-text");
      item.appendChild(document.createTextNode(" "));
      item.appendChild(you);
    });
  }
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "presence") markViewer();
  });

  // A chat line or a roll is sent with a random key, kept until the server answers: if the
  // connection drops first, sending again repeats the key and the server, which may have
  // acted already, answers with what it stored instead of rolling a second time.
  function randomKey() {
    var bytes = new Uint8Array(18);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || !form.hasAttribute || !form.hasAttribute("data-once")) return;
    var field = form.querySelector("input[name=action_key]");
    if (field && !field.value) field.value = randomKey();
  }, true);
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    var xhr = event.detail.xhr;
    if (!form || !form.hasAttribute || !form.hasAttribute("data-once") || !xhr || xhr.status === 0) return;
    var field = form.querySelector("input[name=action_key]");
    if (field) field.value = "";
  });

  var pinger = null;
  document.addEventListener("htmx:wsOpen", function (event) {
    var socket = event.detail.socketWrapper;
    var room = document.getElementById("room");
    var onlyBoard = room && room.getAttribute("data-boards-only");
    socket.send(JSON.stringify(onlyBoard ? { type: "sync", only_board: onlyBoard } : { type: "sync", last_seq: lastSeq() }));
    setStatus(true);
    // Tell the server this page is still here, so the room's presence list stays true
    // even if a server process dies without closing its sockets.
    clearInterval(pinger);
    pinger = setInterval(function () { socket.send(JSON.stringify({ type: "ping" })); }, 60000);
  });
  // 4403: the server no longer counts this user as a member (removed from the table, or
  // they left it in another tab). Nothing more of the table is theirs to see: the room goes,
  // and with it the socket, so no reconnect is tried.
  function showRemoved() {
    var room = document.getElementById("room");
    if (!room) return;
    var notice = document.createElement("div");
    notice.id = "room-closed";
    notice.className = "card";
    notice.setAttribute("role", "alert");
    var text = document.createElement("p");
    text.textContent = room.getAttribute("data-removed-text");
    var home = document.createElement("a");
    home.href = room.getAttribute("data-home-url");
    home.textContent = room.getAttribute("data-home-text");
    notice.appendChild(text);
    notice.appendChild(home);
    room.replaceWith(notice);
  }
  document.addEventListener("htmx:wsClose", function (event) {
    clearInterval(pinger);
    setStatus(false);
    var detail = event.detail || {};
    var code = detail.event ? detail.event.code : detail.code;
    if (code === 4403) showRemoved();
    // Signed out (in another tab) or made GM: a fresh load shows what is theirs now.
    if (code === 4401 || code === 4409) window.location.reload();
  });
  document.addEventListener("htmx:wsAfterMessage", scrollToNewest);
  document.addEventListener("DOMContentLoaded", scrollToNewest);
})();
