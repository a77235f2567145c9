// The game menu: share links and their QR code, files in and out, a fight opened from a
// file or a link (after asking), a new fight, the language, the save set aside, help.
import { isolate } from "../infra/dom.js";
import { download, readFile } from "../infra/files.js";
import { loadLanguage, setLanguage, t } from "../infra/i18n.js";
import { refused, unopened, unwritten } from "../infra/refusals.js";
import { openHelp } from "../views/help-dialog.js";
import { holdsLink, linkFor, playersView, qrSvg, readLink } from "../infra/share-links.js";
import * as store from "../infra/store.js";

// What the page agrees to read from a file, or to inflate from a link, before the engine
// sees it: a guard for the page's memory (a file of a gigabyte is never read). It is not
// the save format's limit: the engine refuses a fight too big for it ("too_big") and says why.
// The limits are the engine's (Table.limits: `file` for a file, which may hold every
// fight, `chars` for a link's fight, engine/save.py), counted by the engine as code
// points: a file may hold up to 4 bytes and a string 2 UTF-16 units for each, so the
// page's guard, 4 × that, is looser and never refuses what the engine would read.
const UNITS_PER_CHAR = 4;

const stamp = () => new Date().toISOString().slice(0, 16).replace(/[T:]/g, "-");

// A link put in the address less than this many ms after the one before was put there by
// a page, not typed: it asks.
const REPEATED = 10_000;

export class MenuController {
  constructor(parts, { menu, share, address }) {
    const { session, status, nav } = parts;
    this.parts = parts;
    this.share = share;
    this.address = address;
    this.linking = false; // a link is being asked about or opened: another one is dropped
    // The file named after the open fight, as the engine cleans a name for a file.
    const exportFile = async () => {
      const { fights } = parts;
      const name = fights.index ? fights.list.entry(fights.index.current)?.name : null;
      const answer = await session.call({ op: "export", board: true, ...(name ? { name } : {}) });
      download(`${answer.file ?? "riposte"}-${stamp()}.json`, answer.text);
    };
    menu.bind({
      share: () => this.openShare(false),
      exportFile,
      exportAside: async () => download(`riposte-illisible-${stamp()}.json`, session.held ?? (await store.aside()) ?? ""),
      importFile: (file) => this.importFile(file),
      players: () => nav.go("players"),
      rules: () => nav.go("rules"),
      newParty: () => this.newFight(true),
      newEmpty: () => this.newFight(false),
      help: openHelp,
      language: async (code) => {
        await loadLanguage(code); // its catalogue, fetched the first time it is chosen
        status.message(""); // said in the other language: not left behind
        status.announce(""); // nor the screen reader's last sentence
        const stored = store.saveLanguage(setLanguage(code));
        session.emit("words");
        session.emit("change", session.board);
        status.refused(unwritten(stored, "language_not_kept"));
      },
      theme: (theme) => {
        menu.showTheme(theme);
        status.refused(unwritten(store.saveTheme(theme), "theme_not_kept"));
      },
    });
    share.bind({
      copy: async () => {
        if (await share.copy()) share.say(t("linkCopied"));
      },
      exportFile,
      players: (checked) => this.openShare(checked),
    });
    menu.showLanguage(setLanguage(store.savedLanguage()));
    menu.showTheme(store.savedTheme());
    nav.on("menu", () => store.aside().then((aside) => menu.showAside(session.held !== null || aside !== null)));
    // The unreadable save that could not be set aside (boot/start.js): nothing
    // overwrites it until it is downloaded or given up.
    status.bindHeld(async (what) => {
      if (session.held === null) return;
      if (what === "download") download(`riposte-illisible-${stamp()}.json`, session.held);
      else if (!(await parts.ask.ask(t("heldDiscardConfirm"), [], t("heldDiscard"), t("cancel")))) return;
      status.hideHeld();
      status.report(session.release(), t(what === "download" ? "heldDownloaded" : "heldDiscarded"));
    });
  }

  // A link holds the log alone, in the engine's compact form (engine/link.py).
  async openShare(players) {
    const link = await linkFor((await this.parts.session.call({ op: "link" })).text, players);
    this.share.open(link, players, qrSvg);
  }

  async importFile(file) {
    const { session, status } = this.parts;
    const chars = (await session.limits())?.file; // a file may hold every fight: each save is checked by the engine
    if (!chars) return; // no engine: its fault is said already
    const read = await readFile(file, UNITS_PER_CHAR * chars);
    if (read.error === "too_big") status.refused(refused("too_big", "file_too_big", { kb: Math.ceil(read.size / 1000), max: chars / 1000 }));
    else if (read.error) status.refused(refused("unreadable", "file_unreadable"));
    else if (!(await this.parts.fights.importList(read.text))) {
      // One fight: it goes into the list of fights, opened; the open one stays in the list.
      const name = String(file.name ?? "").replace(/\.json$/i, "").trim().slice(0, (await session.limits())?.name) || null;
      await this.replaceWith(read.text, t("fromFile"), "file_refused", name);
    }
  }

