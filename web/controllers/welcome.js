// A first visit: the empty board offers to add a fighter or to open the engine's example
// fight (Table `example`), and the guide « Comment ça marche » is shown once, on the
// board, until the game master closes it; the welcome and the menu reopen it.
import { language, t } from "../infra/i18n.js";
import * as store from "../infra/store.js";

export class WelcomeController {
  constructor(parts, view, { addFighter }) {
    const { session, status, nav, fights, dispatch } = parts;
    // The guide is open on an empty board until the game master closes it (then never
    // again by itself), and while they follow it: the example opened from it, or the guide
    // reopened. Fighters added by hand close it for this page.
    this.open = false;
    this.following = false;
    this.closed = false; // closed on this page: not opened again by itself, even where storage fails
    const empty = (board) => Object.keys(board.combatants ?? {}).length === 0;
    const draw = (board) => {
      if (!board) return; // nothing drawn before the first board (the saved one, or the engine's)
      if (!this.open && !this.closed && !store.guideSeen() && empty(board)) this.open = true;
      if (this.open && !this.following && !empty(board)) this.open = false;
      view.render(empty(board), this.open);
    };
    const close = () => {
      this.open = false;
      this.following = false;
      this.closed = true;
      if (store.saveGuideSeen() !== "ok") status.message(t("guideNotKept"));
      draw(session.board);
    };
    view.bind({
      add: () => {
        nav.go("cast");
        addFighter();
      },
      // The example is a new fight of the list (the empty one stays in it), in the page's language.
      example: async () => {
        this.following = this.open;
        const since = nav.moves;
        if (!(await fights.switchTo(null, { op: "example", lang: language() }, t("exampleName")))) return;
        status.message(t("exampleOpened"));
        nav.goUnlessMoved("board", since);
      },
      guide: () => {
        this.open = true;
        this.following = true;
        nav.go("board");
        draw(session.board);
        view.focusGuide();
      },
      close,
    });
    dispatch.draws("board", draw);
    session.on("words", () => {
      if (this.open) view.words();
    });
    draw(session.board);
  }
}
