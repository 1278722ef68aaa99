// Minimal GraphQL client for Arbitre's pages: queries over HTTP POST and
// subscriptions over one websocket speaking graphql-transport-ws, which
// reconnects by itself (with backoff) and tells the page so it can catch up.
"use strict";

const Arbitre = window.Arbitre || (window.Arbitre = {});

Arbitre.query = async function (query, variables, token) {
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
};

// Live opens a websocket and keeps it open. subscribe(query, variables,
// onData) registers a subscription that is re-sent after every reconnect;
// onStatus(connected) is called on each change, so the page refetches what
// it may have missed while disconnected.
Arbitre.Live = class {
  constructor(token, onStatus) {
    this.token = token;
    this.onStatus = onStatus || (() => {});
    this.subs = new Map();
    this.nextId = 1;
    this.delay = 250;
    this.open();
  }

  open() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/graphql";
    const ws = new WebSocket(url, "graphql-transport-ws");
    this.ws = ws;
    ws.onopen = () => {
      const payload = this.token ? { Authorization: "Bearer " + this.token } : {};
      ws.send(JSON.stringify({ type: "connection_init", payload }));
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      switch (msg.type) {
        case "connection_ack":
          this.delay = 250;
          for (const [id, s] of this.subs) this.send(id, s);
          this.onStatus(true);
          break;
        case "ping":
          ws.send(JSON.stringify({ type: "pong" }));
          break;
        case "next": {
          const s = this.subs.get(msg.id);
          if (s && msg.payload && msg.payload.data) s.onData(msg.payload.data);
          break;
        }
      }
    };
    ws.onclose = () => {
      this.onStatus(false);
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }

  send(id, s) {
    if (this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ id, type: "subscribe", payload: { query: s.query, variables: s.variables } }));
    }
  }

  subscribe(query, variables, onData) {
    const id = String(this.nextId++);
    const s = { query, variables, onData };
    this.subs.set(id, s);
    this.send(id, s);
    return id;
  }
};

Arbitre.param = function (name) {
  return new URLSearchParams(location.search).get(name);
};
