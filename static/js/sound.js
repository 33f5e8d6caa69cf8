// The room's sound and cut-ins. The server says what plays (the scene's music in the
// #scene-audio panel, effects and cut-ins as timeline lines); this browser's own volume,
// mute and "hide cut-ins" are kept in localStorage. A browser that blocks autoplay gets a
// button to allow sound, and the music starts from it.
const KEYS = { volume: "srs.sound.volume", mute: "srs.sound.mute", cutInsOff: "srs.cutins.off" };
// A line older than this when it arrives (a catch-up after a reconnect) is history:
// its sound or cut-in is not played again.
const FRESH_MS = 15000;
const CUT_IN_MS = 4000;

function stored(key, fallback) {
  try {
    const value = window.localStorage.getItem(key);
    return value === null ? fallback : value;
  } catch (error) {
    return fallback;
  }
}

function store(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch (error) {
    // Private windows may refuse: the setting then lasts for this page only.
  }
}

// Everything below needs the page's sound controls: the room's and the spectator's pages
// have them.
function startSound(controls) {
  const music = controls.querySelector("[data-music-player]");
  const effect = controls.querySelector("[data-effect-player]");
  const volumeInput = controls.querySelector("[data-sound-volume]");
  const muteInput = controls.querySelector("[data-sound-mute]");
  const cutInsOffInput = controls.querySelector("[data-cut-ins-off]");
  const unlock = document.querySelector("[data-sound-unlock]");
  const stage = document.querySelector("[data-cut-in-stage]");
  const announce = document.querySelector("[data-cut-in-announce]");
  let wantedMusic = "";

  function volume() {
    const value = parseInt(stored(KEYS.volume, "60"), 10);
    return isNaN(value) ? 0.6 : Math.min(Math.max(value, 0), 100) / 100;
  }

  function muted() {
    return stored(KEYS.mute, "0") === "1";
  }

  function applyLevels() {
    [music, effect].forEach((player) => {
      player.volume = volume();
      player.muted = muted();
    });
  }

  function blocked() {
    unlock.hidden = false;
  }

  function play(player) {
    const started = player.play();
    if (started && typeof started.catch === "function") {
      started
        .then(() => {
          if (player === music) unlock.hidden = true;
        })
        .catch((error) => {
          // NotAllowedError: the browser wants a click first. Anything else (a file that
          // will not decode) leaves the button hidden.
          if (error && error.name === "NotAllowedError") blocked();
        });
    }
  }

  // Follow the #scene-audio panel: start, change or stop the looped music.
  function followMusic() {
    const panel = document.getElementById("scene-audio");
    const source = panel ? panel.getAttribute("data-music-src") || "" : "";
    if (source === wantedMusic) return;
    wantedMusic = source;
    controls.setAttribute("data-music-state", source ? "playing" : "stopped");
    if (!source) {
      music.pause();
      music.removeAttribute("src");
      music.load();
      return;
    }
    music.src = source;
    play(music);
  }

  function fresh(line) {
    const item = line.closest("li");
    const time = item && item.querySelector("time[datetime]");
    if (!time) return false;
    const at = Date.parse(time.getAttribute("datetime"));
    return !isNaN(at) && Date.now() - at < FRESH_MS;
  }

  function playEffect(source) {
    effect.src = source;
    play(effect);
  }

  let hideTimer = null;

  function showCutIn(line) {
    const text = line.getAttribute("data-cut-in-text") || "";
    // Screen readers hear every cut-in, shown or not.
    announce.textContent = text;
    const sound = line.getAttribute("data-sound-src");
    if (sound) playEffect(sound);
    if (stored(KEYS.cutInsOff, "0") === "1") return;
    const picture = stage.querySelector("[data-cut-in-picture]");
    const source = line.getAttribute("data-cut-in-src");
    if (source) {
      picture.src = source;
      picture.hidden = false;
    } else {
      picture.removeAttribute("src");
      picture.hidden = true;
    }
    stage.querySelector("[data-cut-in-text]").textContent = text;
    stage.hidden = false;
    // Restart the entrance for a cut-in that follows another.
    stage.classList.remove("is-showing");
    void stage.offsetWidth;
    stage.classList.add("is-showing");
    window.clearTimeout(hideTimer);
    hideTimer = window.setTimeout(hideCutIn, CUT_IN_MS);
  }

  function hideCutIn() {
    stage.hidden = true;
    stage.classList.remove("is-showing");
  }

  // New timeline lines: an effect or a cut-in that has just happened plays here.
  function watchTimeline() {
    const timeline = document.getElementById("timeline-items");
    if (!timeline) return;
    new MutationObserver((records) => {
      records.forEach((record) => {
        record.addedNodes.forEach((node) => {
          if (node.nodeType !== 1) return;
          node.querySelectorAll("[data-cut-in], .sound-played[data-sound-src]").forEach((line) => {
            if (!fresh(line)) return;
            if (line.hasAttribute("data-cut-in")) showCutIn(line);
            else playEffect(line.getAttribute("data-sound-src"));
          });
        });
      });
    }).observe(timeline, { childList: true });
  }

  volumeInput.value = String(Math.round(volume() * 100));
  muteInput.checked = muted();
  cutInsOffInput.checked = stored(KEYS.cutInsOff, "0") === "1";
  applyLevels();

  volumeInput.addEventListener("input", () => {
    store(KEYS.volume, volumeInput.value);
    applyLevels();
  });
  muteInput.addEventListener("change", () => {
    store(KEYS.mute, muteInput.checked ? "1" : "0");
    applyLevels();
  });
  cutInsOffInput.addEventListener("change", () => {
    store(KEYS.cutInsOff, cutInsOffInput.checked ? "1" : "0");
    if (cutInsOffInput.checked) hideCutIn();
  });
  unlock.addEventListener("click", () => {
    unlock.hidden = true;
    if (wantedMusic) play(music);
  });
  stage.addEventListener("click", hideCutIn);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !stage.hidden) hideCutIn();
  });

  // The panel is swapped out of band when the scene or its music changes.
  document.body.addEventListener("htmx:oobAfterSwap", followMusic);
  document.body.addEventListener("htmx:afterSwap", followMusic);
  followMusic();
  watchTimeline();
}

const controls = document.querySelector("[data-sound-controls]");
if (controls) startSound(controls);
