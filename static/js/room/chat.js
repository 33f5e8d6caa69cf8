// The chat form and the roll box beside it. The chat form is replaced by the server's
// answer to every line and by live updates, so listeners sit on the document.
import { showPanel } from "./phone-panels.js";

// Someone who types on before the answer to Send arrives keeps what they typed: the new
// form takes the text typed since the line left (on a refusal, the text as it stands now,
// to fix and send again).
let chatSent = null;
let chatTyped = null;

function chatText(form) {
  return form && form.querySelector("[name=text]");
}

document.addEventListener("htmx:beforeRequest", (event) => {
  const form = event.detail.elt;
  if (form && form.id === "chat-form") chatSent = chatText(form) ? chatText(form).value : null;
});

document.addEventListener("htmx:beforeSwap", (event) => {
  const target = event.detail.target;
  chatTyped = null;
  if (!target || target.id !== "chat-form" || chatSent === null) return;
  const field = chatText(target);
  if (!field || field.value === chatSent) return;
  const ok = event.detail.xhr && event.detail.xhr.getResponseHeader("X-Action-Ok") === "1";
  chatTyped = ok && field.value.indexOf(chatSent) === 0
    ? field.value.slice(chatSent.length).replace(/^\s+/, "") : field.value;
});

document.addEventListener("htmx:afterSwap", () => {
  if (chatTyped === null) return;
  const field = chatText(document.getElementById("chat-form"));
  if (field && chatTyped) field.value = chatTyped;
  chatTyped = null;
  chatSent = null;
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
