"""The rig proved with raw WebRTC (no Riposte yet): two phones in two namespaces, each
behind its own NAT, one RTCPeerConnection each, the descriptions carried by the test.

- Behind two cone NATs, STUN is enough: each phone learns its public address (a server
  reflexive candidate) and the two connect directly.
- Behind a symmetric NAT, STUN is not: the address STUN saw is not the one the far side
  would reach, and ICE fails; with TURN, the phone relays through coturn and connects.
"""

from __future__ import annotations

from typing import Any

import pytest
from rig import PASSWORD, PORT, SERVER, SITE_PORT, USER, Rig

STUN = [{"urls": f"stun:{SERVER}:{PORT}"}]
TURN = [{"urls": f"turn:{SERVER}:{PORT}?transport=udp", "username": USER, "credential": PASSWORD}]

#: One side of the pair: a connection with `servers`, its description once every candidate
#: is gathered (non-trickle, as the live table does), kept in window.pc.

MAKE = """async ({servers, remote}) => {
  const pc = new RTCPeerConnection({iceServers: servers});
  window.pc = pc;
  window.opened = new Promise((resolve) => {
    const ready = (channel) => channel.addEventListener("open", () => resolve(true), {once: true});
    if (remote) pc.addEventListener("datachannel", (e) => ready(e.channel));
    else ready(pc.createDataChannel("rig"));
  });
  if (remote) {
    await pc.setRemoteDescription({type: "offer", sdp: remote});
    await pc.setLocalDescription(await pc.createAnswer());
  } else {
    await pc.setLocalDescription(await pc.createOffer());
  }
  if (pc.iceGatheringState !== "complete") {
    await new Promise((resolve) => pc.addEventListener("icegatheringstatechange",
      () => pc.iceGatheringState === "complete" && resolve()));
  }
  return pc.localDescription.sdp;
}"""

#: Until the pair is connected or has failed: "connected" and the selected pair's local
#: and remote candidate types, or the state it ended in.
OUTCOME = """async () => {
  const pc = window.pc;
  const end = new Promise((resolve) => {
    const seen = () => { if (pc.connectionState === "failed" || pc.connectionState === "closed") resolve(pc.connectionState); };
    pc.addEventListener("connectionstatechange", seen);
    seen();
  });
  const state = await Promise.race([window.opened.then(() => "connected"), end]);
  if (state !== "connected") return {state};
  const stats = await pc.getStats();
  let pair = null;
  stats.forEach((s) => { if (s.type === "transport" && s.selectedCandidatePairId) pair = stats.get(s.selectedCandidatePairId); });
  return {state, local: stats.get(pair.localCandidateId).candidateType, remote: stats.get(pair.remoteCandidateId).candidateType,
          address: stats.get(pair.localCandidateId).address};
}"""


def candidates(sdp: str) -> set[str]:
    """The candidate types a description carries."""
    return {line.split(" typ ")[1].split()[0] for line in sdp.splitlines() if line.startswith("a=candidate:")}


def pair(phone_browser: Any, one: str, other: str, servers: list[dict[str, str]]) -> tuple[dict[str, Any], str, str]:
    """Phones `one` and `other` connect with `servers`: each one's outcome, the offer, the answer."""
    a = phone_browser(one).new_page()
    b = phone_browser(other).new_page()
    offer = a.evaluate(MAKE, {"servers": servers, "remote": None})
    answer = b.evaluate(MAKE, {"servers": servers, "remote": offer})
    a.evaluate("(sdp) => window.pc.setRemoteDescription({type: 'answer', sdp})", answer)
    outcome = a.evaluate(OUTCOME)
    assert b.evaluate(OUTCOME)["state"] == outcome["state"]
    return outcome, offer, answer


def test_the_site_is_served_in_each_phones_namespace_and_mdns_stays_home(rig: Rig, phone_browser: Any) -> None:
    page = phone_browser("c1").new_page()
    page.goto(f"http://127.0.0.1:{SITE_PORT}/manifest.webmanifest")
    assert "Riposte" in page.content()
    # Without a server, a phone offers only its mDNS name, which no other namespace resolves.
    sdp = page.evaluate(MAKE, {"servers": [], "remote": None})
    assert candidates(sdp) == {"host"}
    assert all(".local " in line for line in sdp.splitlines() if line.startswith("a=candidate:"))


def test_two_cone_nats_connect_directly_through_stun(rig: Rig, phone_browser: Any) -> None:
    outcome, offer, answer = pair(phone_browser, "c1", "c2", STUN)
    assert "srflx" in candidates(offer) and "srflx" in candidates(answer)
    assert outcome["state"] == "connected"
    assert "relay" not in (outcome["local"], outcome["remote"])
    assert rig.phones["c1"].public in offer


def test_a_symmetric_nat_does_not_connect_through_stun_alone(rig: Rig, phone_browser: Any) -> None:
    outcome, _, answer = pair(phone_browser, "c1", "c3", STUN)
    assert "srflx" in candidates(answer)  # STUN answered: it is the mapping that differs
    assert outcome["state"] == "failed"


def test_a_symmetric_nat_connects_through_turn(rig: Rig, phone_browser: Any) -> None:
    outcome, _, answer = pair(phone_browser, "c1", "c3", TURN)
    assert "relay" in candidates(answer)
    assert outcome["state"] == "connected"
    assert "relay" in (outcome["local"], outcome["remote"])
    log = rig.log.read_text(errors="replace")
    assert f"username=<{USER}>" in log and "ALLOCATE processed, success" in log
    assert rig.heard_from("c3")


@pytest.mark.parametrize("name", ["c1", "c3"])
def test_stun_sees_the_routers_public_address(rig: Rig, phone_browser: Any, name: str) -> None:
    sdp = phone_browser(name).new_page().evaluate(MAKE, {"servers": STUN, "remote": None})
    reflexive = [line for line in sdp.splitlines() if " typ srflx " in line]
    assert reflexive and all(f" {rig.phones[name].public} " in line for line in reflexive)
