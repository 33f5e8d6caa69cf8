// The page's title counts what waits for the viewer: the GM's inbox first, then the checks.
import { room } from "./elements.js";

const baseTitle = document.title;
const counts = { inbox: 0, checks: 0 };

export function titleCount(kind) {
  return counts[kind];
}

export function setTitleCount(kind, count) {
  counts[kind] = count;
  const holder = room();
  if (!holder) return;
  const parts = [];
  if (counts.inbox) parts.push("(" + counts.inbox + ") " + holder.getAttribute("data-inbox-text"));
  if (counts.checks) parts.push("(" + counts.checks + ") " + holder.getAttribute("data-waiting-text"));
  document.title = parts.length ? parts.join(" · ") + " · " + baseTitle : baseTitle;
}
