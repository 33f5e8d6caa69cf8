// The timeline's channels: main (all play but off-topic chatter, the GM's tabs and the dice
// records), the GM's tabs, off-topic, and information (everything but talk). The server
// renders every line; the tabs only filter, and count the lines that came to tabs not shown.
// The tab bar is a live panel: the channels are whatever tab buttons it holds now.
import { playCard, room } from "./elements.js";
import { scrollToNewest } from "./following.js";

const BUILT_IN = ["main", "offtopic", "info"];
let channel = "main";
const unread = {};
// Lines up to this one were on the page already: earlier lines loaded on request are
// history, not news.
let newestSeq = 0;

function channelNames() {
  return Array.from(document.querySelectorAll("[data-channel-tab]"), (tab) => tab.getAttribute("data-channel-tab"));
}

function channelTab(name) {
  return document.querySelector('[data-channel-tab="' + name + '"]');
}

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

function showUnread(announce) {
  const said = [];
  channelNames().forEach((name) => {
    const tab = channelTab(name);
    const count = tab.querySelector("[data-unread]");
    const number = unread[name] || 0;
    count.hidden = number === 0;
    count.textContent = number ? String(number) : "";
    const label = tab.firstChild.textContent.trim();
    tab.setAttribute("aria-label", number
      ? label + " (" + number + " " + room().getAttribute("data-unread-text") + ")" : label);
    if (number) said.push(label + " " + number);
  });
  const status = document.querySelector("[data-unread-announce]");
  if (status && announce) {
    status.textContent = said.length ? said.join(", ") + " " + room().getAttribute("data-unread-text") : "";
  }
}

function selectTab(name, focus) {
  channelNames().forEach((other) => {
    const tab = channelTab(other);
    tab.setAttribute("aria-selected", other === name ? "true" : "false");
    tab.tabIndex = other === name ? 0 : -1;
    if (other === name && focus) tab.focus();
  });
}

// A line goes where the reader is looking; information has no chat of its own. The chat
// form comes back after every post and with stage changes: it keeps the channel.
function chatFormFollows() {
  const form = document.getElementById("chat-form");
  if (!form) return;
  const select = form.querySelector("select[name=channel]");
  const offered = select && select.querySelector('option[value="' + channel + '"]');
  if (select) select.value = channel !== "info" && offered ? channel : "main";
  form.classList.toggle("is-offtopic", channel === "offtopic");
  form.classList.toggle("is-tab", BUILT_IN.indexOf(channel) < 0);
}

export function showChannel(name, focus) {
  if (!channelTab(name)) name = "main";
  channel = name;
  const card = playCard();
  if (card) card.setAttribute("data-channel", BUILT_IN.indexOf(name) < 0 ? "tab" : name);
  document.querySelectorAll("#timeline-items .event-tab").forEach(markTabLine);
  selectTab(name, focus);
  unread[name] = 0;
  showUnread(false);
  chatFormFollows();
  scrollToNewest();
}

export function countFrom(seq) {
  newestSeq = seq;
}

// Lines added to the timeline: counted on the tabs that are not shown. Returns how many
// came to the channel shown.
export function linesArrived(nodes) {
  let fresh = false;
  let seen = 0;
  nodes.forEach((item) => {
    if (!item.getAttribute || !item.hasAttribute("data-seq")) return;
    const seq = parseInt(item.getAttribute("data-seq"), 10) || 0;
    markTabLine(item);
    if (seq <= newestSeq) return;
    newestSeq = seq;
    if (!item.textContent.trim()) return;
    channelNames().forEach((name) => {
      if (name !== channel && inChannel(item, name)) {
        unread[name] = (unread[name] || 0) + 1;
        fresh = true;
      }
    });
    if (inChannel(item, channel)) seen += 1;
  });
  if (fresh) showUnread(true);
  return seen;
}

document.addEventListener("click", (event) => {
  const tab = event.target.closest("[data-channel-tab]");
  if (tab) showChannel(tab.getAttribute("data-channel-tab"), false);
});

document.addEventListener("keydown", (event) => {
  const tab = event.target.closest && event.target.closest("[data-channel-tab]");
  if (!tab || (event.key !== "ArrowRight" && event.key !== "ArrowLeft")) return;
  const names = channelNames();
  const step = event.key === "ArrowRight" ? 1 : names.length - 1;
  const next = names[(names.indexOf(tab.getAttribute("data-channel-tab")) + step) % names.length];
  showChannel(next, true);
  event.preventDefault();
});

// The GM opened, renamed or archived a tab: the new bar shows, keeps the tab shown (Main
// when it was archived), the unread counts and the keyboard's place.
let tabFocused = false;
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const target = event.detail.target;
  if (target && target.id === "channel-tabs") tabFocused = target.contains(document.activeElement);
});
document.addEventListener("htmx:oobAfterSwap", (event) => {
  const target = event.detail.target;
  if (!target || target.id !== "channel-tabs") return;
  const bar = document.getElementById("channel-tabs");
  if (bar) bar.hidden = false;
  if (!channelTab(channel)) {
    showChannel("main", false);
    return;
  }
  selectTab(channel, false);
  showUnread(false);
  chatFormFollows();
  if (tabFocused) channelTab(channel).focus();
});

document.addEventListener("htmx:afterSettle", chatFormFollows);
document.addEventListener("htmx:oobAfterSwap", chatFormFollows);
