"""A small internet on this machine, for the live table at a distance: network namespaces
joined by veth pairs, a "public" network with coturn on it (STUN and TURN), and phones each
behind a home router of its own that translates addresses with nftables.

::

        rip9pub: bridge 203.0.113.1/24, coturn on 203.0.113.1:3478 (UDP)
           |                    |                     |
     rip9r1 (cone)        rip9r2 (cone)        rip9r3 (symmetric)     routers: WAN 203.0.113.1x
           |                    |                     |
     rip9c1 10.9.1.2      rip9c2 10.9.2.2      rip9c3 10.9.3.2        phones: their own LAN

A cone router masquerades with Linux's default mapping: a phone's UDP port keeps its
public port whatever the destination (endpoint-independent mapping), and a packet gets in
only from an address and port the phone sent to (conntrack's filtering): hole punching
through two of them works once each side has learnt the other's public address from STUN.
A packet from outside that starts nothing the phone began is dropped at the router's door
(as a home router's firewall does) before conntrack keeps it: kept, it would hold the
public port the phone's own packet to that sender needs, and Linux would map that one to
another port. A symmetric router masquerades ``fully-random``: every new destination gets a new public
port, so the address STUN saw is not the one the far side would have to reach, and only a
relay (TURN) joins such a phone to one behind another router.

A phone's browser is Chromium run inside its namespace (``ip netns exec``) and driven by
Playwright through the launch pipe, which the namespace does not cut (``browser_in``). Each
phone serves the built site on its own loopback (127.0.0.1:8609, a secure context, as the
real site's HTTPS is): the site is reachable from every phone with no route out. The
namespaces see no multicast from each other, so Chromium's mDNS host candidates (its
``….local`` names) never resolve across: only STUN's and TURN's candidates can join two phones.

Everything made here is named ``rip9…`` and removed by ``Rig.down`` (also after a failure,
and at the start when a run before was killed): the namespaces with their veths, bridge and
nft tables, then the processes started. Needs root, ``ip``, ``nft`` and ``turnserver``
(Debian's iproute2, nftables and coturn): ``missing()`` says what is not there.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "_site-test"  # the test build: the page's test hooks compiled in (web/infra/hooks.js)
#: What every name the rig makes starts with: ``rip9``, or ``$RIPOSTE_NET_PREFIX`` (four
#: letters or digits, so that two rigs can run side by side on one machine).
PREFIX = os.environ.get("RIPOSTE_NET_PREFIX", "rip9")
assert len(PREFIX) == 4 and PREFIX.isalnum() and PREFIX.isascii(), "RIPOSTE_NET_PREFIX: four letters or digits"
PUBLIC = f"{PREFIX}pub"
#: coturn's address on the public network, and its STUN/TURN port (UDP).
SERVER = "203.0.113.1"
PORT = 3478
#: The site's port on each phone's loopback.
SITE_PORT = 8609
#: TURN's static user (coturn's long-term credentials).
USER = "riposte"
PASSWORD = "table-a-distance"
REALM = "riposte.test"
#: The phones: name → the kind of their router's NAT.
PHONES = {"c1": "cone", "c2": "cone", "c3": "symmetric"}


def missing() -> str | None:
    """Why the rig cannot be built here, or None."""
    if os.geteuid() != 0:
        return "needs root and ip netns: network namespaces, veths and nftables NAT are root's"
    for tool, package in (("ip", "iproute2"), ("nft", "nftables"), ("turnserver", "coturn")):
        if shutil.which(tool) is None:
            return f"needs {tool} (Debian's {package}) for the NAT rig"
    return None


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, check=check, capture_output=True, text=True)


def within(ns: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return run("ip", "netns", "exec", ns, *args, check=check)


def until(condition: Callable[[], bool], what: str, timeout: float = 20) -> None:
    """Until ``condition()`` holds, polled; fails saying ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        time.sleep(0.05)


def namespaces() -> list[str]:
    return [line.split()[0] for line in run("ip", "netns", "list").stdout.splitlines() if line.strip()]


