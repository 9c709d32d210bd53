// fray serve: the pages' small script. Commands go up as POSTs to the JSON API; the board is
// refreshed from the server whenever its server-sent events announce a new version, or the odds
// of the decision it shows.
"use strict";
(function () {
  // The new-fight form: a chosen file is read into the scenario field (nothing is uploaded
  // until the form is sent).
  const upload = document.getElementById("upload");
  if (upload) {
    upload.addEventListener("change", async () => {
      const file = upload.files[0];
      if (!file) return;
      upload.form.elements.scenario.value = await file.text();
      upload.form.elements.example.value = "";
    });
  }
  const board = document.getElementById("board");
  if (!board) return;
  const message = document.getElementById("message");
  const say = (text) => { if (message) message.textContent = text; };
  const version = () => Number(board.querySelector("[data-version]").dataset.version);

  let shown = null;
  // A newcomer just joined: its stat block is not kept, the form starts afresh.
  let joined = false;
  // Boards asked for and the last one drawn, in the order asked: the server's fight only moves
  // on, so an answer to an older request never replaces a newer one.
  let asked = 0;
  let drawn = 0;
  async function refresh() {
    const ask = ++asked;
    const response = await fetch(board.dataset.board, { credentials: "same-origin" });
    if (!response.ok) return;
    const html = await response.text();
    if (ask < drawn) return;
    drawn = ask;
    // The same board again (the answer and the event both ask): keep the page as it is.
    if (html === shown) return;
    shown = html;
    const active = document.activeElement && document.activeElement.name;
    // What the GM is typing in an adjustment form (or a newcomer's stat block) outlives the new board (the odds of a decision
    // arrive a moment after it, and redraw the page).
    const key = (form, field) => `${form.dataset.who}\u0000${field.name}`;
    const typed = new Map();
    let focused = null;
    const forms = "form.adjust, form.join";
    const joinOpen = board.querySelector("details#join")?.open;
    for (const form of board.querySelectorAll(forms)) {
      for (const field of form.elements) {
        if (!field.name) continue;
        typed.set(key(form, field), field.value);
        if (field === document.activeElement) focused = key(form, field);
      }
    }
    board.innerHTML = html;
    const join = board.querySelector("details#join");
    if (join && joinOpen) join.open = true;
    for (const form of board.querySelectorAll(forms)) {
      if (joined && form.classList.contains("join")) continue;
      for (const field of form.elements) {
        if (!field.name || !typed.has(key(form, field))) continue;
        field.value = typed.get(key(form, field));
        if (key(form, field) === focused) field.focus();
      }
    }
    joined = false;
    const faces = board.querySelector("input[name=faces]");
    if (faces && !focused && (active === "faces" || !active)) faces.focus();
  }

  async function send(command) {
    if (!board.dataset.api) return;
    const response = await fetch(board.dataset.api, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ version: version(), command }),
    });
    let error = null;
    if (response.ok) {
      say("");
      joined = Boolean(command.join);
    } else {
      const body = await response.json().catch(() => ({ error: response.statusText }));
      error = body.error;
      say(error);
    }
    await refresh();
    return error;
  }

  async function setting(url, body) {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body,
    });
    if (!response.ok) say((await response.json().catch(() => ({ error: response.statusText }))).error);
    await refresh();
  }

  board.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-command]");
    if (!button) return;
    event.preventDefault();
    button.disabled = true;
    send(JSON.parse(button.dataset.command));
  });

  board.addEventListener("change", (event) => {
    const box = event.target.closest("input[type=checkbox][data-on]");
    if (!box) return;
    const body = box.checked ? box.dataset.on : box.dataset.off;
    if (box.dataset.url) setting(box.dataset.url, body);
    else send(JSON.parse(body));
  });

  board.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-kind]");
    if (!form) return;
    event.preventDefault();
    if (form.dataset.kind === "dice") {
      const text = form.elements.faces.value;
      const faces = text.split(/[^0-9]+/).filter((s) => s !== "").map(Number);
      if (faces.length === 0) return say("Type the faces, e.g. 3 5 6.");
      send({ dice: faces });
    } else if (form.dataset.kind === "adjust") {
      // `namedItem`: `elements.item` is the collection's own method.
      const field = (name) => { const input = form.elements.namedItem(name); return input ? input.value : ""; };
      const set = { who: form.dataset.who, field: field("field"), value: Number(field("value")) };
      const item = field("item").trim();
      if (item !== "") set.item = item;
      send({ adjust: { set } });
    } else if (form.dataset.kind === "join") {
      // A refusal is shown under the stat block too, where the GM is looking.
      send({ join: { stats: form.elements.namedItem("stats").value } }).then((error) => {
        const shown = board.querySelector("form.join .error");
        if (shown) shown.textContent = error || "";
      });
    } else if (form.dataset.kind === "end") {
      const winner = form.elements.winner.value;
      send({ end: { winner: winner === "" ? null : winner } });
    }
  });

  if (board.dataset.events && window.EventSource) {
    const events = new EventSource(board.dataset.events);
    // Each event says the fight changed (a command, or a setting): look again.
    events.onmessage = () => refresh();
    // The odds of the decision at a version are in: a page at that version (or still fetching
    // it) looks again.
    events.addEventListener("odds", (event) => {
      if (Number(event.data) >= version()) refresh();
    });
  }
})();
