// An arrow from each planned mover to where it aims, over the grid (drawn for the plan
// being made and for a confirmed one the server marked).
import { cell } from "./form.js";

const SVG = "http://www.w3.org/2000/svg";

export function arrows(board) {
  const grid = board.querySelector(".acticsx-grid");
  if (!grid) return;
  const old = grid.querySelector(".ax-arrows");
  if (old) old.remove();
  const moves = grid.querySelectorAll(".ax-mark-from[data-to]");
  if (!moves.length) return;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "ax-arrows");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("width", grid.clientWidth);
  svg.setAttribute("height", grid.clientHeight);
  const defs = document.createElementNS(SVG, "defs");
  const marker = document.createElementNS(SVG, "marker");
  // One arrowhead per board: several boards can share a page.
  const id = board.id + "-arrowhead";
  marker.setAttribute("id", id);
  marker.setAttribute("viewBox", "0 0 10 10");
  marker.setAttribute("refX", "8");
  marker.setAttribute("refY", "5");
  marker.setAttribute("markerWidth", "5");
  marker.setAttribute("markerHeight", "5");
  marker.setAttribute("orient", "auto-start-reverse");
  const head = document.createElementNS(SVG, "path");
  head.setAttribute("d", "M 0 0 L 10 5 L 0 10 z");
  marker.appendChild(head);
  defs.appendChild(marker);
  svg.appendChild(defs);
  function centre(el) {
    return [el.offsetLeft + el.offsetWidth / 2, el.offsetTop + el.offsetHeight / 2];
  }
  moves.forEach((from) => {
    const start = from.closest(".ax-cell");
    const end = cell(board, from.getAttribute("data-to"));
    if (!start || !end) return;
    const a = centre(start), b = centre(end);
    const line = document.createElementNS(SVG, "line");
    line.setAttribute("x1", a[0]); line.setAttribute("y1", a[1]);
    line.setAttribute("x2", b[0]); line.setAttribute("y2", b[1]);
    line.setAttribute("marker-end", "url(#" + id + ")");
    svg.appendChild(line);
  });
  grid.appendChild(svg);
}
