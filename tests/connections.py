"""What a test page keeps of its WebRTC connections, shared by the browser tests
(tests/browser/live.py) and the NAT rig's (tests/net/distance.py)."""

#: Every RTCPeerConnection a page makes, in ``window.__connections`` (an init script: a test's
#: way to make WebRTC fail on a phone, as a long sleep does, by closing them all).
KEEP_CONNECTIONS = """(() => {
  const Native = window.RTCPeerConnection;
  if (!Native) return;
  window.__connections = [];
  window.RTCPeerConnection = class extends Native {
    constructor(...args) { super(...args); window.__connections.push(this); }
  };
})();"""
