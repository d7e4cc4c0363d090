// The table's page: announcements into live regions and the history, the board as
// headings, lists and tables, the buttons and the command field. Served by the companion
// itself; it fetches nothing else.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const socketUrl = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname + "/ws";
  let socket = null;
  let ui = {};
  let retry = 500;
  // Every live-region update with its time: what tests and the benchmark read.
  window.companionSaid = [];

  function el(tag, text, attrs) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }

  function addHistory(lines) {
    const list = $("history");
    for (const line of lines) list.appendChild(el("li", line));
  }

  function announce(lines, assertive) {
    const text = lines.join(" ");
    const region = assertive ? $("assertive") : $("polite");
    const other = assertive ? $("polite") : $("assertive");
    other.textContent = "";
    region.textContent = text;
    window.companionSaid.push({ t: performance.timeOrigin + performance.now(), text: text, assertive: assertive });
  }

  function hello(frame) {
    ui = frame.ui;
    document.title = ui.title + " — " + ui.role;
    $("title").textContent = ui.title;
    $("role").textContent = ui.role;
    for (const node of document.querySelectorAll("[data-ui]")) {
      const words = ui[node.getAttribute("data-ui")];
      if (words) node.textContent = words;
    }
    $("history").replaceChildren();
    $("connection").textContent = ui.connected;
    retry = 500;
  }

  function table(grid) {
    const t = el("table", null, { role: "table" });
    t.appendChild(el("caption", grid.caption));
    const head = el("thead", null, { role: "rowgroup" });
    const hr = el("tr", null, { role: "row" });
    for (const c of grid.columns) hr.appendChild(el("th", c, { scope: "col", role: "columnheader" }));
    head.appendChild(hr);
    t.appendChild(head);
    const body = el("tbody", null, { role: "rowgroup" });
    for (const row of grid.rows) {
      const tr = el("tr", null, { role: "row" });
      row.forEach((cell, i) => {
        const attrs = i === 0 ? { scope: "row", role: "rowheader" } : { role: "cell", "data-label": grid.columns[i] };
        tr.appendChild(el(i === 0 ? "th" : "td", cell, attrs));
      });
      body.appendChild(tr);
    }
    t.appendChild(body);
    return t;
  }

  function board(sections) {
    const root = $("board");
    const parts = [];
    for (const s of sections) {
      const box = el("section", null, s.private ? { class: "private" } : {});
      box.appendChild(el("h3", s.heading));
      if (s.items.length) {
        const list = el("ul");
        for (const item of s.items) list.appendChild(el("li", item));
        box.appendChild(list);
      }
      if (s.grid) box.appendChild(table(s.grid));
      parts.push(box);
    }
    root.replaceChildren(...parts);
  }

  function choices(list) {
    const root = $("choices");
    const active = document.activeElement;
    const wasChoice = active && active.classList.contains("choice");
    const focusedLine = wasChoice ? active.getAttribute("data-line") : null;
    const items = list.map((c) => {
      const li = el("li");
      const b = el("button", c.label, { type: "button", class: "choice", "data-line": c.line });
      b.addEventListener("click", () => send(c.line));
      li.appendChild(b);
      return li;
    });
    root.replaceChildren(...items);
    $("no-choices").hidden = list.length > 0;
    if (wasChoice) {  // the pressed button is gone: focus stays among the choices
      const same = root.querySelector('button[data-line="' + CSS.escape(focusedLine) + '"]');
      const target = same || root.querySelector("button") || $("command");
      target.focus();
    }
  }

  function send(line) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ line: line }));
  }

  function receive(event) {
    const frame = JSON.parse(event.data);
    if (frame.type === "hello") hello(frame);
    else if (frame.type === "past") addHistory(frame.lines);
    else if (frame.type === "say") { addHistory(frame.lines); announce(frame.lines, frame.assertive); }
    else if (frame.type === "notice") announce(frame.lines, true);
    else if (frame.type === "view") { board(frame.board); choices(frame.choices); }
  }

  function connect() {
    socket = new WebSocket(socketUrl);
    socket.addEventListener("message", receive);
    socket.addEventListener("close", () => {
      if (ui.disconnected) $("connection").textContent = ui.disconnected;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    });
  }

  $("command-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("command");
    if (input.value.trim()) send(input.value);
    input.value = "";
    input.focus();
  });
  const contrast = $("contrast");
  contrast.checked = localStorage.getItem("contrast") === "1";
  document.documentElement.classList.toggle("contrast", contrast.checked);
  contrast.addEventListener("change", () => {
    document.documentElement.classList.toggle("contrast", contrast.checked);
    localStorage.setItem("contrast", contrast.checked ? "1" : "0");
  });
  connect();
})();
