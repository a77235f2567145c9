"""« Inviter à distance »: a player at home paired through the group's chat, with no
server of ours (web/live/remote.js, docs/LIVE-TABLE.md). The game master's page makes an
invitation link for the chat; the player's page makes a reply link at once; the game
master opens it in a new tab of the same browser (handed to the game master's tab) or
pastes it, words of the chat around it, and the player's page follows. Minutes or hours
between the two halves: the invitation waits for an evening (the game master's clock
driven on), and a player's page whose connection gave up meanwhile makes its side again
with the same credentials, so that its reply link still pairs. A Firefox player answering
two minutes before the game master pastes: tests/webkit_firefox/remote-firefox.test.mjs."""

from __future__ import annotations

import re
from typing import Any

from conftest import NewPhone, Shot, Watched, wait_ready
from live import KEEP_CONNECTIONS, connected, invite, join, no_engine
from playwright.sync_api import expect

REPLY = re.compile(r"#reponse=[A-Za-z0-9_-]{100,}$")


def invite_remote(gm: Any) -> str:
    """The game master taps « Inviter à distance »: the invitation link for the chat."""
    if gm.locator("#invite-dialog").is_visible():
        gm.locator("#invite-dialog").get_by_role("button", name="Fermer").click()
    if not gm.locator("#screen-menu").is_visible():
        gm.get_by_role("button", name="Partie").click()
    gm.locator("#live-invite-remote").click()
    field = gm.locator("#invite-link")
    expect(field).to_have_value(re.compile(r"#table=[A-Za-z0-9_-]+&loin=1$"))
    return str(field.input_value())


def reply_of(new_phone: NewPhone, link: str) -> tuple[Watched, str]:
    """A player at home opens the chat's link: their page, and the reply link it made."""
    player = new_phone(link, ready=False, init_script=KEEP_CONNECTIONS)
    page = player.page
    expect(page.locator("#live-state")).to_have_text("Envoyez ce lien de réponse au MJ")
    expect(page.locator("#live-answer-link")).to_have_value(REPLY)
    expect(page.locator("#live-answer-link-copy")).to_be_visible()
    expect(page.locator("#live-answer-qr")).to_be_hidden()  # nothing to scan: a chat between homes
    return player, str(page.locator("#live-answer-link").input_value())


def test_a_player_at_home_replies_by_a_link_opened_in_a_new_tab_or_pasted(fight: Watched, new_phone: NewPhone,
                                                                         site_url: str, shot: Shot) -> None:
    gm = fight.page
    link = invite_remote(gm)
    dialog = gm.locator("#invite-dialog")
    expect(dialog.get_by_role("heading")).to_have_text("Inviter à distance")
    expect(dialog).to_contain_text("envoyez ce lien dans la conversation du groupe")
    expect(gm.locator("#invite-qr")).to_be_hidden()
    expect(gm.locator("#invite-scan")).to_be_hidden()
    shot(gm, "screenshot-live-remote-invite.png")
    first, reply = reply_of(new_phone, link)
    shot(first.page, "screenshot-live-remote-reply.png")
    print(f"chat invitation link: {len(link)} characters; reply link: {len(reply)} characters")
    assert len(link) < 400 and len(reply) < 400, (link, reply)

    # The reply opened in a new tab of the game master's browser: handed to the game
    # master's tab, which pairs; the new tab says so.
    opened = Watched(gm.context.new_page(), site_url.rstrip("/"))
    opened.page.goto(reply, wait_until="domcontentloaded")
    expect(opened.page.locator("#live-state")).to_have_text("Réponse transmise : revenez à l'onglet de Riposte.")
    connected(first)
    expect(gm.locator("#live-players")).to_contain_text("Joueur 1 — connecté")
    expect(opened.page.locator("html")).not_to_have_attribute("data-engine", "ready")

    # A second player: the reply link pasted with the chat's words around it.
    gm.bring_to_front()
    link = invite_remote(gm)
    second, reply = reply_of(new_phone, link)
    # Nothing pasted yet: said so (not « abîmé »), and nothing changes.
    gm.locator("#invite-answer").fill("  ")
    gm.locator("#invite-dialog").get_by_role("button", name="Valider la réponse").click()
    expect(gm.locator("#invite-status")).to_have_text(re.compile("^Rien à valider : collez d'abord le lien"))
    # The invitation pasted back by mistake: said, and nothing changes.
    gm.locator("#invite-answer").fill(link)
    gm.locator("#invite-dialog").get_by_role("button", name="Valider la réponse").click()
    expect(gm.locator("#invite-status")).to_have_text(re.compile("^C'est un code d'invitation, pas la réponse d'un joueur"))
    expect(gm.locator("#live-players li")).to_have_count(1)
    gm.locator("#invite-answer").fill(f"Voilà mon lien : {reply}\nà tout de suite !")
    gm.locator("#invite-dialog").get_by_role("button", name="Valider la réponse").click()
    connected(second)
    expect(gm.locator("#live-players li")).to_have_count(2)
    second.page.get_by_role("button", name="Je joue Aldric").click()
    expect(second.page.locator("#live-mine-name")).to_have_text("Vous jouez Aldric.")
    for player in (first, second):
        no_engine(player)
    for watched in (opened, first, second, fight):
        watched.assert_clean()


