// Panels arrive from the session's socket as out-of-band parts and are re-rendered whole
// when they change.

import { staleBoard } from "./board-versions.js";

// The socket sends every page of the session the partials of all of them: a page takes the
// partials it shows and leaves the others. An out-of-band part whose target this page lacks
// is dropped here, before htmx would report it as an error (htmx:oobErrorNoTarget), and so
// is a board no newer than the one shown (board-versions.js). Pages
// name the extension in hx-ext; htmx reads that when it processes the page, after the
// page's module scripts have run.
if (window.htmx) {
  htmx.defineExtension("page-panels", {
    transformResponse(text) {
      const template = document.createElement("template");
      template.innerHTML = text;
      let dropped = false;
      Array.from(template.content.children).forEach((part) => {
        const oob = part.getAttribute("hx-swap-oob");
        if (oob === null) return;
        const colon = oob.indexOf(":");
        const target = colon >= 0
          ? document.querySelector(oob.slice(colon + 1))
          : part.id && document.getElementById(part.id);
        if (!target || staleBoard(part, target)) {
          part.remove();
          dropped = true;
        }
      });
      return dropped ? template.innerHTML : text;
    },
  });
}

// Keep what the viewer was doing in a panel: text typed and choices made but not sent, open
// disclosures, and the keyboard focus, so an update from someone else never snatches a
// half-made decision away. The server marks those panels (data-live-panel,
// data-keeps-input) from its panel table.
const panelMemory = {};

function fieldKey(field) {
  return field.id || (field.name ? "name:" + field.name : null);
}

function isDirty(field) {
  if (field.type === "hidden" || field.type === "submit" || field.type === "button") return false;
  if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
  if (field.tagName === "SELECT") return Array.from(field.options).some((o) => o.selected !== o.defaultSelected);
  return field.value !== field.defaultValue;
}

// A form's refusal, as the server renders it (not a warning the panel itself carries).
const REFUSAL = "[role=alert]:is(.error, .form-errors)";

function remember(panel) {
  const focused = document.activeElement;
  const memory = { open: [], fields: {}, focus: null, focusText: null, selection: null };
  panel.querySelectorAll("details[id]").forEach((details) => {
    memory.open.push([details.id, details.open]);
  });
  panel.querySelectorAll("input, textarea, select").forEach((field) => {
    const key = fieldKey(field);
    if (!key || (!isDirty(field) && field !== focused)) return;
    memory.fields[key] = field.tagName === "SELECT"
      ? { select: Array.from(field.options, (o) => (o.selected ? o.value : null)) }
      : { value: field.value, checked: field.checked };
  });
  if (focused && panel.contains(focused)) {
    memory.focus = fieldKey(focused);
    memory.focusText = focused.textContent.trim();
    if (typeof focused.selectionStart === "number") {
      try { memory.selection = [focused.selectionStart, focused.selectionEnd]; } catch (e) { /* not text */ }
    }
  }
  // A refusal stays beside the text it refused until the viewer changes that text: a panel
  // re-rendered for someone else's change (or a reconnect's catch-up) would otherwise take
  // the message away and leave the refused text looking accepted.
  const edited = Array.from(panel.querySelectorAll("input, textarea, select")).some(isDirty);
  memory.refusals = edited ? [] : Array.from(panel.querySelectorAll(REFUSAL), (alert) => {
    let before = alert.previousElementSibling;
    while (before && before.matches(REFUSAL)) before = before.previousElementSibling;
    return { html: alert.outerHTML, after: elementKey(before) };
  });
  return memory;
}

function elementKey(element) {
  if (!element) return null;
  return element.id ? { id: element.id } : { tag: element.tagName, className: element.className };
}

function findByKey(panel, key) {
  if (!key) return null;
  if (key.id) return panel.querySelector("#" + CSS.escape(key.id));
  return Array.from(panel.getElementsByTagName(key.tag)).find((e) => e.className === key.className) || null;
}

function restoreRefusals(panel, memory) {
  if (!memory.refusals.length || panel.querySelector(REFUSAL)) return;
  const lastPlaced = new Map();
  memory.refusals.forEach(({ html, after }) => {
    const template = document.createElement("template");
    template.innerHTML = html;
    const alert = template.content.firstElementChild;
    const anchor = lastPlaced.get(JSON.stringify(after)) || findByKey(panel, after);
    if (anchor) anchor.after(alert);
    else panel.appendChild(alert);
    lastPlaced.set(JSON.stringify(after), alert);
  });
}

function restoreFields(panel, memory) {
  const restored = {};
  panel.querySelectorAll("input, textarea, select").forEach((field) => {
    const key = fieldKey(field);
    const saved = key && memory.fields[key];
    if (!saved || restored[key]) return;
    restored[key] = true;
    if (saved.select) {
      Array.from(field.options).forEach((o) => { o.selected = saved.select.indexOf(o.value) >= 0; });
    } else if (field.type === "checkbox" || field.type === "radio") {
      field.checked = saved.checked;
    } else {
      field.value = saved.value;
    }
  });
}

function restoreFocus(panel, memory) {
  let focusTo = null;
  if (memory.focus) {
    focusTo = Array.from(panel.querySelectorAll("input, textarea, select"))
      .find((field) => fieldKey(field) === memory.focus);
  }
  if (!focusTo && memory.focusText) {
    focusTo = Array.from(panel.querySelectorAll("button, summary"))
      .find((element) => element.textContent.trim() === memory.focusText);
  }
  if (!focusTo) return;
  focusTo.focus();
  if (memory.selection && typeof focusTo.setSelectionRange === "function") {
    try { focusTo.setSelectionRange(memory.selection[0], memory.selection[1]); } catch (e) { /* not text */ }
  }
}

document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const target = event.detail.target;
  if (!target || !target.matches("[data-live-panel][data-keeps-input]")) return;
  panelMemory[target.id] = remember(target);
});

document.addEventListener("htmx:oobAfterSwap", (event) => {
  const target = event.detail.target;
  if (!target || !panelMemory[target.id]) return;
  const memory = panelMemory[target.id];
  delete panelMemory[target.id];
  const panel = document.getElementById(target.id);
  if (!panel) return;
  memory.open.forEach(([id, open]) => {
    const details = document.getElementById(id);
    if (details && panel.contains(details)) details.open = open;
  });
  restoreFields(panel, memory);
  restoreRefusals(panel, memory);
  restoreFocus(panel, memory);
});
