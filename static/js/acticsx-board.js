// Actics X planning by taps: a card then a square plays it there, an actor then a square
// moves it there, arrows (or a drag) change the order, and the plan is drawn on the board.
// Everything here only fills the planning form's own fields (the select boxes and order
// numbers), which work without JavaScript; boards are replaced live, so listeners sit on
// the document and the state is read back from the form each time.
document.documentElement.classList.add("acticsx-js");

// board id -> {card: index} or {actor: square}, with the form and turn it was made in:
// a board replaced by another turn's (or by a form sent) has other cards and actors.
const chosen = {};

function current(p) {
  const choice = chosen[p.board.id];
  if (choice && (choice.form !== p.form.id || choice.turn !== p.form.getAttribute("data-turn"))) {
    delete chosen[p.board.id];
    return null;
  }
  return choice || null;
}

function say(form, key, values) {
  let text = form.getAttribute("data-say-" + key) || "";
  Object.keys(values || {}).forEach((name) => {
    text = text.split("{" + name + "}").join(values[name]);
  });
  const line = form.querySelector(".ax-tap-status");
  if (line) line.textContent = text;
}

function parts(element) {
  const board = element.closest(".acticsx-board");
  const form = board && board.querySelector(".plan-form");
  return form ? { board: board, form: form } : null;
}

function cardSelect(form, index) { return form.querySelector('select[name="play_' + index + '"]'); }
function actorRow(form, square) { return form.querySelector('[data-actor-row="' + square + '"]'); }
function actorSelect(form, square) { return form.querySelector('select[name="do_' + square + '"]'); }
function cell(board, square) { return board.querySelector('.ax-cell[data-square="' + square + '"]'); }

function legalSquares(p, choice) {
  if (!choice) return [];
  if (choice.card !== undefined) {
    const card = cardSelect(p.form, choice.card);
    if (!card) return [];
    return Array.prototype.slice.call(card.options)
      .map((o) => o.value).filter(Boolean);
  }
  const select = actorSelect(p.form, choice.actor);
  if (!select) return [];
  return Array.prototype.slice.call(select.options)
    .map((o) => o.getAttribute("data-target")).filter(Boolean);
}

function mark(target, kind, order, text, to) {
  if (!target) return;
  const span = document.createElement("span");
  if (to) span.setAttribute("data-to", to);
  span.className = "ax-mark ax-mark-" + kind;
  span.setAttribute("aria-hidden", "true");
  if (order) {
    const b = document.createElement("b");
    b.textContent = order;
    span.appendChild(b);
  }
  if (text) span.appendChild(document.createTextNode(text));
  target.appendChild(span);
}

// The order the server will read: order numbers first, then the square (as it sorts).
function plannedActors(form) {
  const entries = [];
  form.querySelectorAll("[data-actor-row]").forEach((row) => {
    const square = row.getAttribute("data-actor-row");
    const select = actorSelect(form, square);
    if (!select || select.value === "wait" || !select.value) return;
    const order = parseInt(form.querySelector('input[name="order_' + square + '"]').value, 10);
    entries.push({ square: square, order: isNaN(order) ? 99 : order, option: select.options[select.selectedIndex] });
  });
  entries.sort((a, b) => {
    if (a.order !== b.order) return a.order - b.order;
    return a.square < b.square ? -1 : a.square > b.square ? 1 : 0;
  });
  return entries;
}

