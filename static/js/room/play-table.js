// The play table: the room's panels one tap away on a phone, the timeline's channels, the
// newest line kept in view, and what waits for the viewer made hard to miss. Set going once
// htmx has processed the page.
import { lastSeq } from "../live-socket.js";
import { countFrom, linesArrived, showChannel } from "./channels.js";
import { checksUpdate, showSoundSetting } from "./checks.js";
import { playCard, room, timeline } from "./elements.js";
import { foldLines } from "./folds.js";
import { followResizes, newLinesArrived } from "./following.js";
import { inboxUpdate } from "./inbox.js";
import { countOnChatTab, showPanel } from "./phone-panels.js";
import { stageUpdate } from "./stage.js";

function timelineChanged(records) {
  const added = [];
  records.forEach((record) => added.push(...record.addedNodes));
  foldLines();
  const seen = linesArrived(added);
  if (!seen) return;
  countOnChatTab(seen);
  newLinesArrived();
}

// The parts that are swapped in whole: what they hold may change at any time.
function watchSwappedParts() {
  const list = timeline();
  if (!list || !window.MutationObserver) return;
  new MutationObserver(timelineChanged).observe(list, { childList: true });
  followResizes(list);
  const checks = document.querySelector(".checks-card");
  if (checks) new MutationObserver(checksUpdate).observe(checks, { childList: true, subtree: true });
  const stagePanel = document.querySelector('[data-room-panel="stage"]');
  if (stagePanel) new MutationObserver(stageUpdate).observe(stagePanel, { childList: true, subtree: true });
}

document.addEventListener("DOMContentLoaded", () => {
  const holder = room();
  if (!holder) return;
  holder.classList.add("has-script");
  document.querySelectorAll(".room-tabs, .channel-tabs").forEach((bar) => { bar.hidden = false; });
  showSoundSetting();
  countFrom(lastSeq());
  showChannel("main", false);
  showPanel("play");
  watchSwappedParts();
  const play = playCard();
  if (play && window.MutationObserver) new MutationObserver(inboxUpdate).observe(play, { childList: true });
  foldLines();
  stageUpdate();
  checksUpdate();
  inboxUpdate();
});
