// Copy-to-clipboard for invite links; the field stays selectable for browsers without the API.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy-target]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy-target"));
    if (!field) return;
    field.select();
    var done = function () {
      var original = button.textContent;
      button.textContent = button.getAttribute("data-copied-text");
      setTimeout(function () { button.textContent = original; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, function () {});
    } else {
      done();
    }
  });
})();
