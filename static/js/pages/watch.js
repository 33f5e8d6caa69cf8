// The spectator's page.
import "../spectator.js";
import "../sound.js";
import "../cards.js";
import "../acticsx-replay.js";
import "../acticsx/board.js";
import "../actual-board.js";