def test_an_invitation_for_the_chat_waits_the_evening_and_a_player_page_that_gave_up_waits_on(
        fight: Watched, new_phone: NewPhone) -> None:
    gm = fight.page
    gm.clock.install()
    at_table = join(new_phone, invite(gm))
    expect(at_table.page.locator("#live-state")).to_have_text("Montrez ce code au MJ")
    table_code = at_table.page.locator("#live-answer").input_value()
    gm.locator("#invite-dialog").get_by_role("button", name="Fermer").click()
    player, reply = reply_of(new_phone, invite_remote(gm))
    # The player's connection gives up before the game master takes the reply (as ICE's
    # checks do after long enough; Firefox ends them): the page waits on, its side made
    # again with the reply's credentials.
    page = player.page
    made = page.evaluate("window.__connections.length")
    # (pc.close() fires no event of its own: the page is told as WebRTC tells it.)
    page.evaluate("""window.__connections.forEach((pc) => {
      pc.close();
      pc.dispatchEvent(new Event("connectionstatechange"));
    })""")
    page.wait_for_function(f"window.__connections.length > {made}")
    expect(page.locator("#live-state")).to_have_text("Envoyez ce lien de réponse au MJ")
    # Hours later in the game master's time: an invitation at the table (15 minutes) is
    # spent, the chat's is not.
    gm.clock.fast_forward("07:59:00")
    gm.locator("#invite-answer").fill(table_code)
    gm.locator("#invite-take").click()
    expect(gm.locator("#invite-status")).to_contain_text("ne correspond à aucune invitation en cours")
    gm.locator("#invite-answer").fill(reply)
    gm.locator("#invite-take").click()
    connected(player)
    expect(gm.locator("#live-players li")).to_have_count(1)
    for watched in (at_table, player, fight):
        watched.assert_clean()


def test_a_reply_that_comes_after_the_game_masters_page_reloaded_still_pairs(fight: Watched, new_phone: NewPhone,
                                                                           site_url: str) -> None:
    gm = fight.page
    player, reply = reply_of(new_phone, invite_remote(gm))
    # The game master's phone closed the tab while its player was in the chat app: the page
    # reloads, its waiting connection gone; the invitation's credentials were kept.
    gm.reload()
    wait_ready(gm)
    opened = Watched(gm.context.new_page(), site_url.rstrip("/"))
    opened.page.goto(reply, wait_until="domcontentloaded")
    expect(opened.page.locator("#live-state")).to_have_text("Réponse transmise : revenez à l'onglet de Riposte.")
    connected(player)
    expect(gm.locator("#live-players")).to_contain_text("Joueur 1 — connecté")
    # Single-use, after a reload too.
    again = Watched(gm.context.new_page(), site_url.rstrip("/"))
    again.page.goto(reply, wait_until="domcontentloaded")
    expect(again.page.locator("#live-state")).to_contain_text("Aucun onglet de Riposte n'attend cette réponse")
    for watched in (opened, again, player, fight):
        watched.assert_clean()
