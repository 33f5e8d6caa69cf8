// The card or actor chosen by a first tap, waiting for the tap on a square.
import { actorSelect, cardSelect } from "./form.js";

// board id -> {card: index} or {actor: square}, with the form and turn it was made in:
// a board replaced by another turn's (or by a form sent) has other cards and actors.
const chosen = {};

export function current(p) {
  const choice = chosen[p.board.id];
  if (choice && (choice.form !== p.form.id || choice.turn !== p.form.getAttribute("data-turn"))) {
    delete chosen[p.board.id];
    return null;
  }
  return choice || null;
}

export function remember(p, choice) {
  if (choice) {
    choice.form = p.form.id;
    choice.turn = p.form.getAttribute("data-turn");
    chosen[p.board.id] = choice;
  } else {
    delete chosen[p.board.id];
  }
}

export function forget(board) {
  delete chosen[board.id];
}

// The squares the form itself offers for the choice: the server worked out what is legal.
export function legalSquares(p, choice) {
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
