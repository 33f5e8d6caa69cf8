// Tell the server which time zone this browser shows, so the log's times read as local
// times. Runs before the room's socket connects, which then carries the cookie too.
(function () {
  "use strict";
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  // IANA names only ("Asia/Tokyo", "Etc/GMT+9"): all of it is allowed in a cookie value.
  if (!zone || !/^[A-Za-z0-9_+\/-]{1,64}$/.test(zone)) {
    return;
  }
  if (document.cookie.split("; ").indexOf("tz=" + zone) === -1) {
    document.cookie = "tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax";
  }
})();
