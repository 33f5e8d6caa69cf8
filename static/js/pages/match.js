// A match's own page, in a session or for practice: the game's board and its cards.
import "../cards.js";
import "../acticsx-replay.js";
import "../acticsx/board.js";
import "../actual-board.js";