  // The link in the address, if any: at start, and when the fragment changes (`changed`).
  // Another page may drive the address (it opened Riposte, window.opener, or
  // frames it; or it sets the fragment again and again): a link that arrives that way always
  // asks, even over an empty fight; a link that arrives while one is being asked about or
  // opened is dropped (the address cleared), so that each is taken once. A link the user
  // puts in the address of an open tab, once, opens as at start.
  async openLink(changed = false) {
    const hash = this.address.hash();
    if (!holdsLink(hash)) return;
    if (this.linking) {
      this.address.clear();
      return;
    }
    const time = performance.now();
    const repeated = changed && this.lastLink !== undefined && time - this.lastLink < REPEATED;
    if (changed) this.lastLink = time;
    this.linking = true;
    try {
      await this.takeLink(hash, repeated || this.address.opened());
    } finally {
      this.linking = false;
    }
  }

  // `hash`: the address's fragment when the link arrived (another may arrive meanwhile).
  async takeLink(hash, driven) {
    const { session, status, nav, ask } = this.parts;
    let link;
    const chars = (await session.limits())?.chars;
    if (!chars) return; // no engine: its fault is said already
    try {
      // A save compresses well: a fragment longer than the save's own limit is refused unread.
      link = await readLink(hash, UNITS_PER_CHAR * chars, chars);
    } catch (error) {
      status.refused(error.message === "too_big" ? refused("too_big", "link_too_big") : refused("unreadable", "link_damaged"));
      this.address.clear(); // refused: a reload or a bookmark does not meet it again
      return;
    }
    if (!link) {
      // `#vue=joueurs` alone (docs/TABLE.md): the players' view of the fight on this device.
      if (playersView(hash)) {
        this.address.clear(); // consumed, as a share link is: the same link opens it again
        if (!driven || await ask.ask(t("confirmPlayersTitle"), [t("linkFromPage")], t("confirmPlayers"), t("cancel"))) nav.go("players");
      }
      return;
    }
    if (session.readOnly) {
      // Kept in the address: opened once this tab takes over (controllers/tabs.js).
      status.refused(refused("read_only", "read_only_link"));
      return;
    }
    this.address.clear();
    const opened = await this.replaceWith(link.text, t("fromLink"), "link_refused", null, driven);
    if (opened && link.players) nav.go("players");
  }

  watchLinks() {
    this.address.bindChange(() => this.openLink(true));
  }

  // Open a save from a file or a link: the engine reads it, the user says yes; it opens
  // as a new fight of the list (named `name`), and the open one stays in the list. Over an
  // empty fight nothing is asked, unless another page sent it (`driven`). Refused by the
  // engine: the reason `why` around its refusal.
  async replaceWith(text, source, why, name = null, driven = false) {
    const { session, status, ask, fights } = this.parts;
    // Read first (a long fight takes a while: it may be stopped, and then nothing is asked).
    const seen = await fights.list.stoppable(() => session.call({ op: "inspect", text }));
    if (fights.list.stopped) {
      status.refused(refused("stopped", "stopped"));
      return false;
    }
    if (!seen.ok) {
      status.refused(unopened(why, seen.error));
      return false;
    }
    const s = seen.summary;
    const nothing = !session.board || Object.keys(session.board.combatants ?? {}).length === 0;
    const lines = [t("summary", s.round, s.fighters.map(isolate)), ...(driven ? [t("linkFromPage")] : []), t("confirmKeptInList")];
    if ((driven || !nothing) && !(await ask.ask(t("confirmTitle"), lines, t("confirmReplace"), t("confirmKeep")))) {
      status.message(t("kept"));
      return false;
    }
    if (!(await fights.switchTo(null, { op: "load", text }, name ?? t("fightFromLink")))) return false;
    status.message(t("opened", source));
    return true;
  }

  // A new fight of the list; the open one stays in the list. With the party, what carries
  // over is said, and the game master chooses once whether wounds and Espoir stay as they
  // are or come back to what they were when this fight began (docs/TABLE.md).
  async newFight(party) {
    const { status, nav, ask, fights } = this.parts;
    const lines = party ? [t("newWithParty"), t("partyCarries"), t("confirmKeptInList")] : [t("newEmpty"), t("confirmKeptInList")];
    const choice = party ? { legend: t("partyWoundsHope"), value: "keep", options: [["keep", t("partyKeep")], ["restore", t("partyRestore")]] } : null;
    if (!(await ask.ask(t("confirmNewTitle"), lines, t("confirmNew"), t("cancel"), choice))) return;
    if (!(await fights.switchTo(null, { op: "new", party, restore: party && ask.chosen === "restore" }))) return;
    status.message(t("newDone"));
    nav.go("cast");
  }
}
