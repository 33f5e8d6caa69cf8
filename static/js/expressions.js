// The chat's expression picker offers only the faces of the character chosen under "Say as";
// speaking out of character, narrating or whispering, it is switched off. Delegated on
// document: the chat form is replaced after every line and by live updates.
(function () {
  "use strict";

  function sync(form) {
    var sayAs = form.querySelector("[name=say_as]");
    var picker = form.querySelector(".expression-picker");
    if (!sayAs || !picker) return;
    var voice = sayAs.value;
    var any = false;
    picker.querySelectorAll("optgroup").forEach(function (group) {
      var mine = group.dataset.voice === voice;
      group.disabled = !mine;
      group.hidden = !mine;
      any = any || mine;
    });
    var chosen = picker.selectedOptions[0];
    if (chosen && chosen.parentElement.tagName === "OPTGROUP" && chosen.parentElement.disabled) {
      picker.value = "";
    }
    picker.disabled = !any;
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches("#chat-form [name=say_as]")) sync(event.target.form);
  });
  document.addEventListener("htmx:load", function (event) {
    var form = event.target.closest ? event.target.closest("#chat-form") : null;
    form = form || (event.target.querySelector && event.target.querySelector("#chat-form"));
    if (form) sync(form);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("chat-form");
    if (form) sync(form);
  });
})();
