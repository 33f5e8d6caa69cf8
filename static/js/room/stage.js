// The stage panel: starting a planned scene, and what in it waits for the viewer.

// Picking a planned scene fills in its title, place and purpose, to be read and edited
// before the scene starts; what the GM typed over a previous pick is kept.
document.addEventListener("change", (event) => {
  const select = event.target;
  if (!select.matches || !select.matches("[data-planned-fills]")) return;
  const form = select.form;
  const option = select.options[select.selectedIndex];
  ["title", "place", "purpose"].forEach((name) => {
    const field = form && form.elements[name];
    if (!field) return;
    const filled = field.getAttribute("data-filled");
    if (field.value !== "" && field.value !== filled) return;
    const value = (option && option.getAttribute("data-" + name)) || "";
    field.value = value;
    field.setAttribute("data-filled", value);
  });
});

// A notice that waits for the GM ("Entry requested: the GM decides.") goes once the row it
// waits on, seen waiting in the stage panel, no longer waits: the GM has decided.
function awaitsUpdate() {
  const status = document.getElementById("stage-status");
  if (!status || !status.hasAttribute("data-awaits")) return;
  const row = document.getElementById(status.getAttribute("data-awaits"));
  if (row && row.hasAttribute("data-waiting")) {
    status.setAttribute("data-awaits-seen", "");
  } else if (status.hasAttribute("data-awaits-seen")) {
    status.textContent = "";
    status.removeAttribute("data-awaits");
    status.removeAttribute("data-awaits-seen");
  }
}

// A stage request or scene wish the viewer must answer puts a dot on the phone's Stage tab.
export function stageUpdate() {
  const dot = document.querySelector("[data-stage-alert]");
  const stage = document.getElementById("stage");
  if (dot) dot.hidden = !(stage && stage.querySelector(".needs-you, #stage-heading .badge-alert"));
  awaitsUpdate();
}
