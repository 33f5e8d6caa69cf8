// The GM's inbox: its count in the title and on the phone's Chat tab, which it tops.
import { setTitleCount, titleCount } from "./title.js";

export function inboxUpdate() {
  const inbox = document.getElementById("inbox");
  const count = inbox ? inbox.querySelectorAll("[data-inbox-item]").length : 0;
  // The answer to the last item stays under the inbox until something new arrives.
  const status = document.getElementById("inbox-status");
  if (status && count > titleCount("inbox")) status.textContent = "";
  setTitleCount("inbox", count);
  const badge = document.querySelector("[data-inbox-badge]");
  if (badge) {
    badge.hidden = !count;
    badge.textContent = count ? String(count) : "";
  }
}