function draw(p) {
  const board = p.board, form = p.form;
  board.querySelectorAll(".ax-mark").forEach((m) => { m.remove(); });
  board.querySelectorAll(".ax-cell").forEach((c) => {
    c.classList.remove("ax-legal", "ax-chosen", "ax-plan-to");
  });
  form.querySelectorAll("[data-card-row]").forEach((row) => {
    const index = row.getAttribute("data-card-row");
    const select = cardSelect(form, index);
    const pick = row.querySelector("[data-pick-card]");
    if (select && select.value) mark(cell(board, select.value), "play", null, pick.getAttribute("data-name"));
    if (pick) pick.classList.toggle("ax-card-planned", !!(select && select.value));
  });
  plannedActors(form).forEach((entry, position) => {
    const n = position + 1;
    const target = entry.option.getAttribute("data-target");
    if (target) {
      mark(cell(board, entry.square), "from", n, entry.option.getAttribute("data-mark"), target);
      mark(cell(board, target), "to", n, "");
      const to = cell(board, target);
      if (to) to.classList.add("ax-plan-to");
    } else {
      mark(cell(board, entry.square), "action", n, entry.option.getAttribute("data-mark"));
    }
  });
  arrows(board);
  form.querySelectorAll("[data-actor-row]").forEach((row, position) => {
    const number = row.querySelector(".ax-order-number");
    if (number) number.textContent = position + 1;
  });
  const choice = current(p);
  form.querySelectorAll("[data-pick-card]").forEach((pick) => {
    const on = !!choice && choice.card === pick.getAttribute("data-pick-card");
    pick.setAttribute("aria-pressed", on ? "true" : "false");
  });
  if (choice) {
    const from = choice.actor !== undefined ? cell(board, choice.actor) : null;
    if (from) from.classList.add("ax-chosen");
    legalSquares(p, choice).forEach((square) => {
      const c = cell(board, square);
      if (c) c.classList.add("ax-legal");
    });
  }
}

// An arrow from each planned mover to where it aims, over the grid (drawn for the plan
// being made and for a confirmed one the server marked).
const SVG = "http://www.w3.org/2000/svg";
function arrows(board) {
  const grid = board.querySelector(".acticsx-grid");
  if (!grid) return;
  const old = grid.querySelector(".ax-arrows");
  if (old) old.remove();
  const moves = grid.querySelectorAll(".ax-mark-from[data-to]");
  if (!moves.length) return;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "ax-arrows");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("width", grid.clientWidth);
  svg.setAttribute("height", grid.clientHeight);
  const defs = document.createElementNS(SVG, "defs");
  const marker = document.createElementNS(SVG, "marker");
  const id = board.id + "-arrowhead";
  marker.setAttribute("id", id);
  marker.setAttribute("viewBox", "0 0 10 10");
  marker.setAttribute("refX", "8");
  marker.setAttribute("refY", "5");
  marker.setAttribute("markerWidth", "5");
  marker.setAttribute("markerHeight", "5");
  marker.setAttribute("orient", "auto-start-reverse");
  const head = document.createElementNS(SVG, "path");
  head.setAttribute("d", "M 0 0 L 10 5 L 0 10 z");
  marker.appendChild(head);
  defs.appendChild(marker);
  svg.appendChild(defs);
  function centre(el) {
    return [el.offsetLeft + el.offsetWidth / 2, el.offsetTop + el.offsetHeight / 2];
  }
  moves.forEach((from) => {
    const start = from.closest(".ax-cell");
    const end = cell(board, from.getAttribute("data-to"));
    if (!start || !end) return;
    const a = centre(start), b = centre(end);
    const line = document.createElementNS(SVG, "line");
    line.setAttribute("x1", a[0]); line.setAttribute("y1", a[1]);
    line.setAttribute("x2", b[0]); line.setAttribute("y2", b[1]);
    line.setAttribute("marker-end", "url(#" + id + ")");
    svg.appendChild(line);
  });
  grid.appendChild(svg);
}

function choose(p, choice) {
  if (choice) {
    choice.form = p.form.id;
    choice.turn = p.form.getAttribute("data-turn");
    chosen[p.board.id] = choice;
  } else {
    delete chosen[p.board.id];
  }
  draw(p);
}

function setSelect(select, value) {
  select.value = value;
  select.dispatchEvent(new Event("change", { bubbles: true }));
}

function renumber(form) {
  form.querySelectorAll("[data-actor-row]").forEach((row, position) => {
    const input = row.querySelector('input[name^="order_"]');
    if (input) input.value = position + 1;
  });
}

