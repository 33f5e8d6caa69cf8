// A board already showing this version (the mover's own page got it with the answer to its
// request) is left alone when the socket brings it too, so a card or piece chosen meanwhile
// stays chosen. An older version delivered late (two moves announced from two threads)
// never replaces a newer board either.
//
// Asked before htmx swaps anything (live-panels.js drops such a part from the message):
// cancelling at htmx:oobBeforeSwap came too late, since htmx has by then set the board's
// kept form (hx-preserve, a seat's secret setup) aside for the new board, and a swap that
// never happens never gives it back.
export function staleBoard(part, target) {
  if (!target.classList || !target.classList.contains("match-board")) return false;
  const shown = parseInt(target.getAttribute("data-version"), 10);
  const coming = parseInt(part.getAttribute("data-version"), 10);
  // A seat's private setting (Actual's Counter mode) changes no version: a board of the
  // same version with another setting is news from the seat's other page.
  const sameSetting =
    target.getAttribute("data-seat-setting") === part.getAttribute("data-seat-setting");
  return !isNaN(shown) && !isNaN(coming) && (coming < shown || (coming === shown && sameSetting));
}
