// Websocket glue that htmx attributes cannot express. The server only sends timeline events
// after the client says which it already has, so a reconnect catches up without loss or
// duplicates; the connection state stays visible; the newest line stays in view.
(function () {
  "use strict";

  // The room, the after-play page and a match's page share the session's socket, which
  // sends each member the partials of every page of the session (rendered once per
  // audience, not per page). A page takes the partials it shows and leaves the others: an
  // out-of-band part whose target this page lacks is dropped here, before htmx would report
  // it as an error (htmx:oobErrorNoTarget).
  if (window.htmx) {
    htmx.defineExtension("page-panels", {
      transformResponse: function (text) {
        var template = document.createElement("template");
        template.innerHTML = text;
        var dropped = false;
        Array.prototype.slice.call(template.content.children).forEach(function (part) {
          var oob = part.getAttribute("hx-swap-oob");
          if (oob === null) return;
          var colon = oob.indexOf(":");
          var target = colon >= 0
            ? document.querySelector(oob.slice(colon + 1))
            : part.id && document.getElementById(part.id);
          if (!target) {
            part.remove();
            dropped = true;
          }
        });
        return dropped ? template.innerHTML : text;
      }
    });
  }

  // The page's own place: the newest line it shows, or (a page of the session with no
  // timeline, such as after-play) the number it was rendered at.
  function lastSeq() {
    var live = document.querySelector("[ws-connect][data-last-seq]");
    var highest = live ? parseInt(live.getAttribute("data-last-seq"), 10) || 0 : 0;
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
    // A seat's private setting (Actual's Counter mode) changes no version: a board of the
    // same version with another setting is news from the seat's other page.
    var sameSetting =
      target.getAttribute("data-seat-setting") === incoming.getAttribute("data-seat-setting");
    if (!isNaN(shown) && !isNaN(coming) && (coming < shown || (coming === shown && sameSetting))) {
      event.detail.shouldSwap = false;
    }
  });

  // Picking a planned scene fills in its title, place and purpose, to be read and edited
  // before the scene starts; what the GM typed over a previous pick is kept.
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!select.matches || !select.matches("[data-planned-fills]")) return;
    var form = select.form;
    var option = select.options[select.selectedIndex];
    ["title", "place", "purpose"].forEach(function (name) {
      var field = form && form.elements[name];
      if (!field) return;
      var filled = field.getAttribute("data-filled");
      if (field.value !== "" && field.value !== filled) return;
      var value = (option && option.getAttribute("data-" + name)) || "";
      field.value = value;
      field.setAttribute("data-filled", value);
    });
  });

  // A form that typed text (an introduction, backstage notes, a new scene) clears itself
  // once the server says the action went through; a refusal leaves the text to fix.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (!form || !form.classList || !form.classList.contains("resettable")) return;
    var xhr = event.detail.xhr;
    if (xhr && xhr.getResponseHeader("X-Action-Ok") === "1") form.reset();
  });

  // The chat form is replaced by the server's answer to Send. Someone who types on before
  // the answer arrives keeps what they typed: the new form takes the text typed since the
  // line left (on a refusal, the text as it stands now, to fix and send again).
  var chatSent = null;
  var chatTyped = null;
  function chatText(form) { return form && form.querySelector("[name=text]"); }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.id === "chat-form") chatSent = chatText(form) ? chatText(form).value : null;
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    chatTyped = null;
    if (!target || target.id !== "chat-form" || chatSent === null) return;
    var field = chatText(target);
    if (!field || field.value === chatSent) return;
    var ok = event.detail.xhr && event.detail.xhr.getResponseHeader("X-Action-Ok") === "1";
    chatTyped = ok && field.value.indexOf(chatSent) === 0
      ? field.value.slice(chatSent.length).replace(/^\s+/, "") : field.value;
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (chatTyped === null) return;
    var field = chatText(document.getElementById("chat-form"));
    if (field && chatTyped) field.value = chatTyped;
    chatTyped = null;
    chatSent = null;
  });

  // Panels are re-rendered whole when they change. Keep what the viewer was doing in them:
  // text typed and choices made but not sent, open disclosures, and the keyboard focus, so
  // an update from someone else never snatches a half-made decision away.
  // The server marks those panels (data-live-panel, data-keeps-input) from its panel table.
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
    if (!target || !target.matches("[data-live-panel][data-keeps-input]")) return;
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

  // A panel rendered once for everyone present carries nobody's CSRF token: a plain form in
  // it takes this page's own (the one htmx sends as a header) as it is sent.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || (form.getAttribute("method") || "").toLowerCase() !== "post") return;
    if (form.querySelector("input[name=csrfmiddlewaretoken]")) return;
    var headers = {};
    try { headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (e) { return; }
    if (!headers["X-CSRFToken"]) return;
    var token = document.createElement("input");
    token.type = "hidden";
    token.name = "csrfmiddlewaretoken";
    token.value = headers["X-CSRFToken"];
    form.appendChild(token);
  }, true);

  var pinger = null;
  document.addEventListener("htmx:wsOpen", function (event) {
    var socket = event.detail.socketWrapper;
    var room = document.getElementById("room");
    var onlyBoard = room && room.getAttribute("data-boards-only");
    // Until the catch-up's last frame has come, the page may still be replaced piece by
    // piece: data-synced on the socket's element says when it is whole (tests wait for it).
    event.detail.elt.removeAttribute("data-synced");
    socket.send(JSON.stringify(onlyBoard ? { type: "sync", only_board: onlyBoard } : { type: "sync", last_seq: lastSeq() }));
    setStatus(true);
    // Tell the server this page is still here, so the room's presence list stays true
    // even if a server process dies without closing its sockets.
    clearInterval(pinger);
    pinger = setInterval(function () { socket.send(JSON.stringify({ type: "ping" })); }, 60000);
  });
  // The room's catch-up ends with the list of boards; a match page's, with its board; the
  // experience and after-play pages' is one frame.
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    var root = event.detail.elt;
    var message = String(event.detail.message || "");
    var ends = root.id !== "room" || root.getAttribute("data-boards-only") ||
      message.indexOf('id="matches"') >= 0;
    if (ends) root.setAttribute("data-synced", "");
  });
  // 4403: the server no longer counts this user as a member (removed from the table, or
  // they left it in another tab). Nothing more of the table is theirs to see: the room goes,
  // and with it the socket, so no reconnect is tried.
  function showRemoved() {
    var room = document.querySelector("[ws-connect]");
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

  // ---- The play table: the room's panels one tap away on a phone, the timeline's channels,
  // the newest line kept in view, and a check waiting for the viewer made hard to miss.

  function room() { return document.getElementById("room"); }
  function timeline() { return document.getElementById("timeline-items"); }
  function playCard() { return document.querySelector(".timeline-card[data-room-panel]"); }

  // The newest line stays in view while the reader is at the bottom; a reader who scrolled
  // back keeps their place and gets a button down to the new lines instead.
  var following = true;
  // Where the script last put the list: only a reader moving up from there stops following
  // (the pane shrinking under a still list is no reason to).
  var placedAt = 0;
  function atBottom(list) { return list.scrollHeight - list.scrollTop - list.clientHeight < 40; }
  function newLinesButton() { return document.querySelector("[data-new-lines]"); }
  function scrollToNewest() {
    var list = timeline();
    if (list) { list.scrollTop = list.scrollHeight; placedAt = list.scrollTop; }
    following = true;
    var button = newLinesButton();
    if (button) button.hidden = true;
  }
  document.addEventListener("scroll", function (event) {
    var list = timeline();
    if (!list || event.target !== list) return;
    if (atBottom(list)) {
      following = true;
      placedAt = list.scrollTop;
      newLinesButton().hidden = true;
    } else if (list.scrollTop < placedAt - 2) {
      following = false;
    }
  }, true);
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-new-lines]")) scrollToNewest();
  });
  // The pane shrinks (a check alert above it) and lines grow (dice pictures loading): a reader
  // following the newest line stays with it.
  function keepFollowing() {
    var list = timeline();
    if (following && list) { list.scrollTop = list.scrollHeight; placedAt = list.scrollTop; }
  }
  document.addEventListener("load", function (event) {
    var list = timeline();
    if (list && event.target.tagName === "IMG" && list.contains(event.target)) keepFollowing();
  }, true);

  // Channels: main (all play but off-topic chatter, the GM's tabs and the dice records),
  // the GM's tabs, off-topic, and information (everything but talk). The server renders
  // every line; the tabs only filter. The tab bar is a live panel: the channels are
  // whatever tab buttons it holds now.
  function channelNames() {
    return Array.prototype.map.call(document.querySelectorAll("[data-channel-tab]"), function (tab) {
      return tab.getAttribute("data-channel-tab");
    });
  }
  var BUILT_IN = ["main", "offtopic", "info"];
  var channel = "main";
  function inChannel(item, name) {
    if (name === "main") {
      return !item.classList.contains("event-offtopic") && !item.classList.contains("event-record") &&
        !item.classList.contains("event-tab");
    }
    if (name === "offtopic") return item.classList.contains("event-offtopic");
    if (name === "info") return !item.classList.contains("event-talk");
    return item.getAttribute("data-tab-channel") === name;
  }
  // A GM tab's lines carry its key; the card shows "tab" and the lines of the tab shown are
  // marked, as a stylesheet cannot compare the two.
  function markTabLine(item) {
    if (item.classList && item.classList.contains("event-tab")) {
      item.classList.toggle("is-in-tab", item.getAttribute("data-tab-channel") === channel);
    }
  }
  var unread = {};
  function channelTab(name) { return document.querySelector('[data-channel-tab="' + name + '"]'); }
  function showUnread(announce) {
    var said = [];
    channelNames().forEach(function (name) {
      var tab = channelTab(name);
      var count = tab.querySelector("[data-unread]");
      var number = unread[name] || 0;
      count.hidden = number === 0;
      count.textContent = number ? String(number) : "";
      var label = tab.firstChild.textContent.trim();
      tab.setAttribute("aria-label", number
        ? label + " (" + number + " " + room().getAttribute("data-unread-text") + ")" : label);
      if (number) said.push(label + " " + number);
    });
    var status = document.querySelector("[data-unread-announce]");
    if (status && announce) {
      status.textContent = said.length ? said.join(", ") + " " + room().getAttribute("data-unread-text") : "";
    }
  }
  function channelSync() {
    // A line goes where the reader is looking; information has no chat of its own.
    var form = document.getElementById("chat-form");
    if (!form) return;
    var select = form.querySelector("select[name=channel]");
    var offered = select && select.querySelector('option[value="' + channel + '"]');
    if (select) select.value = channel !== "info" && offered ? channel : "main";
    form.classList.toggle("is-offtopic", channel === "offtopic");
    form.classList.toggle("is-tab", BUILT_IN.indexOf(channel) < 0);
  }
  function channelShow(name, focus) {
    if (!channelTab(name)) name = "main";
    channel = name;
    var card = playCard();
    if (card) card.setAttribute("data-channel", BUILT_IN.indexOf(name) < 0 ? "tab" : name);
    document.querySelectorAll("#timeline-items .event-tab").forEach(markTabLine);
    channelNames().forEach(function (other) {
      var tab = channelTab(other);
      tab.setAttribute("aria-selected", other === name ? "true" : "false");
      tab.tabIndex = other === name ? 0 : -1;
      if (other === name && focus) tab.focus();
    });
    unread[name] = 0;
    showUnread(false);
    channelSync();
    scrollToNewest();
  }
  document.addEventListener("click", function (event) {
    var tab = event.target.closest("[data-channel-tab]");
    if (tab) channelShow(tab.getAttribute("data-channel-tab"), false);
  });
  document.addEventListener("keydown", function (event) {
    var tab = event.target.closest && event.target.closest("[data-channel-tab]");
    if (!tab || (event.key !== "ArrowRight" && event.key !== "ArrowLeft")) return;
    var names = channelNames();
    var step = event.key === "ArrowRight" ? 1 : names.length - 1;
    var next = names[(names.indexOf(tab.getAttribute("data-channel-tab")) + step) % names.length];
    channelShow(next, true);
    event.preventDefault();
  });
  // The GM opened, renamed or archived a tab: the new bar shows, keeps the tab shown (Main
  // when it was archived), the unread counts and the keyboard's place.
  var tabFocused = false;
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "channel-tabs") tabFocused = target.contains(document.activeElement);
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "channel-tabs") return;
    var bar = document.getElementById("channel-tabs");
    if (bar) bar.hidden = false;
    if (!channelTab(channel)) { channelShow("main", false); return; }
    channelNames().forEach(function (name) {
      var tab = channelTab(name);
      tab.setAttribute("aria-selected", name === channel ? "true" : "false");
      tab.tabIndex = name === channel ? 0 : -1;
    });
    showUnread(false);
    channelSync();
    if (tabFocused) channelTab(channel).focus();
  });
  // The chat form comes back after every post and with stage changes: it keeps the channel.
  document.addEventListener("htmx:afterSettle", channelSync);
  document.addEventListener("htmx:oobAfterSwap", channelSync);

  // Lines arriving: counted on the tabs that are not shown, and followed when at the bottom.
  var newestSeq = 0;
  function linesArrived(nodes) {
    var fresh = false;
    var seen = 0;
    nodes.forEach(function (item) {
      if (!item.getAttribute || !item.hasAttribute("data-seq")) return;
      var seq = parseInt(item.getAttribute("data-seq"), 10) || 0;
      // Earlier lines loaded on request are history, not news.
      markTabLine(item);
      if (seq <= newestSeq) return;
      newestSeq = seq;
      if (!item.textContent.trim()) return;
      channelNames().forEach(function (name) {
        if (name !== channel && inChannel(item, name)) { unread[name] = (unread[name] || 0) + 1; fresh = true; }
      });
      if (inChannel(item, channel)) seen += 1;
    });
    if (fresh) showUnread(true);
    if (!seen) return;
    // On a phone showing another panel, the Chat tab counts what came meanwhile.
    var bar = document.querySelector(".room-tabs");
    var play = playCard();
    if (bar && play && bar.offsetParent !== null && !play.classList.contains("is-current")) {
      var badge = document.querySelector("[data-chat-badge]");
      badge.textContent = String((parseInt(badge.textContent, 10) || 0) + seen);
      badge.hidden = false;
    }
    var list = timeline();
    if (following || (list && list.clientHeight === 0)) {
      scrollToNewest();
    } else {
      newLinesButton().hidden = false;
    }
  }

  // Phone: a tab bar shows one panel at a time; wide screens show them all and ignore it.
  function panelShow(name) {
    document.querySelectorAll("[data-room-panel]").forEach(function (panel) {
      panel.classList.toggle("is-current", panel.getAttribute("data-room-panel") === name);
    });
    document.querySelectorAll("[data-room-tab]").forEach(function (tab) {
      tab.setAttribute("aria-pressed", tab.getAttribute("data-room-tab") === name ? "true" : "false");
    });
    if (name === "play") {
      var badge = document.querySelector("[data-chat-badge]");
      if (badge) { badge.hidden = true; badge.textContent = ""; }
      if (following) scrollToNewest();
    }
  }
  document.addEventListener("click", function (event) {
    var tab = event.target.closest("[data-room-tab]");
    if (tab) panelShow(tab.getAttribute("data-room-tab"));
  });
  // A palette line goes to the roll box, which lives with the chat: show it first.
  document.addEventListener("click", function (event) {
    if (event.target.closest(".palette-to-box")) panelShow("play");
  }, true);

  // Checks waiting for the viewer: counted in the title, said once, the panel highlighted,
  // a badge on the phone's tab, and (if asked for) a short beep.
  var baseTitle = document.title;
  var waitingKeys = [];
  var SOUND_KEY = "srs-check-sound";
  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "1"; } catch (e) { return false; }
  }
  var audio = null;
  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.25);
    } catch (e) { /* no sound available: the title and the highlight still say it */ }
  }
  // The title counts what waits for the viewer: the GM's inbox first, then the checks.
  var titleCounts = { inbox: 0, checks: 0 };
  function titleUpdate() {
    var holder = room();
    if (!holder) return;
    var parts = [];
    if (titleCounts.inbox) parts.push("(" + titleCounts.inbox + ") " + holder.getAttribute("data-inbox-text"));
    if (titleCounts.checks) parts.push("(" + titleCounts.checks + ") " + holder.getAttribute("data-waiting-text"));
    document.title = parts.length ? parts.join(" · ") + " · " + baseTitle : baseTitle;
  }
  // The GM's inbox: its count in the title and on the phone's Chat tab, which it tops.
  function inboxUpdate() {
    var inbox = document.getElementById("inbox");
    var count = inbox ? inbox.querySelectorAll("[data-inbox-item]").length : 0;
    // The answer to the last item stays under the inbox until something new arrives.
    var status = document.getElementById("inbox-status");
    if (status && count > titleCounts.inbox) status.textContent = "";
    titleCounts.inbox = count;
    titleUpdate();
    var badge = document.querySelector("[data-inbox-badge]");
    if (badge) { badge.hidden = !count; badge.textContent = count ? String(count) : ""; }
  }
  // A notice that waits for the GM ("Entry requested: the GM decides.") goes once the row
  // it waits on, seen waiting in the stage panel, no longer waits: the GM has decided.
  function awaitsUpdate() {
    var status = document.getElementById("stage-status");
    if (!status || !status.hasAttribute("data-awaits")) return;
    var row = document.getElementById(status.getAttribute("data-awaits"));
    if (row && row.hasAttribute("data-waiting")) {
      status.setAttribute("data-awaits-seen", "");
    } else if (status.hasAttribute("data-awaits-seen")) {
      status.textContent = "";
      status.removeAttribute("data-awaits");
      status.removeAttribute("data-awaits-seen");
    }
  }

  // Main is for play: a run of bookkeeping lines (requests, allowances, entries, exits) folds
  // into one line that opens on a tap; the Information channel shows them whole. Worked out
  // again from the lines whenever the list changes, so lines arriving live fold as a fresh
  // load folds them; nothing is touched when nothing changes (the list's observer calls it).
  var foldOpen = {};
  function foldLines() {
    var list = timeline();
    var holder = room();
    if (!list || !holder) return;
    var runs = [];
    var run = [];
    Array.prototype.forEach.call(list.children, function (item) {
      if (!item.hasAttribute("data-seq") || item.classList.contains("event-offtopic")) return;
      if (!item.textContent.trim()) return;
      if (item.classList.contains("event-folds")) { run.push(item); return; }
      if (run.length) runs.push(run);
      run = [];
    });
    if (run.length) runs.push(run);
    var kept = {};
    var folded = [];
    runs.forEach(function (lines) {
      if (lines.length < 2) return;
      var key = lines[0].getAttribute("data-seq");
      kept[key] = true;
      var open = !!foldOpen[key];
      var fold = list.querySelector('li.fold-line[data-fold="' + key + '"]');
      if (!fold) {
        fold = document.createElement("li");
        fold.className = "fold-line";
        fold.setAttribute("data-fold", key);
        var button = document.createElement("button");
        button.type = "button";
        button.className = "link-button fold-toggle";
        fold.appendChild(button);
      }
      if (fold.nextElementSibling !== lines[0]) list.insertBefore(fold, lines[0]);
      var toggle = fold.firstElementChild;
      var text = lines.length + " " + holder.getAttribute("data-fold-text");
      if (toggle.textContent !== text) toggle.textContent = text;
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      toggle.setAttribute("aria-controls", lines.map(function (line) { return line.id; }).join(" "));
      lines.forEach(function (line) { if (!open) folded.push(line); });
    });
    list.querySelectorAll("li.fold-line").forEach(function (fold) {
      if (!kept[fold.getAttribute("data-fold")]) fold.remove();
    });
    list.querySelectorAll("li.is-folded").forEach(function (line) {
      if (folded.indexOf(line) < 0) line.classList.remove("is-folded");
    });
    folded.forEach(function (line) { line.classList.add("is-folded"); });
  }
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest(".fold-toggle");
    if (!toggle) return;
    var key = toggle.parentNode.getAttribute("data-fold");
    foldOpen[key] = !foldOpen[key];
    foldLines();
  });

  function checksUpdate() {
    var holder = room();
    if (!holder) return;
    var waiting = Array.prototype.map.call(
      document.querySelectorAll("#check-items .check-item-roll"),
      function (item) { return item.getAttribute("data-check-key") || item.id; });
    var count = waiting.length;
    var text = holder.getAttribute("data-waiting-text");
    titleCounts.checks = count;
    titleUpdate();
    var card = document.querySelector(".checks-card");
    if (card) card.classList.toggle("has-waiting", count > 0);
    var badge = document.querySelector("[data-check-badge]");
    if (badge) { badge.hidden = !count; badge.textContent = count ? String(count) : ""; }
    var alert = document.querySelector("[data-check-alert]");
    if (alert) {
      alert.hidden = !count;
      alert.querySelector("[data-check-alert-text]").textContent = count ? text + " (" + count + ")" : "";
    }
    var arrived = waiting.some(function (key) { return waitingKeys.indexOf(key) < 0; });
    waitingKeys = waiting;
    if (arrived) {
      var status = document.querySelector("[data-check-announce]");
      if (status) status.textContent = text + " (" + count + ")";
      if (soundOn()) beep();
    }
  }
  // A stage request or scene wish the viewer must answer puts a dot on the phone's Stage tab.
  function stageUpdate() {
    var dot = document.querySelector("[data-stage-alert]");
    var stage = document.getElementById("stage");
    if (dot) dot.hidden = !(stage && stage.querySelector(".needs-you, #stage-heading .badge-alert"));
    awaitsUpdate();
  }
  document.addEventListener("click", function (event) {
    if (!event.target.closest("[data-check-jump]")) return;
    panelShow("checks");
    var heading = document.querySelector("#check-items .check-item-roll h3");
    if (!heading) return;
    heading.tabIndex = -1;
    heading.scrollIntoView({ block: "start" });
    heading.focus();
  });
  document.addEventListener("change", function (event) {
    if (!event.target.matches || !event.target.matches("[data-check-sound]")) return;
    try { window.localStorage.setItem(SOUND_KEY, event.target.checked ? "1" : "0"); } catch (e) { /* private mode */ }
    if (event.target.checked) beep();
  });

  document.addEventListener("DOMContentLoaded", function () {
    var holder = room();
    if (!holder) return;
    holder.classList.add("has-script");
    document.querySelectorAll(".room-tabs, .channel-tabs").forEach(function (bar) { bar.hidden = false; });
    var sound = document.querySelector("[data-check-sound]");
    if (sound) sound.checked = soundOn();
    newestSeq = lastSeq();
    channelShow("main", false);
    panelShow("play");
    // Watch the parts that are swapped in whole: what they hold may change at any time.
    var list = timeline();
    if (list && window.MutationObserver) {
      new MutationObserver(function (records) {
        var added = [];
        records.forEach(function (record) { Array.prototype.push.apply(added, record.addedNodes); });
        foldLines();
        linesArrived(added);
      }).observe(list, { childList: true });
      if (window.ResizeObserver) new ResizeObserver(keepFollowing).observe(list);
      var checks = document.querySelector(".checks-card");
      if (checks) new MutationObserver(checksUpdate).observe(checks, { childList: true, subtree: true });
      var stagePanel = document.querySelector('[data-room-panel="stage"]');
      if (stagePanel) new MutationObserver(stageUpdate).observe(stagePanel, { childList: true, subtree: true });
    }
    var play = playCard();
    if (play && window.MutationObserver) new MutationObserver(inboxUpdate).observe(play, { childList: true });
    foldLines();
    stageUpdate();
    waitingKeys = [];
    checksUpdate();
    inboxUpdate();
  });
})();
