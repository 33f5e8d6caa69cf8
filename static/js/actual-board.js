// Actual's board: a tap on a card in the hand (under the board) brings back the board with
// "Now choose a highlighted square". On a phone that prompt and the squares would be
// scrolled away, so the prompt is brought into view, the board right under it.
document.addEventListener("htmx:afterSettle", (event) => {
  const board = event.detail.elt;
  if (!board || !board.classList || !board.classList.contains("match-board")) return;
  const prompt = board.querySelector(".board-prompt");
  if (!prompt) return;
  const box = prompt.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  prompt.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
});
