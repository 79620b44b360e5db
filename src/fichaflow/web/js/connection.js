// One WebSocket to the mesa that comes back by itself: after a reload, a lost network, a
// restarted server, or a close with 1012 (the mesa moved to another server: `server.moved`,
// `server.elsewhere`) it says hello again with the seat's token, and the server's welcome brings
// the whole state back. In a cluster it names the server that holds the mesa (`?node=`, as the
// last join or welcome said), so that the balancer sends it straight there; a stale name costs
// nothing but a hop: whichever server it reaches passes it on to the holder.

import * as session from './session.js';

const RETRY_MS = [300, 700, 1500, 3000, 5000];
const PING_MS = 20000;

export class MesaConnection {
  constructor(code, token, { onMessage, onStatus }) {
    this.code = code;
    this.token = token;
    this.node = session.serverOf(code);
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.attempt = 0;
    this.closedByUs = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.refs = 0;
    this.status = 'connecting';
    window.addEventListener('online', () => this.reconnectNow());
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const node = this.node ? `?node=${encodeURIComponent(this.node)}` : '';
    return `${scheme}://${location.host}/ws${node}`;
  }

  open() {
    this.closedByUs = false;
    this.setStatus(this.attempt ? 'reconnecting' : 'connecting');
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener('open', () => this.hello());
    socket.addEventListener('message', (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === 'welcome') {
        // Only a welcome counts as back: a server that opens the socket and then closes it
        // (1012: the mesa is on another server for now) is asked again later each time.
        this.attempt = 0;
        if (message.node && message.node !== this.node) {
          this.node = message.node;
          session.saveServerOf(this.code, message.node);
        }
        this.setStatus('open');
      }
      this.onMessage(message);
    });
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      clearInterval(this.pingTimer);
      if (this.closedByUs) return;
      this.setStatus('reconnecting');
      const wait = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
      this.attempt += 1;
      this.retryTimer = setTimeout(() => this.open(), wait);
    });
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.send({ type: 'ping' }), PING_MS);
  }

  reconnectNow() {
    if (this.closedByUs || this.status === 'open') return;
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    if (this.socket) this.socket.close();
    this.open();
  }

  setStatus(status) {
    this.status = status;
    this.onStatus(status);
  }

  /** Say hello (again): the server answers with a `welcome`, the whole state. The page
   * rebuilds each move's history from its turns (app.js, viewAfter). */
  hello() {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    const hello = { type: 'hello', code: this.code, token: this.token, turns: true };
    this.socket.send(JSON.stringify(hello));
  }

  /** Send an intention; returns its ``ref`` so that an error can be matched to it. */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return null;
    this.refs += 1;
    const ref = `c${this.refs}`;
    this.socket.send(JSON.stringify({ ...message, ref }));
    return ref;
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.socket) this.socket.close();
  }
}
