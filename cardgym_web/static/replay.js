// A replay: a record's positions move by move, from any seat or the full table.
"use strict";

(() => {
  const {$, make, json} = cardgym;
  const replayId = decodeURIComponent(window.location.pathname.split("/").pop());
  let total = 0;
  let step = 0;
  let viewer = "full";

  // Each show() takes a ticket; an answer to an older one (overtaken by a newer step or
  // viewer) is dropped, so that the page ends on the last position asked for.
  let asked = 0;

  async function show() {
    const ticket = ++asked;
    try {
      const query = `step=${step}&seat=${encodeURIComponent(viewer)}`;
      const base = `/api/replays/${encodeURIComponent(replayId)}`;
      const message = await json(`${base}?${query}`);
      if (ticket !== asked) return;
      total = message.moves;
      if ($("viewer").options.length === 0) {
        const choices = [["full", "the full table"], ["spectator", "a spectator"]];
        for (let seat = 0; seat < message.num_players; seat += 1) {
          choices.push([String(seat), `player_${seat} (${message.players[seat] || "seat " + seat})`]);
        }
        $("viewer").replaceChildren(...choices.map(([value, text]) => {
          const option = make("option", text);
          option.value = value;
          return option;
        }));
      }
      $("title").textContent = `Replay: ${message.title}, ${message.num_players} players`;
      $("total").textContent = String(total);
      $("step").max = String(total);
      $("step").value = String(step);
      $("move").textContent = message.move === null ? "The start of the game."
        : `Move ${step}: player_${message.move.seat} played ${message.move.action}.`;
      $("status").textContent = message.view.status;
      $("error").textContent = "";
      cardgym.fill($("events"), cardgym.eventLines(message.view));
      await cardgym.picture($("picture"), `${base}/picture?${query}`);
      if (ticket !== asked) return;
      document.body.dataset.step = String(step);
    } catch (error) {
      $("error").textContent = error.message;
    }
  }

  function go(target) {
    step = Math.max(0, Math.min(total, target));
    show();
  }

  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(step - 1));
  $("forward").addEventListener("click", () => go(step + 1));
  $("last").addEventListener("click", () => go(total));
  $("step").addEventListener("change", () => go(Number($("step").value)));
  $("viewer").addEventListener("change", () => { viewer = $("viewer").value; show(); });
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT") return;
    if (event.key === "ArrowRight") go(step + 1);
    if (event.key === "ArrowLeft") go(step - 1);
  });
  show();
})();
