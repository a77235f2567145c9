// This phone's identity on the live table: one WebRTC certificate, kept in
// IndexedDB across reloads (the spec's key continuity: `RTCPeerConnection.generateCertificate`,
// an `RTCCertificate` is stored as it is). Every connection this page makes uses it, so its
// DTLS fingerprint (which every offer and answer code carries, web/live/signal.js) names this
// phone for as long as the certificate lives: the game master's page recognises a player who
// comes back, and a player's page recognises the game master's after a reload. The DTLS
// handshake proves the far side holds the certificate's key: a relayed code whose
// fingerprint is not the one expected is refused, and one that is cannot be answered by
// anybody else. Where IndexedDB cannot keep it (a private window, a browser that cannot
// store certificates), the page makes one for this visit only: everything works, and a
// reload is then a new phone. No DOM here.
const DB = "riposte-live";
const STORE = "identity";
const KEY = "certificate";
const LIFE = 365 * 24 * 3600_000; // the longest a browser grants
const RENEW = 30 * 24 * 3600_000; // a certificate this close to its end is replaced

let made = null;

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error("blocked"));
  });
}

function read(db) {
  return new Promise((resolve) => {
    const request = db.transaction(STORE).objectStore(STORE).get(KEY);
    request.onsuccess = () => resolve(request.result ?? null);
    request.onerror = () => resolve(null);
  });
}

function write(db, certificate) {
  return new Promise((resolve) => {
    try {
      const tx = db.transaction(STORE, "readwrite");
      tx.objectStore(STORE).put(certificate, KEY);
      tx.oncomplete = () => resolve(true);
      tx.onerror = () => resolve(false);
      tx.onabort = () => resolve(false);
    } catch {
      resolve(false); // DataCloneError: this browser cannot store a certificate
    }
  });
}

function fresh() {
  return RTCPeerConnection.generateCertificate({ name: "ECDSA", namedCurve: "P-256", expires: LIFE });
}

async function load() {
  const db = await open().catch(() => null); // no IndexedDB here: a certificate for this visit
  const stored = db ? await read(db) : null;
  if (stored && stored.expires - Date.now() > RENEW) {
    db.close();
    return { certificate: stored, kept: true };
  }
  const certificate = await fresh();
  const kept = db ? await write(db, certificate) : false;
  db?.close();
  return { certificate, kept };
}

// {certificate, kept}: the same for the page's whole life (one certificate per page);
// `kept` is false when it lasts for this visit only.
export function identity() {
  made ??= load().catch(() => ({ certificate: null, kept: false }));
  return made;
}
