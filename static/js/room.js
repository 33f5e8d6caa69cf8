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
    var shown = target.getAttribute("data-version");
    if (shown !== null && shown === incoming.getAttribute("data-version")) {
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

  // The stage panel is re-rendered for every change of the stage: keep what the viewer had
  // open (a confirmation) and where the keyboard focus was, so an update elsewhere does not
  // snatch a half-made decision away.
  var stageMemory = null;
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "stage") return;
    var focused = document.activeElement;
    stageMemory = {
      open: Array.prototype.map.call(target.querySelectorAll("details[open][id]"), function (d) { return d.id; }),
      focusText: focused && target.contains(focused) ? focused.textContent.trim() : null
    };
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "stage" || !stageMemory) return;
    var stage = document.getElementById("stage");
    stageMemory.open.forEach(function (id) {
      var details = document.getElementById(id);
      if (details && stage.contains(details)) details.open = true;
    });
    if (stageMemory.focusText) {
      var match = Array.prototype.find.call(stage.querySelectorAll("button, summary"), function (el) {
        return el.textContent.trim() === stageMemory.focusText;
      });
      if (match) match.focus();
    }
    stageMemory = null;
  });

  var pinger = null;
  document.addEventListener("htmx:wsOpen", function (event) {
    var socket = event.detail.socketWrapper;
    socket.send(JSON.stringify({ type: "sync", last_seq: lastSeq() }));
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
  });
  document.addEventListener("htmx:wsAfterMessage", scrollToNewest);
  document.addEventListener("DOMContentLoaded", scrollToNewest);
})();
