// A table: join a seat (the link's #seat=K&token=T) or watch, show the view, send moves.
"use strict";

(() => {
  const {$, make} = cardgym;
  const tableId = decodeURIComponent(window.location.pathname.split("/").pop());
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const seat = fragment.has("seat") ? Number(fragment.get("seat")) : null;
  const token = fragment.get("token");
  let socket = null;
  let current = null;
  let retries = 0;
  let closed = false;

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function showPicture(message) {
    const query = seat === null ? "" : `seat=${seat}&`;
    const url = `/api/tables/${encodeURIComponent(tableId)}/picture?${query}v=${message.version}`;
    cardgym.picture($("picture"), url, token ? {"X-Seat-Token": token} : {});
  }

  function showMoves(message) {
    const box = $("moves");
    const view = message.view;
    box.replaceChildren();
    if (view.over) {
      box.append(make("p", "The game is over."));
    } else if (message.seat === null || message.out) {
      box.append(make("p", message.out ? "You are out; the others play on." : "You are watching."));
    } else if (!view.legal_moves.length) {
      box.append(make("p", `Waiting for ${view.to_act}.`, "waiting"));
    } else {
      for (const move of view.legal_moves) {
        const button = make("button", move.label, "move");
        button.type = "button";
        button.dataset.action = String(move.action);
        button.dataset.name = move.name;
        button.addEventListener("click", () => {
          for (const other of box.querySelectorAll("button")) other.disabled = true;
          send({type: "move", action: move.action, version: message.version});
        });
        box.append(button);
      }
    }
  }

  function showResult(message) {
    const view = message.view;
    $("result-box").hidden = !view.over;
    if (!view.over || !view.result) return;
    const winners = view.result.winners.map((agent) => {
      const entry = view.seats.find((item) => item.agent === agent);
      return entry ? entry.label : agent;
    });
    $("result").textContent = winners.length ? `Winners: ${winners.join(", ")}.` : "Nobody wins.";
    if (message.record && !$("replay-link").dataset.record) {
      $("replay-link").dataset.record = message.record;
      cardgym.post("/api/replays", {record: message.record}).then((opened) => {
        $("replay-link").href = opened.link;
        $("replay-link").hidden = false;
      }).catch(() => {});
    }
  }

  function show(message) {
    current = message;
    const view = message.view;
    document.title = `${view.title} - cardgym`;
    $("title").textContent = view.title;
    $("who").textContent = message.seat === null ? "watching (public information only)"
      : `you are ${view.viewer}`;
    $("status").textContent = view.status;
    $("error").textContent = "";
    cardgym.fill($("events"), cardgym.eventLines(view));
    $("seats").replaceChildren(...message.seats.map((entry) =>
      make("li", `${entry.agent}: ${entry.player}`)));
    showMoves(message);
    showResult(message);
    showPicture(message);
    document.body.dataset.version = String(message.version);
    document.body.dataset.over = String(view.over);
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${window.location.host}/ws/tables/${encodeURIComponent(tableId)}`);
    $("connection").textContent = "connecting";
    socket.addEventListener("open", () => {
      $("connection").textContent = "connected";
      send({type: "join", seat, token});
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "view") {
        // Joined: a later drop reconnects soon. (Counted from here, not from "open": a
        // server full of websockets opens one, says so and closes it, and the page then
        // waits longer before each new try.)
        retries = 0;
        // A view older than the one shown (a push overtaken by a newer one) is dropped.
        if (current && message.version < current.version) return;
        show(message);
      } else if (message.type === "error") {
        $("error").textContent = message.message;
        if (current) showMoves(current);
        if (["bad_token", "bad_seat", "no_table"].includes(message.code)) closed = true;
      } else if (message.type === "closed") {
        closed = true;
        $("error").textContent = message.message;
      }
    });
    socket.addEventListener("close", () => {
      $("connection").textContent = "disconnected";
      if (closed) return;
      retries += 1;
      setTimeout(connect, Math.min(500 * retries, 5000));
    });
  }

  connect();
})();
