// The game menu: share links and their QR code, files in and out, a fight opened from a
// file or a link (after asking), a new fight, the language, the save set aside, help.
import { isolate } from "../dom.js";
import { download, readFile } from "../files.js";
import { refusal, setLanguage, t } from "../i18n.js";
import { openHelp } from "../panels.js";
import { linkFor, playersView, qrSvg, readLink } from "../share.js";
import * as store from "../store.js";

// What the page agrees to read from a file, or to inflate from a link, before the engine
// sees it: a guard for the page's memory (a file of a gigabyte is never read). It is not
// the save format's limit: the engine refuses a fight too big for it ("too_big") and says why.
const TRANSPORT_LIMIT = 2_000_000; // characters

const stamp = () => new Date().toISOString().slice(0, 16).replace(/[T:]/g, "-");

export class MenuController {
  constructor(parts, { menu, share, address }) {
    const { session, status, nav } = parts;
    this.parts = parts;
    this.share = share;
    this.address = address;
    const exportFile = async () => download(`riposte-${stamp()}.json`, await this.exportText(true));
    menu.bind({
      share: () => this.openShare(false),
      exportFile,
      exportAside: () => download(`riposte-illisible-${stamp()}.json`, store.aside() ?? ""),
      importFile: (file) => this.importFile(file),
      players: () => nav.go("players"),
      newParty: () => this.newFight(true),
      newEmpty: () => this.newFight(false),
      help: openHelp,
      language: (code) => {
        store.saveLanguage(setLanguage(code));
        session.emit("words");
        session.emit("change", session.board);
      },
    });
    share.bind({
      copy: async () => {
        if (await share.copy()) status.message(t("linkCopied"));
      },
      exportFile,
      players: (checked) => this.openShare(checked),
    });
    menu.showLanguage(setLanguage(store.savedLanguage()));
    nav.on("menu", () => menu.showAside(store.aside() !== null));
  }

  // The save text of the fight: for a file with its board, for a link the log alone (shorter).
  async exportText(withBoard) {
    return (await this.parts.session.call({ op: "export", board: withBoard })).text;
  }

  async openShare(players) {
    const link = await linkFor(await this.exportText(false), players);
    this.share.open(link, players, qrSvg);
  }

  async importFile(file) {
    const { status } = this.parts;
    const read = await readFile(file, TRANSPORT_LIMIT);
    if (read.error === "too_big") status.message(t("fileTooBig", Math.ceil(read.size / 1000), TRANSPORT_LIMIT / 1000));
    else if (read.error) status.message(t("fileUnreadable"));
    else await this.replaceWith(read.text, t("fromFile"), (why) => t("fileRefused", why));
  }

  // The link in the address, if any (at start, and when the fragment changes).
  async openLink() {
    const { status, nav } = this.parts;
    let link;
    try {
      link = await readLink(this.address.hash(), TRANSPORT_LIMIT);
    } catch (error) {
      status.message(t("linkRefused", error.message === "too_big" ? t("linkTooBig") : t("linkDamaged")));
    }
    if (!link) {
      // `#vue=joueurs` alone (docs/TABLE.md): the players' view of the fight on this device.
      if (playersView(this.address.hash())) {
        this.address.clear(); // consumed, as a share link is: the same link opens it again
        nav.go("players");
      }
      return;
    }
    this.address.clear();
    const opened = await this.replaceWith(link.text, t("fromLink"), (why) => t("linkRefused", why));
    if (opened && link.players) nav.go("players");
  }

  watchLinks() {
    this.address.bindChange(() => this.openLink());
  }

  // Open a save from a file or a link: the engine reads it, the user says yes.
  async replaceWith(text, source, why) {
    const { session, status, ask } = this.parts;
    const seen = await session.call({ op: "inspect", text });
    if (!seen.ok) {
      status.message(why(refusal(seen.error)));
      return false;
    }
    const s = seen.summary;
    if (!(await ask.ask(t("confirmTitle"), [t("summary", s.round, s.fighters.map(isolate))], t("confirmReplace"), t("confirmKeep")))) {
      status.message(t("kept"));
      return false;
    }
    const answer = await session.call({ op: "load", text });
    if (!answer.ok) {
      status.message(refusal(answer.error));
      return false;
    }
    status.report(session.take(answer), t("opened", source));
    return true;
  }

  async newFight(party) {
    const { session, status, nav, ask } = this.parts;
    if (!(await ask.ask(t("confirmNewTitle"), [party ? t("newWithParty") : t("newEmpty")], t("confirmNew"), t("cancel")))) return;
    status.report(session.take(await session.call({ op: "new", party })), t("newDone"));
    nav.go("cast");
  }
}
