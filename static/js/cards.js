// Card details: right-click or a long press opens a card's detail like a click on its
// summary does (the keyboard already toggles it with Enter or Space).
const LONG_PRESS_MS = 500;

function detailOf(target) {
  return target.closest && target.closest("[data-card-detail]");
}

document.addEventListener("contextmenu", (event) => {
  const detail = detailOf(event.target);
  if (!detail) return;
  event.preventDefault();
  detail.open = true;
});

let pressTimer = null;
document.addEventListener("pointerdown", (event) => {
  const detail = detailOf(event.target);
  if (!detail || event.pointerType === "mouse") return;
  pressTimer = setTimeout(() => { detail.open = true; }, LONG_PRESS_MS);
});
["pointerup", "pointercancel", "pointermove"].forEach((name) => {
  document.addEventListener(name, () => clearTimeout(pressTimer));
});
