// A board replaced live (the other side confirmed, say) keeps the plan being made. The
// whole list of boards may be replaced at once, so every plan is kept, each by its form
// and turn, and goes back only onto its own board in that same turn.
import { actorRow } from "./form.js";

const kept = {}; // swapped element id -> {"<form id>@<turn>": plan}

function planKey(form) { return form.id + "@" + form.getAttribute("data-turn"); }

function planForms(element) {
  if (!element || !element.querySelectorAll) return [];
  const forms = Array.prototype.slice.call(element.querySelectorAll(".plan-form"));
  if (element.matches && element.matches(".plan-form")) forms.unshift(element);
  return forms;
}

// At htmx:oobBeforeSwap, while the old board is still there.
export function keepPlans(event) {
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
}

// At htmx:oobAfterSwap, onto the new board, before it is drawn.
export function restorePlans(event) {
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
}
