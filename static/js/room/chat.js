// The chat form and the roll box beside it. Both are replaced by the server's answer to a
// refusal and by live updates, so listeners sit on the document.
import { showPanel } from "./phone-panels.js";

// A line or a roll that went through is answered with no content and X-Action-Ok: the form
// stays as it is (the voice, expression and channel chosen), loses the text sent and any
// earlier refusal, and someone who typed on before the answer arrived keeps what they typed
// since. A refusal is answered with the form again, its errors shown, the text as it stands.
let chatSent = null;

function textField(form) {
  return form && form.querySelector("[name=text]");
}

document.addEventListener("htmx:beforeRequest", (event) => {
  const form = event.detail.elt;
  if (form && form.id === "chat-form") chatSent = textField(form) ? textField(form).value : null;
});

// What stays of the text once `sent` has gone: what was typed after it, or all of it when
// it was edited rather than typed on.
function typedSince(value, sent) {
  if (sent === null || value === sent) return "";
  return value.indexOf(sent) === 0 ? value.slice(sent.length).replace(/^\s+/, "") : value;
}

// A form whose line went, as a fresh one is: `text` left in it, no refusal's messages,
// "GM only" unchecked.
function clearSent(form, text) {
  const field = textField(form);
  if (field) field.value = text;
  form.querySelectorAll("[role=alert]").forEach((message) => message.remove());
  const gmOnly = form.querySelector("[name=gm_only]");
  if (gmOnly) gmOnly.checked = false;
}

// A refusal swaps the form in again, with the text that was sent: what was typed while it
// was on its way is put back.
let chatTyped = null;

document.addEventListener("htmx:beforeSwap", (event) => {
  const target = event.detail.target;
  chatTyped = null;
  if (!event.detail.shouldSwap || !target || target.id !== "chat-form" || chatSent === null) return;
  const field = textField(target);
  if (field && field.value !== chatSent) chatTyped = field.value;
});

document.addEventListener("htmx:afterSwap", () => {
  if (chatTyped === null) return;
  const field = textField(document.getElementById("chat-form"));
  if (field) field.value = chatTyped;
  chatTyped = null;
});

document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  const xhr = event.detail.xhr;
  if (!form || (form.id !== "chat-form" && form.id !== "roll-box")) return;
  const sent = chatSent;
  if (form.id === "chat-form") chatSent = null;
  if (!xhr || xhr.status !== 204 || xhr.getResponseHeader("X-Action-Ok") !== "1") return;
  // The socket may have brought a new form meanwhile (the voices changed): clear that one.
  const current = document.getElementById(form.id);
  if (!current) return;
  // The chat keeps what was typed on since Send; the roll box starts empty.
  const field = textField(current);
  clearSent(current, form.id === "chat-form" && field ? typedSince(field.value, sent) : "");
});

// The chat palette's lines: choosing one puts it in the roll box, as the character whose
// palette it is, with the caret at its end so the player types the target (2D6+{筋力}>=).
// The roll box lives with the chat: on a phone, that panel is shown first.
document.addEventListener("click", (event) => {
  if (event.target.closest(".palette-to-box")) showPanel("play");
}, true);

document.addEventListener("click", (event) => {
  const button = event.target.closest(".palette-to-box");
  if (!button) return;
  const input = document.getElementById("roll_text");
  if (!input) return;
  const rollAs = document.getElementById("roll_roll_as");
  if (rollAs && [...rollAs.options].some((option) => option.value === button.dataset.character)) {
    rollAs.value = button.dataset.character;
  }
  input.value = button.dataset.line;
  input.focus();
  input.setSelectionRange(input.value.length, input.value.length);
});

// The expression picker offers only the faces of the character chosen under "Say as";
// speaking out of character, narrating or whispering, it is switched off.
function offerExpressions(form) {
  const sayAs = form.querySelector("[name=say_as]");
  const picker = form.querySelector(".expression-picker");
  if (!sayAs || !picker) return;
  const voice = sayAs.value;
  let any = false;
  picker.querySelectorAll("optgroup").forEach((group) => {
    const mine = group.dataset.voice === voice;
    group.disabled = !mine;
    group.hidden = !mine;
    any = any || mine;
  });
  const chosen = picker.selectedOptions[0];
  if (chosen && chosen.parentElement.tagName === "OPTGROUP" && chosen.parentElement.disabled) {
    picker.value = "";
  }
  picker.disabled = !any;
}

document.addEventListener("change", (event) => {
  if (event.target.matches("#chat-form [name=say_as]")) offerExpressions(event.target.form);
});

document.addEventListener("htmx:load", (event) => {
  let form = event.target.closest ? event.target.closest("#chat-form") : null;
  form = form || (event.target.querySelector && event.target.querySelector("#chat-form"));
  if (form) offerExpressions(form);
});

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("chat-form");
  if (form) offerExpressions(form);
});
