// The spectator page's websocket glue: say which lines the page holds so a reconnect
// catches up without loss or duplicates, show the connection state, and when the GM stops
// sharing the table (close code 4403) replace the room with a notice so no reconnect is tried.
(function () {
  "use strict";

  function lastSeq() {
    var room = document.getElementById("room");
    var highest = room ? parseInt(room.getAttribute("data-last-seq"), 10) || 0 : 0;
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

  var pinger = null;
  document.addEventListener("htmx:wsOpen", function (event) {
    var socket = event.detail.socketWrapper;
    socket.send(JSON.stringify({ type: "sync", last_seq: lastSeq() }));
    setStatus(true);
    clearInterval(pinger);
    pinger = setInterval(function () { socket.send(JSON.stringify({ type: "ping" })); }, 60000);
  });

  function showClosed() {
    var room = document.getElementById("room");
    if (!room) return;
    var notice = document.createElement("div");
    notice.id = "room-closed";
    notice.className = "card";
    notice.setAttribute("role", "alert");
    var text = document.createElement("p");
    text.textContent = room.getAttribute("data-closed-text");
    notice.appendChild(text);
    room.replaceWith(notice);
  }

  document.addEventListener("htmx:wsClose", function (event) {
    clearInterval(pinger);
    setStatus(false);
    var detail = event.detail || {};
    var code = detail.event ? detail.event.code : detail.code;
    if (code === 4403) showClosed();
  });

  // The newest lines are what a spectator came for: the list opens at its end and follows
  // new lines while the reader is there; one who scrolled back keeps their place.
  var following = true;
  function timeline() { return document.getElementById("timeline-items"); }
  function toNewest() {
    var list = timeline();
    if (list) list.scrollTop = list.scrollHeight;
  }
  document.addEventListener("scroll", function (event) {
    var list = timeline();
    if (!list || event.target !== list) return;
    following = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  }, true);
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (following) toNewest();
  });
  // Pictures loading in the lines make them taller: a reader at the end stays there.
  document.addEventListener("load", function (event) {
    var list = timeline();
    if (following && list && event.target.tagName === "IMG" && list.contains(event.target)) toNewest();
  }, true);
  toNewest();
})();
