// The chat palette's lines: choosing one puts it in the roll box, as the character whose
// palette it is, with the caret at its end so the player types the target (2D6+{筋力}>=).
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