function tapCard(p, pick) {
  const index = pick.getAttribute("data-pick-card");
  const name = pick.getAttribute("data-name");
  const before = current(p);
  if (before && before.card === index) {
    choose(p, null);
    say(p.form, "cancel");
    return;
  }
  choose(p, { card: index });
  say(p.form, legalSquares(p, { card: index }).length ? "card" : "card-none", { card: name });
}

function tapSquare(p, square) {
  let choice = current(p);
  const select = choice && choice.card !== undefined ? cardSelect(p.form, choice.card) : null;
  const pick = select && p.form.querySelector('[data-pick-card="' + choice.card + '"]');
  const row = choice && choice.actor !== undefined ? actorRow(p.form, choice.actor) : null;
  const actions = row && actorSelect(p.form, choice.actor);
  if (choice && !pick && !actions) {
    // The card or actor is no longer on the form: begin afresh from this tap.
    delete chosen[p.board.id];
    choice = null;
  }
  if (pick) {
    const name = pick.getAttribute("data-name");
    if (legalSquares(p, choice).indexOf(square) < 0) return;
    if (select.value === square) {
      setSelect(select, "");
      choose(p, null);
      say(p.form, "kept", { card: name });
      return;
    }
    // A square takes one card: a card planned there before goes back to the hand.
    p.form.querySelectorAll('select[name^="play_"]').forEach((other) => {
      if (other !== select && other.value === square) setSelect(other, "");
    });
    setSelect(select, square);
    choose(p, null);
    say(p.form, "played", { card: name, square: square });
    return;
  }
  if (actions) {
    const actorName = row.getAttribute("data-name");
    if (square === choice.actor) {
      // The actor tapped again: its actions in turn, then waiting. It stays chosen, so a
      // further tap goes on to the next.
      const ownActions = Array.prototype.filter.call(actions.options, (o) => {
        return o.value.indexOf("action:") === 0;
      });
      const at = ownActions.indexOf(actions.options[actions.selectedIndex]);
      const next = ownActions[at + 1];
      setSelect(actions, next ? next.value : "wait");
      if (next) say(p.form, "acts", { actor: actorName, action: next.textContent.trim() });
      else { choose(p, null); say(p.form, "waits", { actor: actorName }); }
      return;
    }
    const option = actions.querySelector('option[data-target="' + square + '"]');
    if (option) {
      setSelect(actions, option.value);
      choose(p, null);
      say(p.form, "moves", { actor: actorName, square: square });
      return;
    }
  }
  const own = actorRow(p.form, square);
  if (own) {
    choose(p, { actor: square });
    say(p.form, "actor", { actor: own.getAttribute("data-name") });
  }
}

function step(p, row, by) {
  const rows = Array.prototype.slice.call(p.form.querySelectorAll("[data-actor-row]"));
  const at = rows.indexOf(row);
  const to = at + by;
  if (to < 0 || to >= rows.length) return;
  if (by < 0) row.parentNode.insertBefore(row, rows[to]);
  else row.parentNode.insertBefore(row, rows[to].nextSibling);
  renumber(p.form);
  draw(p);
  say(p.form, "order", { actor: row.getAttribute("data-name"), n: to + 1 });
}

document.addEventListener("click", (event) => {
  const target = event.target;
  if (!target.closest) return;
  const p = parts(target);
  if (!p) return;
  const pick = target.closest("[data-pick-card]");
  if (pick) { tapCard(p, pick); return; }
  const square = target.closest(".ax-planning .ax-cell");
  if (square) { tapSquare(p, square.getAttribute("data-square")); return; }
  const stepper = target.closest("[data-order-step]");
  if (stepper) {
    step(p, stepper.closest("[data-actor-row]"), parseInt(stepper.getAttribute("data-order-step"), 10));
    stepper.focus();
  }
});

