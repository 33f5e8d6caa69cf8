// Planning by taps: a card then a square plays it there, an actor then a square moves it
// there, the actor tapped again picks its action. Each tap only sets the form's own fields.
import { say } from "./announce.js";
import { current, forget, legalSquares, remember } from "./choice.js";
import { draw } from "./draw.js";
import { actorRow, actorSelect, cardSelect, setSelect } from "./form.js";

function choose(p, choice) {
  remember(p, choice);
  draw(p);
}

export function tapCard(p, pick) {
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

export function tapSquare(p, square) {
  let choice = current(p);
  const select = choice && choice.card !== undefined ? cardSelect(p.form, choice.card) : null;
  const pick = select && p.form.querySelector('[data-pick-card="' + choice.card + '"]');
  const row = choice && choice.actor !== undefined ? actorRow(p.form, choice.actor) : null;
  const actions = row && actorSelect(p.form, choice.actor);
  if (choice && !pick && !actions) {
    // The card or actor is no longer on the form: begin afresh from this tap.
    forget(p.board);
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

// Escape lets go of a half-made choice, as a second tap on the same card does.
export function cancel(p) {
  if (!current(p)) return;
  choose(p, null);
  say(p.form, "cancel");
}
