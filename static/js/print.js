// Print buttons on the record and session sheets (no inline handlers: the CSP forbids them).
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});
