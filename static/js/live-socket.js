// What every page on a socket does with it: the server only sends timeline events after the
// page says (in the socket's address) which it already has, so a reconnect catches up
// without loss or duplicates; the connection state stays visible; and the page says it is
// still there, so presence lists stay true even if a server process dies without closing
// its sockets.

const PING_EVERY_MS = 60000;

// The page's own place: the newest line it shows, or (a page with no timeline, such as
// after-play) the number it was rendered at.
export function lastSeq() {
  const live = document.querySelector("[ws-connect][data-last-seq]");
  let highest = live ? parseInt(live.getAttribute("data-last-seq"), 10) || 0 : 0;
  document.querySelectorAll("#timeline-items [data-seq]").forEach((item) => {
    highest = Math.max(highest, parseInt(item.getAttribute("data-seq"), 10) || 0);
  });
  return highest;
}

function showConnected(connected) {
  const status = document.getElementById("connection-status");
  if (!status) return;
  status.textContent = status.getAttribute(connected ? "data-connected-text" : "data-disconnected-text");
  status.classList.toggle("is-live", connected);
}

// place(root): where the page is, put in the socket's address at every (re)connect, so
// that the connect itself brings the page up to date: the server checks the member once,
// not again for a first message. caughtUp(root, message), if given: whether this frame
// was the catch-up's last; until then frames may still replace the page piece by piece,
// and data-synced on the socket's element says when it is whole (the browser tests wait
// for it). closed(code): what the page does when the socket closes.
export function keepLive({ place, caughtUp, closed }) {
  let pinger = null;
  // The extension's own hook for making sockets; a reconnect asks again, so the address
  // carries the page's place at that moment, not at its load.
  htmx.createWebSocket = (url) => {
    const root = document.querySelector("[ws-connect]");
    const address = new URL(url);
    if (root) {
      for (const [name, value] of Object.entries(place(root))) address.searchParams.set(name, value);
    }
    const socket = new WebSocket(address.toString());
    socket.binaryType = htmx.config.wsBinaryType;
    return socket;
  };
  document.addEventListener("htmx:wsOpen", (event) => {
    const socket = event.detail.socketWrapper;
    event.detail.elt.removeAttribute("data-synced");
    showConnected(true);
    clearInterval(pinger);
    pinger = setInterval(() => socket.send(JSON.stringify({ type: "ping" })), PING_EVERY_MS);
  });
  if (caughtUp) {
    document.addEventListener("htmx:wsAfterMessage", (event) => {
      const root = event.detail.elt;
      if (caughtUp(root, String(event.detail.message || ""))) root.setAttribute("data-synced", "");
    });
  }
  document.addEventListener("htmx:wsClose", (event) => {
    clearInterval(pinger);
    showConnected(false);
    const detail = event.detail || {};
    closed(detail.event ? detail.event.code : detail.code);
  });
}

// The page's live part gives way to a notice (and a way out, if given): nothing more is
// theirs to see, and with the socket's element gone no reconnect is tried.
export function replaceWithNotice(root, text, link) {
  const notice = document.createElement("div");
  notice.id = "room-closed";
  notice.className = "card";
  notice.setAttribute("role", "alert");
  const paragraph = document.createElement("p");
  paragraph.textContent = text;
  notice.appendChild(paragraph);
  if (link) {
    const anchor = document.createElement("a");
    anchor.href = link.href;
    anchor.textContent = link.text;
    notice.appendChild(anchor);
  }
  root.replaceWith(notice);
}
