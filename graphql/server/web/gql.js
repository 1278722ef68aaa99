// Minimal GraphQL client for Arbitre's pages: queries over HTTP POST and
// subscriptions over one websocket speaking graphql-transport-ws, which
// reconnects by itself (with backoff) and tells the page so it can catch up.

export async function query(query, variables, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  const resp = await fetch("/graphql", { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  const body = await resp.json();
  if (body.errors && body.errors.length) {
    const e = new Error(body.errors[0].message);
    e.code = body.errors[0].extensions && body.errors[0].extensions.code;
    throw e;
  }
  return body.data;
}

// derniere wraps a read the page asks again at each change: only the
// outcome of the last read asked is handed on; an older answer landing
// after it resolves to undefined, an older error is dropped the same way
// (shown, it would put the page back to the state before the newer change,
// and nothing would ask again). perimer() makes every read on its way
// stale, for a change that asks again later (typing not yet paused).
export function derniere(lire) {
  let n = 0;
  const derniereLecture = async (...args) => {
    const moi = ++n;
    try {
      const d = await lire(...args);
      return moi === n ? d : undefined;
    } catch (e) {
      if (moi === n) throw e;
      return undefined;
    }
  };
  derniereLecture.perimer = () => { n++; };
  return derniereLecture;
}

// Live opens a websocket and keeps it open. subscribe(query, variables,
// onData, onError) registers a subscription that is re-sent after every
// reconnect (the server answers each subscription with the current state
// first, so the page catches up by itself); onStatus(connected) is called on
// each change. A connection that stays silent is closed and reopened: the
// client pings every PING ms and gives up after SILENCE ms without a word
// (a network cut leaves a socket open but dead). A subscription the server
// ends or refuses is asked again after a while.
export class Live {
  constructor(token, onStatus) {
    this.token = token;
    this.onStatus = onStatus || (() => {});
    this.subs = new Map();
    this.nextId = 1;
    this.delay = 250;
    this.connected = false;
    this.open();
    setInterval(() => this.watch(), Live.PING);
  }

  open() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/graphql";
    const ws = new WebSocket(url, "graphql-transport-ws");
    this.ws = ws;
    this.heard = Date.now();
    ws.onopen = () => {
      const payload = this.token ? { Authorization: "Bearer " + this.token } : {};
      ws.send(JSON.stringify({ type: "connection_init", payload }));
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      this.heard = Date.now();
      const msg = JSON.parse(ev.data);
      const s = msg.id && this.subs.get(msg.id);
      switch (msg.type) {
        case "connection_ack":
          this.delay = 250;
          for (const [id, sub] of this.subs) this.send(id, sub);
          this.status(true);
          break;
        case "ping":
          ws.send(JSON.stringify({ type: "pong" }));
          break;
        case "next":
          if (s && msg.payload && msg.payload.errors && msg.payload.errors.length) {
            s.onError(msg.payload.errors[0]);
          } else if (s && msg.payload && msg.payload.data) {
            s.onData(msg.payload.data);
          }
          break;
        case "error":
          if (s) {
            s.onError((msg.payload && msg.payload[0]) || { message: "erreur" });
            this.again(msg.id, 5000);
          }
          break;
        case "complete":
          if (s) this.again(msg.id, 1000);
          break;
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.status(false);
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }

  status(connected) {
    if (connected === this.connected) return;
    this.connected = connected;
    this.onStatus(connected);
  }

  // watch pings the server and drops a connection that has gone silent.
  watch() {
    const ws = this.ws;
    if (ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.heard > Live.SILENCE) {
      ws.onclose = null;
      ws.close();
      this.status(false);
      this.open();
      return;
    }
    ws.send(JSON.stringify({ type: "ping" }));
  }

  // again re-sends a subscription the server ended, unless the page dropped it.
  again(id, ms) {
    const ws = this.ws;
    setTimeout(() => {
      const s = this.subs.get(id);
      if (s && this.ws === ws) this.send(id, s);
    }, ms);
  }

  send(id, s) {
    if (this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ id, type: "subscribe", payload: { query: s.query, variables: s.variables } }));
    }
  }

  subscribe(query, variables, onData, onError) {
    const id = String(this.nextId++);
    const s = { query, variables, onData, onError: onError || ((e) => console.warn(e.message)) };
    this.subs.set(id, s);
    this.send(id, s);
    return id;
  }
}
Live.PING = 10000;
Live.SILENCE = 25000;

export function param(name) {
  return new URLSearchParams(location.search).get(name);
}

// ligne builds a table row; cells are [value, numeric] pairs.
export function ligne(cells) {
  const tr = document.createElement("tr");
  for (const [v, num] of cells) {
    const td = document.createElement("td");
    td.textContent = v;
    if (num) td.className = "num";
    tr.appendChild(td);
  }
  return tr;
}

// Pager shows rows page by page in a tbody, turning every period.
export class Pager {
  constructor(tbody, legend, perPage, period) {
    this.tbody = tbody;
    this.legend = legend;
    this.perPage = perPage;
    this.rows = [];
    this.page = 0;
    setInterval(() => { this.page++; this.show(); }, period);
  }

  set(rows) {
    this.rows = rows;
    this.show();
  }

  show() {
    const pages = Math.max(1, Math.ceil(this.rows.length / this.perPage));
    if (this.page >= pages) this.page = 0;
    this.tbody.replaceChildren(...this.rows.slice(this.page * this.perPage, (this.page + 1) * this.perPage));
    this.legend.textContent = this.rows.length ? `page ${this.page + 1}/${pages} — ${this.rows.length} joueurs` : "";
  }
}

// sourceTirage is what every page showing a game says of its letters: the
// juge-arbitre draws them unless the director chose the software (guide
// §2.1), which is shown, with its test seed when it has one.
// lexiqueTexte names the word list a game is judged with (Partie.lexique),
// on every page of the game, as DupliTop shows it on each.
export function lexiqueTexte(lexique) {
  return lexique ? "lexique " + lexique : "";
}

export function sourceTirage(config) {
  if (!config || config.source !== "logiciel") return "";
  return config.graineTest ? "tirage par logiciel (graine de test)" : "tirage par logiciel";
}
