// Every page on the session's socket: the room builds on this; the after-play and
// experience pages and a session match's own page need no more.
import "../room/socket.js";
import "../room/live-panels.js";
import "../room/forms.js";
