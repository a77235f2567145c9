// Riposte's page, wired: views own the DOM, controllers say what a tap does, the session
// holds the board the engine last answered (the engine, in its worker, owns the fight).
import "./boot/frame.js"; // first: in another site's frame, nothing below runs
import { launched } from "./boot/early.js";
import { registerPlayerOffline } from "./boot/offline.js";
import { calls, EngineFault } from "./boot/engine.js";
import { paintSaved, start } from "./boot/start.js";
import { BoardController } from "./controllers/board.js";
import { CastController } from "./controllers/cast.js";
import { ClockController } from "./controllers/clock.js";
import { FightsController } from "./controllers/fights.js";
import { JournalController } from "./controllers/journal.js";
import { MenuController } from "./controllers/menu.js";
import { RoundController } from "./controllers/round.js";
import { RulesController } from "./controllers/rules.js";
import { Shortcuts } from "./controllers/shortcuts.js";
import { TabsController } from "./controllers/tabs.js";
import { WelcomeController } from "./controllers/welcome.js";
import { Address } from "./infra/address.js";
import { BackButton } from "./infra/back.js";
import { selectNumbersOnFocus } from "./infra/fields.js";
import { expose, HOOKED } from "./infra/hooks.js";
import { loadLanguage, t } from "./infra/i18n.js";
import { Navigation } from "./infra/navigation.js";
import { Dispatcher } from "./infra/dispatch.js";
import { commands } from "./infra/send.js";
import { Discarded, Session } from "./infra/session.js";
import * as store from "./infra/store.js";
import { unpackedText } from "./infra/verdicts.js";
import { Writers } from "./infra/writer.js";
import { keepAwake } from "./live/awake.js";
import { liveRole } from "./live/follow.js";
import { LiveHostView } from "./live/host-view.js";
import { BoardView } from "./views/board-view.js";
import { CastView } from "./views/cast-view.js";
import { ConfirmDialog } from "./views/confirm-dialog.js";
import { FightsView } from "./views/fights-view.js";
import { InstallView } from "./views/install-view.js";
import { JournalView, SummaryView } from "./views/journal-view.js";
import { MenuView } from "./views/menu-view.js";
import { LaboView } from "./views/labo-view.js";
import { RoundView } from "./views/round-view.js";
import { RulesView } from "./views/rules-view.js";
import { Screens } from "./views/screens-view.js";
import { ShareView } from "./views/share-view.js";
import { SheetView } from "./views/sheet-view.js";
import { StatusView } from "./views/status-view.js";
import { WelcomeView } from "./views/welcome-view.js";

const back = new BackButton(); // the phone's back button closes a dialog or sheet, then goes back to the board
selectNumbersOnFocus(); // a number tapped is selected: typing replaces it
new InstallView();
const status = new StatusView();
const session = new Session(store);
const nav = new Navigation(new Screens(), back);
// `dispatch`: each answer drawn once, on what is on screen (web/infra/dispatch.js).
const common = { session, status, nav, dispatch: new Dispatcher(session, nav), ask: new ConfirmDialog() };
// What the controllers share, whole before the first of them is made: the list of fights
// is a part the menu uses (a fight opened from a file or a link joins it).
const parts = Object.freeze({ ...common, fights: new FightsController(common, new FightsView()) });
// Another fight opening, a list of fights imported, or the lab's rounds (« Règles de la
// table ») may be stopped while the engine works.
let rules = null;
status.bindStop(() => parts.fights.list.long || Boolean(rules?.trying), () => parts.fights.list.stop() || Boolean(rules?.stopTrying()));
// The menu first: it sets the page's language before anything is drawn; a language other
// than French has its catalogue fetched first (web/infra/i18n.js).
await loadLanguage(store.savedLanguage());
const menuView = new MenuView();
const menu = new MenuController(parts, { menu: menuView, share: new ShareView(), address: new Address() });
const sheet = new SheetView(); // one action sheet: the board's, or a player's own PJ's
const board = new BoardController(parts, new BoardView(), sheet);
const roundView = new RoundView();
new RoundController(parts, roundView);
const cast = new CastController(parts, new CastView());
new WelcomeController(parts, new WelcomeView(), { addFighter: () => cast.newFighter() });
new JournalController(parts, new JournalView(), new SummaryView());
// The live table: a player's phone (#table=…) or an answer handed over
// (#reponse=…) leaves the saved fight alone (web/live/follow.js); web/boot/early.js, which
// started Python before this module ran, started none there.
const live = liveRole(window.location);
if (!live) new Shortcuts(parts, board);
const tabs = new TabsController(parts, new Writers());

// A fault stops the tap that met it (it rejects), is shown once in the status bar, and
// is not reported again as an unhandled rejection.
parts.session.on("fault", (error) => status.setEngine("fault", t("engineFault", error.message)));
window.addEventListener("unhandledrejection", (event) => {
  if (event.reason instanceof EngineFault || event.reason instanceof Discarded) event.preventDefault();
});

