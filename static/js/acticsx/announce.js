// What a tap did, said in the form's live status line so a screen reader hears it. The
// sentences come translated from the template (data-say-<key>, with {name} placeholders).

export function say(form, key, values) {
  let text = form.getAttribute("data-say-" + key) || "";
  Object.keys(values || {}).forEach((name) => {
    text = text.split("{" + name + "}").join(values[name]);
  });
  const line = form.querySelector(".ax-tap-status");
  if (line) line.textContent = text;
}
