// rummykit card table — a thin view. Every click becomes a message to Python; the referee
// decides and the new `view` comes back. No rule logic lives here: whether a control is
// allowed, and why not, is the engine's answer (`view.can`, `view.why`).
//
// What lives for the table's whole life (never redrawn): the live region that announces
// moves, the alert region for refusals, and the move log (new entries are appended).
// Everything else is redrawn from the view; focus is put back on a sensible element.

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "html") node.innerHTML = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Ids are unique on the page, however many tables it holds: the count is the page's (each
// widget may load its own copy of this module, so a count of the module's own would repeat).
const PAGE = globalThis;
PAGE.rummykit = PAGE.rummykit || { tables: 0, settings: {} };

function render({ model, el }) {
  const uid = `rk${++PAGE.rummykit.tables}`;
  el.classList.add("rk-table");
  el.setAttribute("tabindex", "-1");
  let timer = null;
  let seq = 0; // the view last drawn
  let shownDrawn = null; // the card marked "just drawn" in the last drawing
  let asked = null; // the log request in flight
  const log = { round: null, entries: [] };

  const body = h("div", { class: "rk-body" });
  const live = h("div", { class: "rk-live", "aria-live": "polite", "data-testid": "announcement" });
  const alert = h("div", { class: "rk-sr-only", role: "alert", "data-testid": "alert" });
  const mine = h("div", { class: "rk-log-list", "data-testid": "my-log" });
  const theirs = h("div", { class: "rk-log-list", "data-testid": "ai-log" });
  // whether the computer's reasoning (and so its cards) is shown: said beside its moves
  const theirsTitle = h("div", { class: "rk-owner-name", "data-label": "ai_moves" });
  const reasoningNote = h("div", { class: "rk-reasoning-note", "data-testid": "reasoning-note", "data-label": "reasoning_note" });
  const logs = h(
    "div",
    { class: "rk-logs" },
    h("div", { class: "rk-log" }, h("div", { class: "rk-owner-name", "data-label": "your_moves" }), mine),
    h("div", { class: "rk-log" }, theirsTitle, reasoningNote, theirs),
  );
  el.replaceChildren(body, live, alert, logs);

  // the view's larger entries come as traits of their own ("view_" + name, sent only when
  // they change): put them back under the names the view lists in "apart"
  const view = () => {
    const v = { ...(model.get("view") || {}) };
    for (const name of v.apart || []) v[name] = model.get("view_" + name);
    return v;
  };
  const L = () => model.get("labels") || {};
  const svg = (card) => card.svg || (model.get("deck") || {})[card.text] || "";
  // a message to the kernel; none once the page is going away (a reload or a closed tab
  // ends the kernel's connection before the page: a timer's message would throw)
  const post = (message) => {
    try {
      model.send(message);
    } catch (error) {
      if (!String(error && error.message).includes("Cannot send")) throw error;
    }
  };
  const send = (message) => post({ ...message, seen: view().seq });

  function dropZone(node, onDrop) {
    node.addEventListener("dragover", (event) => {
      event.preventDefault();
      node.classList.add("rk-drop");
    });
    node.addEventListener("dragleave", () => node.classList.remove("rk-drop"));
    node.addEventListener("drop", (event) => {
      event.preventDefault();
      node.classList.remove("rk-drop");
      const index = event.dataTransfer.getData("text/plain");
      if (index !== "") onDrop(Number(index));
    });
  }

  // A control is never greyed into silence: a refused one stays focusable and pressable
  // (the engine answers with its Verdict) and says why on hover (title) and on focus (tip).
  function control(tag, attrs, enabled, why, ...children) {
    const id = `${uid}-why-${attrs["data-testid"]}`;
    const node = h(
      tag,
      {
        ...attrs,
        class: `${attrs.class || "rk-btn"}${enabled ? "" : " rk-disabled"}`,
        "aria-disabled": enabled ? null : "true",
        "aria-describedby": enabled || !why ? null : id,
        title: enabled ? attrs.title : why,
      },
      ...children,
    );
    if (enabled || !why) return node;
    return h("span", { class: "rk-ctl" }, node, h("span", { class: "rk-tip", role: "tooltip", id }, why));
  }

  function button(name, label, message, extra = {}) {
    const v = view();
    return control(
      "button",
      { "data-testid": name.replaceAll("_", "-"), onclick: () => send(message), ...extra },
      v.can[name] !== false,
      (v.why || {})[name],
      label,
    );
  }

  function cardFace(card, extra = {}) {
    return h("span", { class: "rk-card", html: svg(card), ...extra });
  }

  // --- the move log: the learner's moves beside the computer's, the whole round ---------------

  function logEntry(entry) {
    if (entry.mine) {
      return h("div", { class: "rk-my-move", "data-testid": `my-move-${entry.number}` }, entry.text);
    }
    // a served table's other seats: one sentence a move, no action of their own
    const head = entry.action === undefined ? entry.name : `${entry.name}: ${entry.action}`;
    if (entry.trace_html === undefined) {
      // show_reasoning=False: only what every player saw
      return h(
        "div",
        { class: "rk-ai-move", "data-testid": `ai-move-${entry.number}` },
        h("div", {}, head),
        h("div", { class: "rk-ai-said" }, entry.text),
      );
    }
    return h(
      "details",
      { class: "rk-ai-move", "data-testid": `ai-move-${entry.number}` },
      h("summary", {}, head),
      h("div", { class: "rk-ai-said" }, entry.text),
      h("div", { html: entry.trace_html }),
    );
  }

  function receiveLog(message) {
    if (message.type !== "log") return;
    asked = null;
    if (message.round !== log.round) {
      log.round = message.round;
      log.entries = [];
      mine.replaceChildren();
      theirs.replaceChildren();
    }
    if (message.start > log.entries.length) return; // a gap: asked for again on the next view
    const fresh = message.entries.slice(log.entries.length - message.start);
    for (const entry of fresh) {
      log.entries.push(entry);
      const list = entry.mine ? mine : theirs;
      list.prepend(logEntry(entry)); // newest first
    }
    for (const list of [mine, theirs]) list.classList.toggle("rk-empty-log", !list.children.length);
  }

  function syncLog(v) {
    const round = v.round;
    const have = round === log.round ? log.entries.length : 0;
    if (round !== log.round && v.log_count === 0) {
      receiveLog({ type: "log", round, start: 0, entries: [] });
      return;
    }
    const key = `${round}:${have}`;
    if (v.log_count > have && asked !== key) {
      asked = key;
      post({ type: "log", since: have });
    }
  }

  // --- focus: after every redraw it stays in the table, on a sensible element ---------------

  function restoreFocus(key, v) {
    const find = (testid) => body.querySelector(`[data-testid="${testid}"]`);
    let target = key ? find(key) : null;
    const drewNow = v.hand.some((c) => c.drawn) && shownDrawn === null;
    if (drewNow) target = body.querySelector(".rk-drawn"); // the learner just drew: go to that card
    if (!target && key && key.startsWith("hand-") && v.hand.length) {
      target = find(`hand-${Math.min(Number(key.slice(5)), v.hand.length - 1)}`);
    }
    if (!target && key === "cut-slider") target = find("stock");
    target = target || body.querySelector(".rk-drawn") || find("hand-0") || find("stock") || el;
    target.focus({ preventScroll: true });
  }

  // --- drawing the view ----------------------------------------------------------------------

  function draw() {
    const v = view();
    const labels = L();
    if (!v.hand || !labels.stock) return;
    const active = document.activeElement;
    const hadFocus = el.contains(active);
    const key = hadFocus && body.contains(active) ? active.getAttribute("data-testid") : null;
    const keepOpen = new Set([...body.querySelectorAll("details[open]")].map((d) => d.getAttribute("data-testid")));

    const open = v.show_reasoning !== false;
    theirsTitle.dataset.label = open ? "ai_moves" : "ai_moves_plain";
    reasoningNote.dataset.label = open ? "reasoning_note" : "reasoning_hidden";
    for (const node of logs.querySelectorAll("[data-label]")) node.textContent = labels[node.dataset.label];
    body.replaceChildren(...parts(v, labels, keepOpen));
    el.dataset.seq = v.seq;
    if (v.language) el.lang = v.language;
    el.classList.toggle("rk-my-turn", !!v.my_turn);

    // the live region keeps its node; only its words change (a new move, a new refusal)
    if (v.announcement && live.textContent !== v.announcement) live.textContent = v.announcement;
    if (alert.textContent !== v.alert) alert.textContent = v.alert;

    if (hadFocus) restoreFocus(key, v);
    shownDrawn = v.hand.find((c) => c.drawn)?.text ?? null;
    seq = v.seq;
    el.dataset.drawnAt = String(performance.now());
    syncLog(v);

    // computer seats play at a watchable pace, asked for by the view
    clearTimeout(timer);
    const delay = model.get("ai_delay");
    if (!v.my_turn && v.phase !== "over" && delay > 0) {
      timer = setTimeout(() => send({ type: "ai_step" }), delay * 1000);
    }
  }

  function parts(v, L, keepOpen) {
    const can = v.can;
    const you = v.players[v.seat];

    // the status line: whose turn, what to do (or who won and what to press next)
    const status = h(
      "div",
      { class: "rk-status", "data-testid": "status" },
      h("span", {}, `${v.variant} — ${v.status}`),
      v.opening ? h("span", { class: "rk-opening", "data-testid": "opening" }, v.opening) : null,
    );

    // every seat, the learner's first; who has opened; the score bar with names
    const seats = [you, ...v.players.filter((p) => p.seat !== v.seat)];
    const players = h(
      "div",
      { class: "rk-opponents" },
      seats.map((p) =>
        h(
          "div",
          {
            class: "rk-opponent" + (p.to_act ? " rk-to-act" : "") + (p.seat === v.seat ? " rk-you" : ""),
            "data-testid": `seat-${p.seat}`,
          },
          p.seat === v.seat ? null : h("span", { class: "rk-back", html: svg({ text: "back" }) }),
          h("span", {}, p.label),
          p.opened ? h("span", { class: "rk-opened", "data-testid": `opened-${p.seat}` }, `✔ ${L.opened}`) : null,
        ),
      ),
      h(
        "div",
        { class: "rk-scores", "data-testid": "scores" },
        `${L.scores}: ${v.scores.map((s, seat) => `${v.names[seat]} ${s}`).join(" · ")}`,
      ),
    );

    // piles
    const stock = control(
      "button",
      {
        class: "rk-pile rk-stock",
        "aria-label": `${L.stock}: ${v.stock_count}`,
        "data-testid": "stock",
        onclick: (event) => {
          if (event.detail > 1) return; // the second click of a double click: the first drew
          send({ type: "draw" });
        },
      },
      can.draw,
      v.why.draw,
      h("span", { html: svg({ text: "back" }) }),
      h("span", { class: "rk-count" }, `${L.stock} · ${v.stock_count}`),
    );
    const pileOk = can.take_discard || can.discard;
    const discard = control(
      "button",
      {
        class: "rk-pile rk-discard",
        // the name holds the words shown, in their order (WCAG 2.5.3): the caption, the rank
        "aria-label": `${L.discard_pile} · ${v.discard_count}: ${v.discard_top ? v.discard_top.name || v.discard_top.label : "—"}`,
        "data-testid": "discard-pile",
        onclick: (event) => {
          if (event.detail > 1) return;
          send({ type: "pile" });
        },
      },
      pileOk,
      v.phase === "play" ? v.why.discard : v.why.take_discard,
      h("span", { class: "rk-count" }, `${L.discard_pile} · ${v.discard_count}`),
      " ",
      v.discard_top ? cardFace(v.discard_top) : h("span", { class: "rk-empty" }, "—"),
    );
    dropZone(discard.querySelector?.(".rk-pile") || discard, (index) => send({ type: "discard", index }));
    const piles = [stock, discard];
    if (v.cut_card) {
      piles.push(
        control(
          "button",
          {
            class: "rk-pile rk-cut",
            "aria-label": `${L.cut_card}: ${v.cut_card.name || v.cut_card.label}`,
            "data-testid": "cut-card",
            onclick: () => send({ type: "take_cut" }),
          },
          can.take_cut,
          v.why.take_cut,
          h("span", { class: "rk-count" }, L.cut_card),
          " ",
          cardFace(v.cut_card),
        ),
      );
    }

    // the cut (H3): the learner chooses how many cards to lift
    let cut = null;
    if (v.cut) {
      const out = h("output", { "data-testid": "cut-height" }, String(v.cut.value));
      const slider = h("input", {
        type: "range",
        min: v.cut.min,
        max: v.cut.max,
        value: v.cut.value,
        "aria-label": L.cut_slider,
        "data-testid": "cut-slider",
        oninput: (event) => {
          out.textContent = event.target.value;
        },
        onkeydown: (event) => {
          if (event.key === "Enter") send({ type: "cut", height: Number(event.target.value) });
        },
      });
      cut = h(
        "div",
        { class: "rk-cut-choice", "data-testid": "cut" },
        h("div", {}, L.cut_title),
        h("label", {}, `${L.cut_slider} `, slider, " ", out),
        h(
          "button",
          { class: "rk-btn", "data-testid": "cut-button", onclick: () => send({ type: "cut", height: Number(slider.value) }) },
          L.cut_button,
        ),
      );
    }

    // melds on the table, grouped by owner, numbered from 1
    const melds = h("div", { class: "rk-melds", role: "group", "aria-label": L.table });
    if (!v.melds.length) melds.append(h("div", { class: "rk-muted" }, L.no_melds));
    else if (v.my_turn) melds.append(h("div", { class: "rk-muted rk-caption" }, L.layoff_hint));
    const owners = [...new Set(v.melds.map((m) => m.owner))];
    for (const owner of owners) {
      const group = h("div", { class: "rk-owner" }, h("div", { class: "rk-owner-name" }, v.names[owner]));
      for (const m of v.melds.filter((x) => x.owner === owner)) {
        const layoff = () => send({ type: "layoff", meld: m.index });
        // the meld's number is its button (named with its cards in words); a click anywhere
        // on the meld, or a card dropped on it, lays off too
        const number = control(
          "button",
          {
            class: "rk-meld-number",
            "aria-label": m.name || m.label,
            "data-testid": `lay-off-${m.index}`,
            onclick: (event) => {
              event.stopPropagation();
              layoff();
            },
          },
          m.layoff.enabled,
          m.layoff.why,
          String(m.number),
        );
        const meld = h(
          "div",
          {
            class: "rk-meld" + (m.layoff.enabled ? "" : " rk-disabled"),
            title: m.layoff.enabled ? null : m.layoff.why,
            "data-testid": `meld-${m.index}`,
            onclick: layoff,
          },
          number,
          " ",
          h("span", { class: "rk-fan", "aria-hidden": "true" }, m.cards.map((text) => cardFace({ text }))),
        );
        const extras = [];
        if (m.jokers.length) extras.push(h("div", { class: "rk-joker-note" }, m.jokers.join(" ")));
        if (m.exchange) {
          extras.push(
            control(
              "button",
              {
                class: "rk-btn rk-small",
                "data-testid": `exchange-${m.index}`,
                onclick: (event) => {
                  event.stopPropagation();
                  send({ type: "exchange", meld: m.index });
                },
              },
              m.exchange.enabled,
              m.exchange.why,
              L.exchange_button,
            ),
          );
        }
        dropZone(meld, (index) => send({ type: "layoff", meld: m.index, index }));
        group.append(h("div", { class: "rk-meld-box" }, meld, ...extras));
      }
      melds.append(group);
    }

    // the learner's hand: focusable, selectable, draggable cards in a fan
    const hand = h("div", { class: "rk-hand", role: "group", "aria-label": L.your_hand, "data-testid": "hand" });
    v.hand.forEach((c, index) => {
      const notes = [c.selected ? L.selected : null, c.drawn ? L.drawn : null].filter(Boolean);
      hand.append(
        h("button", {
          class:
            "rk-card rk-hand-card" +
            (c.selected ? " rk-selected" : "") +
            (c.highlight ? " rk-fault" : "") +
            (c.drawn ? " rk-drawn" : ""),
          draggable: "true",
          "aria-pressed": c.selected ? "true" : "false",
          "aria-label": (c.name || c.label) + (notes.length ? ` (${notes.join(", ")})` : ""),
          "data-testid": `hand-${index}`,
          "data-card": c.text,
          onclick: () => send({ type: "select", index }),
          ondragstart: (event) => event.dataTransfer.setData("text/plain", String(index)),
          html: svg(c),
        }),
      );
    });
    const handBar = h(
      "div",
      { class: "rk-caption rk-hand-caption" },
      L.your_hand,
      v.my_turn ? h("span", { class: "rk-turn-cue", "data-testid": "your-turn" }, L.your_turn) : null,
    );

    const controls = h(
      "div",
      { class: "rk-controls" },
      button("draw", L.draw_button, { type: "draw" }),
      button("take_discard", L.take_discard_button, { type: "take_discard" }),
      v.cut_card || can.take_cut ? button("take_cut", L.take_cut_button, { type: "take_cut" }) : null,
      button("meld", L.meld_button, { type: "meld" }),
      button("discard", L.discard_button, { type: "discard" }),
      button("undo", L.undo_button, { type: "undo" }),
      can.return_cut ? button("return_cut", L.return_cut_button, { type: "return_cut" }) : null,
      button("hint", L.hint_button, { type: "hint" }),
      button("clear", L.clear_button, { type: "clear" }),
      h("button", { class: "rk-btn", "data-testid": "sort-suit", onclick: () => send({ type: "sort", by: "suit" }) }, L.sort_suit),
      h("button", { class: "rk-btn", "data-testid": "sort-rank", onclick: () => send({ type: "sort", by: "rank" }) }, L.sort_rank),
    );
    // buttons that run Python rather than a move (v.tools), in a place of their own
    const tools = v.tools && v.tools.length
      ? h(
          "div",
          { class: "rk-controls rk-tools" },
          v.tools.map((t) =>
            h("button", { class: "rk-btn", "data-testid": `tool-${t.type}`, onclick: () => send({ type: t.type }) }, t.label),
          ),
        )
      : null;

    // the table's own settings: the four-colour deck (remembered by the page: a new game or a
    // second table on the same page starts with the learner's choice)
    const fourColour = h("input", {
      type: "checkbox",
      checked: !!v.four_colour,
      "data-testid": "four-colour",
      onchange: (event) => {
        PAGE.rummykit.settings.four_colour = event.target.checked;
        send({ type: "settings", four_colour: event.target.checked });
      },
    });
    const settings = !L.settings ? null : h(
      "details",
      { class: "rk-settings rk-controls", "data-testid": "settings", open: keepOpen.has("settings") },
      h("summary", {}, L.settings),
      h("label", {}, fourColour, " ", L.four_colour),
    );

    // refusals, hints, the round's result
    const panel = h("div", { class: "rk-panel" });
    if (v.verdict) {
      const verdict = h(
        "div",
        { class: "rk-verdict " + (v.verdict.ok ? "rk-ok" : "rk-refused"), "data-testid": "verdict" },
        h("div", { class: "rk-cards" }, v.verdict.cards.map((c) => cardFace(c))),
        h(
          "ul",
          {},
          v.verdict.reasons.map((r) =>
            h("li", { class: r.failing ? "rk-failing" : "" }, r.message, r.rule ? ` (${r.rule})` : ""),
          ),
        ),
      );
      if (v.joker_choices && v.joker_choices.length && v.pending) {
        verdict.append(
          h(
            "div",
            { class: "rk-choices" },
            v.joker_choices.map((choice) =>
              h(
                "button",
                {
                  class: "rk-btn",
                  "data-testid": `joker-as-${[].concat(choice.joker_as).join("-")}`,
                  onclick: () => send({ ...v.pending, joker_as: choice.joker_as }),
                },
                choice.label,
              ),
            ),
          ),
        );
      }
      panel.append(verdict);
    }
    if (v.hint) {
      panel.append(h("div", { class: "rk-hint", "data-testid": "hint-text" }, v.hint));
      if (v.hint_detail) {
        panel.append(
          h("details", { class: "rk-hint-detail", "data-testid": "hint-detail" }, h("summary", {}, L.hint_why), h("div", { html: v.hint_detail })),
        );
      }
    }
    if (v.review) panel.append(h("div", { class: "rk-review", "data-testid": "review-position", html: v.review }));
    if (v.result.length) {
      panel.append(
        h(
          "div",
          { class: "rk-result", "data-testid": "result" },
          h("b", {}, v.match_over ? L.match_over_title : L.round_over),
          h("ul", {}, v.result.map((line) => h("li", {}, line))),
          can.next_round ? button("next_round", L.next_round_button, { type: "next_round" }) : null,
        ),
      );
    }
    let sheet = null;
    if (v.score_sheet.length) {
      sheet = h(
        "details",
        { class: "rk-sheet", "data-testid": "score-sheet", open: keepOpen.has("score-sheet") || v.phase === "over" },
        h("summary", {}, L.score_sheet),
        h(
          "table",
          {},
          h("tr", {}, h("th", {}, L.round_column), v.names.map((n) => h("th", {}, n))),
          v.score_sheet.map((row, i) => h("tr", {}, h("td", {}, String(i + 1)), row.map((p) => h("td", {}, String(p))))),
          h("tr", { class: "rk-total" }, h("th", {}, L.total_row), v.scores.map((s) => h("th", {}, String(s)))),
        ),
      );
    }

    return [
      status,
      players,
      cut,
      h("div", { class: "rk-middle" }, h("div", { class: "rk-piles" }, piles), melds),
      handBar,
      hand,
      controls,
      tools,
      panel,
      sheet,
      settings,
    ].filter(Boolean);
  }

  // --- the keyboard ------------------------------------------------------------------------

  function keys(event) {
    const v = view();
    if (!v.hand || event.target.tagName === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
    const card = event.target.closest?.(".rk-hand-card");
    if (card && (event.key === "ArrowLeft" || event.key === "ArrowRight" || event.key === "Home" || event.key === "End")) {
      const cards = [...body.querySelectorAll(".rk-hand-card")];
      const at = cards.indexOf(card);
      const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: cards.length - 1 }[event.key];
      if (cards[to]) {
        event.preventDefault();
        cards[to].focus();
      }
      return;
    }
    const map = {
      s: { type: "draw" },
      p: { type: "take_discard" },
      m: { type: "meld" },
      x: { type: "discard" },
      u: { type: "undo" },
      c: { type: "clear" },
      h: { type: "hint" },
    };
    const message = map[event.key];
    if (message) {
      event.preventDefault();
      send(message);
    }
  }

  el.addEventListener("keydown", keys);
  const chosen = PAGE.rummykit.settings.four_colour;
  if (chosen !== undefined && chosen !== !!view().four_colour) send({ type: "settings", four_colour: chosen });
  model.on("change:view", draw);
  model.on("change:deck", draw);
  model.on("change:labels", draw);
  model.on("msg:custom", receiveLog);
  draw();
  return () => {
    clearTimeout(timer);
    el.removeEventListener("keydown", keys);
    model.off("change:view", draw);
    model.off("change:deck", draw);
    model.off("change:labels", draw);
    model.off("msg:custom", receiveLog);
  };
}

export default { render };
