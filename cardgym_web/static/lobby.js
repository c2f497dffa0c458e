// The lobby: open a table, list open tables and records, open a replay.
"use strict";

(() => {
  const {$, make, json, post} = cardgym;
  let catalogue = null;

  function game() {
    return catalogue.games.find((entry) => entry.name === $("game").value);
  }

  function agentChoices() {
    const choices = ["human", "random", "heuristic", "baseline", "ismcts:time=0.5", "ismcts:iterations=200"];
    return choices.concat(catalogue.models.map((name) => `model:${name}`));
  }

  function showPlayers() {
    const counts = game().player_counts;
    $("players").replaceChildren(...counts.map((count) => {
      const option = make("option", String(count));
      option.value = String(count);
      return option;
    }));
    showOptions();
    showSeats();
  }

  function showOptions() {
    const box = $("options");
    box.replaceChildren(make("legend", "Rule options"));
    for (const option of game().options) {
      const label = make("label", `${option.name} `);
      let input;
      if (option.values) {
        input = make("select");
        for (const value of option.values) {
          const item = make("option", JSON.stringify(value));
          item.value = JSON.stringify(value);
          if (JSON.stringify(value) === JSON.stringify(option.default)) item.selected = true;
          input.append(item);
        }
      } else {
        input = make("input");
        input.value = JSON.stringify(option.default);
        if (option.help) input.title = option.help;
      }
      input.dataset.option = option.name;
      input.dataset.default = JSON.stringify(option.default);
      label.append(input);
      box.append(label);
    }
  }

  function showSeats() {
    const box = $("seats");
    box.replaceChildren(make("legend", "Seats"));
    const count = Number($("players").value);
    for (let seat = 0; seat < count; seat += 1) {
      const label = make("label", `player_${seat} `);
      const select = make("select");
      select.dataset.seat = String(seat);
      select.id = `seat-${seat}`;
      for (const choice of agentChoices()) {
        const item = make("option", choice);
        item.value = choice;
        select.append(item);
      }
      select.value = seat === 0 ? "human" : "heuristic";
      label.append(select);
      box.append(label);
    }
  }

  function chosenOptions() {
    const options = {};
    for (const input of document.querySelectorAll("[data-option]")) {
      if (input.value === input.dataset.default) continue;
      try {
        options[input.dataset.option] = JSON.parse(input.value);
      } catch (error) {
        throw new Error(`option ${input.dataset.option}: ${input.value} is not a JSON value`);
      }
    }
    return options;
  }

  async function openTable(event) {
    event.preventDefault();
    $("error").textContent = "";
    try {
      const request = {};
      const position = await cardgym.readJson($("position"));
      if (position) {
        request.position = position;
      } else {
        request.game = $("game").value;
        request.players = Number($("players").value);
        request.options = chosenOptions();
      }
      request.seats = [...document.querySelectorAll("[data-seat]")].map((select) => select.value);
      if (position && position.num_players && request.seats.length !== position.num_players) {
        throw new Error(`the position has ${position.num_players} players: choose that many seats`);
      }
      if ($("seed").value !== "") request.seed = Number($("seed").value);
      const opened = await post("/api/tables", request);
      const list = $("link-list");
      list.replaceChildren();
      for (const [who, link] of Object.entries(opened.links)) {
        const item = make("li");
        const anchor = make("a", who === "spectator" ? "spectator" : `seat ${who} (player_${who})`);
        anchor.href = link;
        anchor.dataset.link = who;
        item.append(anchor);
        list.append(item);
      }
      $("links").hidden = false;
      refresh();
    } catch (error) {
      $("error").textContent = error.message;
    }
  }

  async function refresh() {
    const tables = await json("/api/tables");
    const list = $("tables");
    list.replaceChildren();
    for (const table of tables.tables) {
      const item = make("li");
      const anchor = make("a", `${table.title}, ${table.num_players} players: ${table.seats.join(", ")}` +
                               (table.over ? " (over)" : ""));
      anchor.href = table.link;
      item.append(anchor);
      list.append(item);
    }
    if (!tables.tables.length) list.append(make("li", "none"));
    const records = await json("/api/records");
    const recordList = $("records");
    recordList.replaceChildren();
    for (const name of records.records) {
      const item = make("li");
      const button = make("button", `replay ${name}`);
      button.type = "button";
      button.dataset.record = name;
      button.addEventListener("click", () => openReplay({record: name}));
      item.append(button);
      recordList.append(item);
    }
    if (!records.records.length) recordList.append(make("li", "none"));
  }

  async function openReplay(request) {
    $("error").textContent = "";
    try {
      const opened = await post("/api/replays", request);
      window.location.href = opened.link;
    } catch (error) {
      $("error").textContent = error.message;
    }
  }

  async function start() {
    catalogue = await json("/api/games");
    $("game").replaceChildren(...catalogue.games.map((entry) => {
      const option = make("option", entry.title);
      option.value = entry.name;
      return option;
    }));
    $("game").addEventListener("change", showPlayers);
    $("players").addEventListener("change", showSeats);
    $("new-table").addEventListener("submit", openTable);
    $("upload").addEventListener("change", async () => {
      try {
        const document = await cardgym.readJson($("upload"));
        if (document) openReplay({document});
      } catch (error) {
        $("error").textContent = error.message;
      }
    });
    showPlayers();
    refresh();
    setInterval(refresh, 5000);
  }

  start();
})();
