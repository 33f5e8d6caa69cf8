// Checks waiting for the viewer: counted in the title, said once, the panel highlighted, a
// badge on the phone's tab, and (if asked for) a short beep.
import { room } from "./elements.js";
import { showPanel } from "./phone-panels.js";
import { setTitleCount } from "./title.js";

const SOUND_KEY = "srs-check-sound";
let waitingKeys = [];
let audio = null;

function soundOn() {
  try { return window.localStorage.getItem(SOUND_KEY) === "1"; } catch (e) { return false; }
}

function beep() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    audio = audio || new Context();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch (e) { /* no sound available: the title and the highlight still say it */ }
}

export function checksUpdate() {
  const holder = room();
  if (!holder) return;
  const waiting = Array.from(
    document.querySelectorAll("#check-items .check-item-roll"),
    (item) => item.getAttribute("data-check-key") || item.id);
  const count = waiting.length;
  const text = holder.getAttribute("data-waiting-text");
  setTitleCount("checks", count);
  const card = document.querySelector(".checks-card");
  if (card) card.classList.toggle("has-waiting", count > 0);
  const badge = document.querySelector("[data-check-badge]");
  if (badge) {
    badge.hidden = !count;
    badge.textContent = count ? String(count) : "";
  }
  const alert = document.querySelector("[data-check-alert]");
  if (alert) {
    alert.hidden = !count;
    alert.querySelector("[data-check-alert-text]").textContent = count ? text + " (" + count + ")" : "";
  }
  const arrived = waiting.some((key) => waitingKeys.indexOf(key) < 0);
  waitingKeys = waiting;
  if (arrived) {
    const status = document.querySelector("[data-check-announce]");
    if (status) status.textContent = text + " (" + count + ")";
    if (soundOn()) beep();
  }
}

// The beep setting is this browser's own.
export function showSoundSetting() {
  const sound = document.querySelector("[data-check-sound]");
  if (sound) sound.checked = soundOn();
}

document.addEventListener("change", (event) => {
  if (!event.target.matches || !event.target.matches("[data-check-sound]")) return;
  try { window.localStorage.setItem(SOUND_KEY, event.target.checked ? "1" : "0"); } catch (e) { /* private mode */ }
  if (event.target.checked) beep();
});

document.addEventListener("click", (event) => {
  if (!event.target.closest("[data-check-jump]")) return;
  showPanel("checks");
  const heading = document.querySelector("#check-items .check-item-roll h3");
  if (!heading) return;
  heading.tabIndex = -1;
  heading.scrollIntoView({ block: "start" });
  heading.focus();
});