// The game master's live table, once made (`hostTable`, after the engine is ready).
let hostTable = async () => undefined;
let hosted;
const hosting = new Promise((resolve) => {
  hosted = resolve;
});

if (live) {
  import("./live/guest.js").then(({ startGuest }) => startGuest(live, store, sheet));
  registerPlayerOffline().catch(() => null); // the player's page reopens with no network
}
else {
  cast.readModels();
  rules = new RulesController(parts, new RulesView(), new LaboView());
  // The turn clock and the cue of a PJ's turn (this device's settings): the engine is told
  // the clock's limit once the live table's host is made, for the players' board.
  const clock = new ClockController(parts, { store, view: menuView, hosting });
  hosting.then(() => clock.limit !== null && clock.tell()); // off: the engine's default, nothing to tell
  const { took } = commands(parts);
  // The live table's game master side (web/live/host.js with WebRTC, the codes and the
  // players' connections) is made once the engine is ready (`hostTable`, below), off a first
  // visit's critical path; its view is here from the start. What asks for it before then
  // waits for it: the players' view shown, a proposal edited, and what the menu's « Table en
  // direct » can ask before there is a table (an invitation, the players' mode, the PNJ's
  // details, the STUN server). The host then binds the view's handlers to its own.
  const view = new LiveHostView();
  const waiting = (name) => (...args) => hosting.then(() => view.handlers[name]?.(...args));
  view.bind(Object.fromEntries(["invite", "reinvite", "mode", "pnjDetails", "stun"].map((name) => [name, waiting(name)])));
  hostTable = async () => {
    const { LiveHost } = await import("./live/host.js");
    const host = new LiveHost({ session: parts.session, status, store, view, awake: keepAwake(), took,
      refused: (answer) => board.refused(answer, "here") });
    // The players' view on this device is the players' phones' board (engine/players.py).
    host.on("players", (shown) => {
      board.players(shown);
      clock.drawPlayers(shown);
    });
    host.on("proposals", (proposals) => roundView.showProposals(proposals));
    host.on("accept", (id) => board.actions(id, true));
    // For the tests and the benchmark (web/infra/hooks.js): what the players were sent,
    // read-only copies.
    if (HOOKED) expose("riposteLive", { shown: () => host.shown, invitations: () => host.invitations.size,
      spares: () => [...host.links.values()].filter((l) => l.spare?.answered).length,
      sent: () => [...host.links.values()].map((l) => ({ messages: l.peer?.sent ?? 0, characters: l.peer?.bytes ?? 0 })),
      // ICE restarts (web/live/restart.js): begun now on every open connection, and counted.
      restart: () => Promise.all([...host.links.values()].map((l) => l.restarts?.start())),
      restarts: () => [...host.links.values()].map((l) => ({ begun: l.restarts?.restarts ?? 0, done: l.restarts?.done ?? 0 })) });
    hosted(host);
  };
  parts.nav.on("players", () => hosting.then((host) => host.watch()));
  roundView.bindEdited((id) => hosting.then((host) => host.ask({ what: "edited", id })));
  // For the tests and the benchmark (web/infra/hooks.js): the answers drawn.
  if (HOOKED) expose("ripostePage", { renders: () => common.dispatch.renders, calls: () => calls });
}

// Who writes the fight is known before the page can be tapped (one writer per fight).
// A live table's page starts none of it: no engine, no writer, no saved fight. The list
// of fights is made (or finished) before the saved fight is read.
// The saved board is painted first, from the copy localStorage keeps of it.
const first = live ? null : paintSaved(parts, board);
if (!live) tabs.start().then(() => parts.fights.prepare()).then(() => start(parts, board, launched, first)).then(async (engine) => {
  if (!engine) return;
  tabs.started();
  parts.fights.tellSevenDays();
  // The raw bridge, for the fuzz tests (web/infra/hooks.js): text in, text out, the
  // answer's board with its verdicts put back on its fighters (web/infra/verdicts.js).
  if (HOOKED) expose("riposte", { raw: async (text) => unpackedText(await engine.raw(text)) });
  // The live table, before the address's link is opened: the table this page kept is given
  // back to the engine first, as when the host was made with the page.
  await hostTable();
  tabs.onWriter = () => menu.openLink(); // a link left waiting in a tab that followed
  // Watched before the address's own link is asked about: one that arrives meanwhile is
  // dropped as any that arrives while a link is asked about (controllers/menu.js).
  menu.watchLinks();
  await menu.openLink();
  // A rule set's link (#regles=…): offered to keep, at start and when the address changes.
  const ruleSetAddress = new Address();
  ruleSetAddress.bindChange(() => rules?.openLink(ruleSetAddress));
  await rules?.openLink(ruleSetAddress);
});
