// Entries wait here, in the browser, until the server has stored them. Each carries its own
// idempotency key from the moment it is made, so sending it again (after a lost answer, a
// reload or a network that came back) stores it once.

function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class Outbox {
  constructor(code, report) {
    this.code = code;
    this.report = report; // called with {state} | {error, item} | {offline: bool}
    this.storageKey = `fichaflow-anotador-outbox-${code}`;
    this.items = JSON.parse(localStorage.getItem(this.storageKey) || "[]");
    this.busy = false;
  }

  save() {
    localStorage.setItem(this.storageKey, JSON.stringify(this.items));
  }

  add(action, label) {
    this.items.push({ key: newKey(), action, label });
    this.save();
    return this.flush();
  }

  async flush(lang = "es") {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.items.length) {
        const item = this.items[0];
        let response;
        let data = null;
        try {
          response = await fetch(
            `/api/anotador/mesas/${encodeURIComponent(this.code)}/actions?lang=${lang}`,
            {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify({ key: item.key, action: item.action }),
            },
          );
          data = await response.json();
        } catch {
          this.report({ offline: true });
          return;
        }
        if (response.status >= 500 || !data) {
          this.report({ offline: true });
          return;
        }
        // Stored (or refused for good): only now does it leave the browser.
        this.items.shift();
        this.save();
        if (response.ok) this.report({ state: data, offline: false });
        else this.report({ error: data.error, item, offline: false });
      }
    } finally {
      this.busy = false;
    }
  }
}
