// The session's room. Modules register their listeners in this order, which is the order
// they run in when several answer the same event.
import "./session.js";
import "../room/stage.js";
import "../room/presence.js";
import "../room/play-table.js";
import "../room/chat.js";
import "../cards.js";
import "../acticsx-replay.js";
import "../acticsx/board.js";
import "../actual-board.js";
import "../sound.js";