@dataclass
class Phone:
    """A phone of the rig: its namespace, its router's, the NAT kind, addresses."""

    name: str
    nat: str
    index: int

    @property
    def ns(self) -> str:
        return f"{PREFIX}{self.name}"

    @property
    def router(self) -> str:
        return f"{PREFIX}r{self.index}"

    @property
    def public(self) -> str:
        """The router's public address: what STUN sees of this phone."""
        return f"203.0.113.{10 + self.index}"

    @property
    def address(self) -> str:
        return f"10.9.{self.index}.2"


@dataclass
class Rig:
    """The namespaces, coturn and the phones' site servers; ``up()`` then ``down()``."""

    tmp: Path
    phones: dict[str, Phone] = field(default_factory=dict)
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def log(self) -> Path:
        """coturn's log."""
        return self.tmp / "turnserver.log"

    def up(self) -> Rig:
        self.down()  # what a killed run left
        try:
            self._network()
            self._coturn()
            for phone in self.phones.values():
                self._site(phone)
        except BaseException:
            self.down()
            raise
        return self

    def _network(self) -> None:
        run("ip", "netns", "add", PUBLIC)
        within(PUBLIC, "ip", "link", "set", "lo", "up")
        within(PUBLIC, "ip", "link", "add", f"{PREFIX}br", "type", "bridge")
        within(PUBLIC, "ip", "addr", "add", f"{SERVER}/24", "dev", f"{PREFIX}br")
        within(PUBLIC, "ip", "link", "set", f"{PREFIX}br", "up")
        # Counters of what reaches coturn's address (STUN, TURN, its relay ports) from each
        # router: the proof that a phone whose user did not agree sent nothing there
        # (``Rig.reached``).
        rules = [f"table inet {PREFIX}seen {{", "  chain input {", "    type filter hook input priority 0; policy accept;"]
        for index, (name, nat) in enumerate(PHONES.items(), start=1):
            phone = Phone(name, nat, index)
            self.phones[name] = phone
            rules.append(f"    ip saddr {phone.public} ip daddr {SERVER} counter comment \"{name}\"")
        rules += ["  }", "}"]
        self._nft(PUBLIC, "\n".join(rules))
        for phone in self.phones.values():
            self._home(phone)

    def _home(self, phone: Phone) -> None:
        """A phone behind its router: WAN on the public bridge, LAN to the phone, NAT."""
        i = phone.index
        for ns in (phone.router, phone.ns):
            run("ip", "netns", "add", ns)
            within(ns, "ip", "link", "set", "lo", "up")
        wan, up = f"{PREFIX}w{i}", f"{PREFIX}u{i}"
        lan, eth = f"{PREFIX}l{i}", f"{PREFIX}e{i}"
        within(phone.router, "ip", "link", "add", wan, "type", "veth", "peer", "name", up, "netns", PUBLIC)
        within(PUBLIC, "ip", "link", "set", up, "master", f"{PREFIX}br", "up")
        within(phone.router, "ip", "link", "add", lan, "type", "veth", "peer", "name", eth, "netns", phone.ns)
        within(phone.router, "ip", "addr", "add", f"{phone.public}/24", "dev", wan)
        within(phone.router, "ip", "addr", "add", f"10.9.{i}.1/24", "dev", lan)
        within(phone.router, "ip", "link", "set", wan, "up")
        within(phone.router, "ip", "link", "set", lan, "up")
        within(phone.router, "sysctl", "-qw", "net.ipv4.ip_forward=1")
        within(phone.ns, "ip", "addr", "add", f"{phone.address}/24", "dev", eth)
        within(phone.ns, "ip", "link", "set", eth, "up")
        within(phone.ns, "ip", "route", "add", "default", "via", f"10.9.{i}.1")
        # IPv4 only: no link-local IPv6 candidate beside the ones the NAT makes.
        within(phone.ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
        mapping = "masquerade fully-random" if phone.nat == "symmetric" else "masquerade"
        self._nft(phone.router, f"""table ip {PREFIX}nat {{
  chain post {{
    type nat hook postrouting priority srcnat; policy accept;
    oifname "{wan}" {mapping}
  }}
  chain input {{
    type filter hook input priority filter; policy accept;
    iifname "{wan}" ct state new drop
  }}
}}""")

    def _nft(self, ns: str, rules: str) -> None:
        path = self.tmp / f"{ns}.nft"
        path.write_text(rules + "\n", encoding="utf-8")
        within(ns, "nft", "-f", str(path))

    def _coturn(self) -> None:
        """coturn (Debian's), STUN and TURN with one static user, on the public side only,
        logging every request (``log-binding``: STUN's binding requests too); its pid file
        and user database in the rig's folder, not the system's."""
        config = self.tmp / "turnserver.conf"
        config.write_text("\n".join([
            f"listening-ip={SERVER}", f"relay-ip={SERVER}", f"listening-port={PORT}",
            "min-port=49152", "max-port=49999",
            "fingerprint", "lt-cred-mech", f"user={USER}:{PASSWORD}", f"realm={REALM}",
            "no-tls", "no-dtls", "no-cli", "no-tcp-relay", "no-multicast-peers",
            "verbose", "log-binding", "simple-log", f"log-file={self.log}",
            f"pidfile={self.tmp / 'turnserver.pid'}", f"userdb={self.tmp / 'turndb'}", "",
        ]), encoding="utf-8")
        self.log.touch()
        process = subprocess.Popen(["ip", "netns", "exec", PUBLIC, "turnserver", "-c", str(config)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.processes.append(process)
        until(lambda: f"UDP listener opened on: {SERVER}:{PORT}" in self.log.read_text(errors="replace")
              or process.poll() is not None, "coturn listening")
        assert process.poll() is None, f"coturn stopped: {self.log.read_text(errors='replace')[-2000:]}"

    def _site(self, phone: Phone) -> None:
        """The built site on the phone's loopback; said ready once its socket is bound."""
        process = subprocess.Popen(["ip", "netns", "exec", phone.ns, sys.executable, "-u", str(ROOT / "tools" / "serve.py"),
                                    "--port", str(SITE_PORT), "--dir", str(SITE)],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.processes.append(process)
        assert process.stdout is not None
        assert process.stdout.readline().startswith(b"Riposte:"), f"no site served in {phone.ns}"

    def browser_command(self, phone: Phone, chromium: str) -> Path:
        """An executable that runs ``chromium`` inside the phone's namespace, for
        Playwright's ``executable_path`` (the pipe it talks through goes along)."""
        path = self.tmp / f"chromium-{phone.name}"
        path.write_text(f'#!/bin/sh\nexec ip netns exec {phone.ns} "{chromium}" "$@"\n', encoding="utf-8")
        path.chmod(0o755)
        return path

    def browser(self, playwright: Any, name: str, chromium: str, flags: list[str]) -> Any:
        """A Chromium launched with ``flags`` in phone ``name``'s namespace, driven by
        ``playwright`` (its sync API)."""
        return playwright.chromium.launch(executable_path=str(self.browser_command(self.phones[name], chromium)), args=flags)

    def reached(self) -> dict[str, int]:
        """How many packets each phone's router sent to coturn's address so far."""
        out = within(PUBLIC, "nft", "list", "table", "inet", f"{PREFIX}seen").stdout
        counts = {}
        for line in out.splitlines():
            if "counter packets" in line and 'comment "' in line:
                name = line.split('comment "')[1].split('"')[0]
                counts[name] = int(line.split("counter packets")[1].split()[0])
        return counts

    def heard_from(self, name: str) -> list[str]:
        """The lines of coturn's log that name phone ``name``'s public address (a STUN or
        TURN request from it opens a « UDP endpoint » there)."""
        public = f"remote addr {self.phones[name].public}:"
        return [line for line in self.log.read_text(errors="replace").splitlines() if public in line]

    def down(self) -> None:
        """Everything the rig made, gone: the processes it started (by their ids), then
        every ``rip9…`` namespace (their veths, bridge and nft tables go with them)."""
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        self.processes.clear()
        for ns in namespaces():
            if ns.startswith(PREFIX):
                # What still runs there is a killed run's (its coturn, a site, a browser).
                for pid in run("ip", "netns", "pids", ns, check=False).stdout.split():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(int(pid), signal.SIGKILL)
                run("ip", "netns", "del", ns, check=False)
