// A board already showing this version (the mover's own page got it with the answer to its
// request) is left alone when the socket brings it too, so a card or piece chosen meanwhile
// stays chosen. An older version delivered late (two moves announced from two threads)
// never replaces a newer board either.
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const target = event.detail.target;
  const incoming = event.detail.fragment && event.detail.fragment.firstElementChild;
  if (!target || !incoming || !target.classList.contains("match-board")) return;
  const shown = parseInt(target.getAttribute("data-version"), 10);
  const coming = parseInt(incoming.getAttribute("data-version"), 10);
  // A seat's private setting (Actual's Counter mode) changes no version: a board of the
  // same version with another setting is news from the seat's other page.
  const sameSetting =
    target.getAttribute("data-seat-setting") === incoming.getAttribute("data-seat-setting");
  if (!isNaN(shown) && !isNaN(coming) && (coming < shown || (coming === shown && sameSetting))) {
    event.detail.shouldSwap = false;
  }
});
