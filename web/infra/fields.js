// Number fields select their content when they get the focus: a tap on « 1 »
// then 4 gives 4, not 14. The tap's own mouseup, which would put the caret back and undo
// the selection, is stopped once, right after the focus.
export function selectNumbersOnFocus(root = document) {
  let focused = null;
  root.addEventListener("focusin", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.type !== "number") return;
    input.select();
    focused = input;
  });
  root.addEventListener("mouseup", (event) => {
    if (event.target === focused) event.preventDefault();
    focused = null;
  }, true);
}
