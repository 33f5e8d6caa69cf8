// The board and its planning form, looked up from whatever was tapped: boards are replaced
// live, so nothing is held on to and the plan is always read back from the form's own
// fields (the select boxes and order numbers), which work without JavaScript.

export function parts(element) {
  const board = element.closest(".acticsx-board");
  const form = board && board.querySelector(".plan-form");
  return form ? { board: board, form: form } : null;
}

export function cardSelect(form, index) { return form.querySelector('select[name="play_' + index + '"]'); }
export function actorRow(form, square) { return form.querySelector('[data-actor-row="' + square + '"]'); }
export function actorSelect(form, square) { return form.querySelector('select[name="do_' + square + '"]'); }
export function cell(board, square) { return board.querySelector('.ax-cell[data-square="' + square + '"]'); }

// Announced as a change, so the plan is redrawn as if the player had picked it by hand.
export function setSelect(select, value) {
  select.value = value;
  select.dispatchEvent(new Event("change", { bubbles: true }));
}

// The order numbers follow the rows' order, which is what the player rearranges.
export function renumber(form) {
  form.querySelectorAll("[data-actor-row]").forEach((row, position) => {
    const input = row.querySelector('input[name^="order_"]');
    if (input) input.value = position + 1;
  });
}
