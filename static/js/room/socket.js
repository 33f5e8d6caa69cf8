// The session's socket, shared by the room, the after-play page, the experience page and a
// match's own page: the session sends each member the partials of every page of the session
// (rendered once per audience, not per page), and each page takes those it shows.
import { keepLive, lastSeq, replaceWithNotice } from "../live-socket.js";

const CLOSE_NOT_A_MEMBER = 4403;
const CLOSE_SIGNED_OUT = 4401;
const CLOSE_ROLE_CHANGED = 4409;

keepLive({
  // A match's own page follows its one board, not the timeline.
  place(root) {
    const onlyBoard = root.getAttribute("data-boards-only");
    return onlyBoard ? { only_board: onlyBoard } : { last_seq: lastSeq() };
  },
  // The room's catch-up ends with the list of boards; a match page's, with its board; the
  // experience and after-play pages' is one frame.
  caughtUp(root, message) {
    return root.id !== "room" || root.hasAttribute("data-boards-only") || message.includes('id="matches"');
  },
  closed(code) {
    // The server no longer counts this user as a member (removed from the table, or they
    // left it in another tab): nothing more of the table is theirs to see.
    if (code === CLOSE_NOT_A_MEMBER) {
      const root = document.querySelector("[ws-connect]");
      if (root) {
        replaceWithNotice(root, root.getAttribute("data-removed-text"), {
          href: root.getAttribute("data-home-url"),
          text: root.getAttribute("data-home-text"),
        });
      }
    }
    // Signed out (in another tab) or made GM: a fresh load shows what is theirs now.
    if (code === CLOSE_SIGNED_OUT || code === CLOSE_ROLE_CHANGED) window.location.reload();
  },
});
