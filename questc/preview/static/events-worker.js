// questc preview: one event stream for every tab of the page in this browser.
// A browser opens at most six connections to one server; an EventSource per tab held one
// each, so a sixth tab froze them all and a seventh never loaded. The tabs connect to this
// shared worker instead, and it alone listens to /events and passes each event on.
"use strict";
const ports = new Set();
const last = new Map();   // the last event of each kind, for a tab that connects later
let source = null;

function broadcast(message) {
  for (const port of ports) port.postMessage(message);
}

function listen() {
  source = new EventSource("/events");
  for (const type of ["state", "cursor"]) {
    source.addEventListener(type, (evt) => {
      const message = { type, data: evt.data };
      last.set(type, message);
      broadcast(message);
    });
  }
  source.onopen = () => broadcast({ type: "open" });
  source.onerror = () => broadcast({ type: "error" });
}

self.onconnect = (evt) => {
  const port = evt.ports[0];
  ports.add(port);
  port.onmessage = (msg) => {
    if (msg.data === "close") ports.delete(port);   // the tab is going away
  };
  port.start();
  if (!source) listen();
  else if (source.readyState === EventSource.OPEN) port.postMessage({ type: "open" });
  for (const message of last.values()) port.postMessage(message);
};
