// Forms on the session's pages, many of them in panels swapped in live.

// A form that typed text (an introduction, backstage notes, a new scene) clears itself once
// the server says the action went through; a refusal leaves the text to fix.
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  if (!form || !form.classList || !form.classList.contains("resettable")) return;
  const xhr = event.detail.xhr;
  if (xhr && xhr.getResponseHeader("X-Action-Ok") === "1") form.reset();
});

// A chat line or a roll is sent with a random key, kept until the server answers: if the
// connection drops first, sending again repeats the key and the server, which may have
// acted already, answers with what it stored instead of rolling a second time.
function randomKey() {
  const bytes = new Uint8Array(18);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => ("0" + b.toString(16)).slice(-2)).join("");
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!form || !form.hasAttribute || !form.hasAttribute("data-once")) return;
  const field = form.querySelector("input[name=action_key]");
  if (field && !field.value) field.value = randomKey();
}, true);

document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  const xhr = event.detail.xhr;
  if (!form || !form.hasAttribute || !form.hasAttribute("data-once") || !xhr || xhr.status === 0) return;
  const field = form.querySelector("input[name=action_key]");
  if (field) field.value = "";
});

// A panel rendered once for everyone present carries nobody's CSRF token: a plain form in
// it takes this page's own (the one htmx sends as a header) as it is sent.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!form || (form.getAttribute("method") || "").toLowerCase() !== "post") return;
  if (form.querySelector("input[name=csrfmiddlewaretoken]")) return;
  let headers = {};
  try { headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (e) { return; }
  if (!headers["X-CSRFToken"]) return;
  const token = document.createElement("input");
  token.type = "hidden";
  token.name = "csrfmiddlewaretoken";
  token.value = headers["X-CSRFToken"];
  form.appendChild(token);
}, true);