document.addEventListener("change", (event) => {
  const p = event.target.closest && parts(event.target);
  if (p && p.form.contains(event.target)) draw(p);
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  const p = event.target.closest && parts(event.target);
  if (!p || !current(p)) return;
  choose(p, null);
  say(p.form, "cancel");
});

// Reordering by drag, for a mouse; the arrow buttons do the same for touch and keys.
let dragged = null;
document.addEventListener("dragstart", (event) => {
  dragged = event.target.closest && event.target.closest("[data-actor-row]");
  if (dragged && event.dataTransfer) {
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", dragged.getAttribute("data-actor-row"));
  }
});
document.addEventListener("dragover", (event) => {
  const over = dragged && event.target.closest && event.target.closest("[data-actor-row]");
  if (over && over.parentNode === dragged.parentNode) event.preventDefault();
});
document.addEventListener("drop", (event) => {
  const over = dragged && event.target.closest && event.target.closest("[data-actor-row]");
  if (!over || over === dragged || over.parentNode !== dragged.parentNode) return;
  event.preventDefault();
  const rows = Array.prototype.slice.call(over.parentNode.children);
  const later = rows.indexOf(dragged) < rows.indexOf(over);
  over.parentNode.insertBefore(dragged, later ? over.nextSibling : over);
  const p = parts(over);
  renumber(p.form);
  draw(p);
  say(p.form, "order", { actor: dragged.getAttribute("data-name"), n: rows.indexOf(over) + 1 });
  dragged = null;
});
document.addEventListener("dragend", () => { dragged = null; });

// A plan sent lets go of the card or actor chosen: whatever comes back starts afresh.
document.addEventListener("submit", (event) => {
  const p = event.target.closest && parts(event.target);
  if (p && p.form === event.target) delete chosen[p.board.id];
});

// A board replaced live (the other side confirmed, say) keeps the plan being made. The
// whole list of boards may be replaced at once, so every plan is kept, each by its form
// and turn, and goes back only onto its own board in that same turn.
const kept = {}; // swapped element id -> {"<form id>@<turn>": plan}
function planKey(form) { return form.id + "@" + form.getAttribute("data-turn"); }
function planForms(element) {
  if (!element || !element.querySelectorAll) return [];
  const forms = Array.prototype.slice.call(element.querySelectorAll(".plan-form"));
  if (element.matches && element.matches(".plan-form")) forms.unshift(element);
  return forms;
}
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const target = event.detail.target;
  const plans = {};
  planForms(target).forEach((form) => {
    if (!form.id) return;
    const fields = {};
    form.querySelectorAll("select, input[type=number]").forEach((f) => { fields[f.name] = f.value; });
    plans[planKey(form)] = {
      fields: fields,
      rows: Array.prototype.map.call(form.querySelectorAll("[data-actor-row]"), (r) => {
        return r.getAttribute("data-actor-row");
      })
    };
  });
  if (target && target.id && Object.keys(plans).length) kept[target.id] = plans;
});
document.addEventListener("htmx:oobAfterSwap", (event) => {
  const id = event.detail.target && event.detail.target.id;
  const plans = id && kept[id];
  delete kept[id];
  planForms(plans ? document.getElementById(id) : null).forEach((form) => {
    const memory = plans[planKey(form)];
    if (!memory) return;
    memory.rows.forEach((square) => {
      const row = actorRow(form, square);
      if (row) row.parentNode.appendChild(row);
    });
    form.querySelectorAll("select, input[type=number]").forEach((f) => {
      if (Object.prototype.hasOwnProperty.call(memory.fields, f.name)) f.value = memory.fields[f.name];
    });
  });
  drawAll();
});

function drawAll() {
  document.querySelectorAll(".acticsx-board").forEach((board) => {
    const p = parts(board);
    if (p) draw(p); else arrows(board);
  });
}
window.addEventListener("resize", drawAll);
document.addEventListener("DOMContentLoaded", drawAll);
document.addEventListener("htmx:afterSettle", drawAll);
