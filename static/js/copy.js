// "Copy to the clipboard" buttons: copy the named field's text and say so to screen readers.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy-from]");
  if (!button) return;
  const field = document.getElementById(button.dataset.copyFrom);
  const status = button.parentElement.querySelector(".copy-status");
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    // Without clipboard access (plain http), select the text for the user to copy.
    field.select();
    return;
  }
  if (status) status.textContent = button.dataset.copiedText;
});
