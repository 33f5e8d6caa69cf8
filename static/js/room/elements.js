// The room's parts that several of its modules read. Looked up each time: panels holding
// them may have been swapped since.

export function room() {
  return document.getElementById("room");
}

export function timeline() {
  return document.getElementById("timeline-items");
}

// The timeline's card, which holds the chat and (for the GM) the inbox.
export function playCard() {
  return document.querySelector(".timeline-card[data-room-panel]");
}
