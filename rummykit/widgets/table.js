// rummykit card table — a thin view. Every click becomes a message to Python; the referee
// decides and the new `view` comes back. No rule logic lives here.

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

function render({ model, el }) {
  el.classList.add("rk-table");
  let timer = null;

  const send = (message) => model.send(message);

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

  function button(label, message, enabled, extra = {}) {
    return h(
      "button",
      { class: "rk-btn", disabled: !enabled, onclick: () => send(message), ...extra },
      label,
    );
  }

  function draw() {
    const v = model.get("view");
    if (!v || !v.labels) return;
    const L = v.labels;
    // a redraw must not lose the learner's place: keep the focused control and open traces
    const focused = el.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-testid")
      : null;
    const open = new Set(
      [...el.querySelectorAll("details[open]")].map((d) => d.getAttribute("data-testid")),
    );
    el.replaceChildren();
    el.classList.toggle("rk-four-colour", !!v.four_colour);

    // opponents and scores
    const opponents = h(
      "div",
      { class: "rk-opponents" },
      v.opponents.map((o) =>
        h(
          "div",
          { class: "rk-opponent" + (o.to_act ? " rk-to-act" : ""), "aria-label": o.label },
          h("span", { class: "rk-back", html: o.back }),
          h("span", {}, `${o.name}: ${o.count}`),
        ),
      ),
      h(
        "div",
        { class: "rk-scores", "data-testid": "scores" },
        `${L.scores}: ${v.scores.map((s, seat) => `${v.names[seat]} ${s}`).join(" · ")}`,
      ),
    );

    // piles
    const stock = h(
      "button",
      {
        class: "rk-pile rk-stock",
        "aria-label": `${L.stock}: ${v.stock_count}`,
        "data-testid": "stock",
        disabled: !v.can.draw,
        onclick: () => send({ type: "draw" }),
      },
      h("span", { html: v.stock_back }),
      h("span", { class: "rk-count" }, `${L.stock} · ${v.stock_count}`),
    );
    const discard = h(
      "button",
      {
        class: "rk-pile rk-discard",
        "aria-label": `${L.discard_pile}: ${v.discard_top ? v.discard_top.label : "—"}`,
        "data-testid": "discard-pile",
        onclick: () => {
          if (v.can.take_discard) send({ type: "take_discard" });
          else if (v.can.discard) send({ type: "discard" });
        },
      },
      v.discard_top ? h("span", { html: v.discard_top.svg }) : h("span", { class: "rk-empty" }, "—"),
      h("span", { class: "rk-count" }, `${L.discard_pile} · ${v.discard_count}`),
    );
    dropZone(discard, (index) => send({ type: "discard", index }));
    const piles = [stock, discard];
    if (v.cut_card) {
      piles.push(
        h(
          "button",
          {
            class: "rk-pile rk-cut",
            "aria-label": `${L.cut_card}: ${v.cut_card.label}`,
            "data-testid": "cut-card",
            disabled: !v.can.take_cut,
            onclick: () => send({ type: "take_cut" }),
          },
          h("span", { html: v.cut_card.svg }),
          h("span", { class: "rk-count" }, L.cut_card),
        ),
      );
    }

    // melds on the table, grouped by owner
    const melds = h("div", { class: "rk-melds", "aria-label": L.table });
    if (!v.melds.length) melds.append(h("div", { class: "rk-muted" }, L.no_melds));
    else if (v.can.layoff) melds.append(h("div", { class: "rk-muted rk-caption" }, L.layoff_hint));
    const owners = [...new Set(v.melds.map((m) => m.owner))];
    for (const owner of owners) {
      const group = h("div", { class: "rk-owner" }, h("div", { class: "rk-owner-name" }, v.names[owner]));
      for (const m of v.melds.filter((x) => x.owner === owner)) {
        const meld = h(
          "div",
          {
            class: "rk-meld",
            role: "button",
            tabindex: "0",
            "aria-label": m.label,
            "data-testid": `meld-${m.index}`,
            onclick: () => send({ type: "layoff", meld: m.index }),
            onkeydown: (event) => {
              if (event.key === "Enter" || event.key === " ") {
                event.preventDefault();
                send({ type: "layoff", meld: m.index });
              }
            },
          },
          m.cards.map((c) => h("span", { class: "rk-card", html: c.svg })),
          m.jokers.length ? h("div", { class: "rk-joker-note" }, m.jokers.join(" ")) : null,
          v.can.exchange
            ? h(
                "button",
                {
                  class: "rk-btn rk-small",
                  "data-testid": `exchange-${m.index}`,
                  onclick: (event) => {
                    event.stopPropagation();
                    send({ type: "exchange", meld: m.index });
                  },
                },
                L.exchange_button,
              )
            : null,
        );
        dropZone(meld, (index) => send({ type: "layoff", meld: m.index, index }));
        group.append(meld);
      }
      melds.append(group);
    }

    // the learner's hand: focusable, selectable, draggable cards
    const hand = h("div", { class: "rk-hand", role: "group", "aria-label": L.your_hand });
    v.hand.forEach((c, index) => {
      const card = h(
        "button",
        {
          class: "rk-card rk-hand-card" + (c.selected ? " rk-selected" : "") + (c.highlight ? " rk-fault" : ""),
          draggable: "true",
          "aria-pressed": c.selected ? "true" : "false",
          "aria-label": c.label + (c.selected ? ` (${L.selected})` : ""),
          "data-testid": `hand-${index}`,
          "data-card": c.text,
          onclick: () => send({ type: "select", index }),
          ondragstart: (event) => event.dataTransfer.setData("text/plain", String(index)),
          html: c.svg,
        },
      );
      hand.append(card);
    });

    const can = v.can;
    const controls = h(
      "div",
      { class: "rk-controls" },
      button(L.draw_button, { type: "draw" }, can.draw, { "data-testid": "draw" }),
      button(L.take_discard_button, { type: "take_discard" }, can.take_discard, {
        "data-testid": "take-discard",
      }),
      v.cut_card || can.take_cut
        ? button(L.take_cut_button, { type: "take_cut" }, can.take_cut, { "data-testid": "take-cut" })
        : null,
      button(L.meld_button, { type: "meld" }, can.meld, { "data-testid": "meld" }),
      button(L.discard_button, { type: "discard" }, can.discard, { "data-testid": "discard" }),
      button(L.undo_button, { type: "undo" }, can.undo, { "data-testid": "undo" }),
      can.return_cut
        ? button(L.return_cut_button, { type: "return_cut" }, true, { "data-testid": "return-cut" })
        : null,
      button(L.hint_button, { type: "hint" }, v.my_turn, { "data-testid": "hint" }),
      button(L.clear_button, { type: "clear" }, v.hand.some((c) => c.selected), { "data-testid": "clear" }),
      button(L.sort_suit, { type: "sort", by: "suit" }, true, { "data-testid": "sort-suit" }),
      button(L.sort_rank, { type: "sort", by: "rank" }, true, { "data-testid": "sort-rank" }),
    );

    // status, refusals, hints, announcements
    const status = h(
      "div",
      { class: "rk-status", "data-testid": "status" },
      h("span", {}, `${v.variant} — ${v.status}`),
      v.opening ? h("span", { class: "rk-opening", "data-testid": "opening" }, v.opening) : null,
    );
    const panel = h("div", { class: "rk-panel" });
    if (v.verdict) {
      const verdict = h(
        "div",
        { class: "rk-verdict " + (v.verdict.ok ? "rk-ok" : "rk-refused"), "data-testid": "verdict" },
        h("div", { class: "rk-cards" }, v.verdict.cards.map((c) => h("span", { class: "rk-card", html: c.svg }))),
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
            v.joker_choices.map((card) =>
              button(`🃏 = ${card}`, { ...v.pending, joker_as: card }, true, {
                "data-testid": `joker-as-${card}`,
              }),
            ),
          ),
        );
      }
      panel.append(verdict);
    }
    if (v.hint) panel.append(h("div", { class: "rk-hint", "data-testid": "hint-text" }, v.hint));
    if (v.result.length) {
      panel.append(
        h(
          "div",
          { class: "rk-result", "data-testid": "result" },
          h("b", {}, v.match_over ? L.match_over_title : L.round_over),
          h("ul", {}, v.result.map((line) => h("li", {}, line))),
          can.next_round
            ? button(L.next_round_button, { type: "next_round" }, true, { "data-testid": "next-round" })
            : null,
          reviewPanel(v.review),
        ),
      );
    }
    const live = h("div", { class: "rk-live", "aria-live": "polite", "data-testid": "announcement" }, v.announcement);

    // the AI's moves, each expandable to its reasoning
    const log = h(
      "div",
      { class: "rk-ai-log", "data-testid": "ai-log" },
      h("div", { class: "rk-owner-name" }, L.ai_moves),
      [...v.ai_log].reverse().map((entry) =>
        h(
          "details",
          {
            class: "rk-ai-move",
            "data-testid": `ai-move-${entry.number}`,
            open: open.has(`ai-move-${entry.number}`),
          },
          h("summary", {}, `${entry.name}: ${entry.action}`),
          h("div", { html: entry.trace_html }),
        ),
      ),
    );

    el.append(
      status,
      opponents,
      h("div", { class: "rk-middle" }, h("div", { class: "rk-piles" }, piles), melds),
      h("div", { class: "rk-caption" }, L.your_hand),
      hand,
      controls,
      live,
      panel,
      log,
    );

    if (focused) {
      const again = el.querySelector(`[data-testid="${focused}"]`);
      if (again) again.focus({ preventScroll: true });
    }

    // computer seats play at a watchable pace, asked for by the view
    clearTimeout(timer);
    const delay = model.get("ai_delay");
    if (!v.my_turn && v.phase !== "over" && delay > 0) {
      timer = setTimeout(() => send({ type: "ai_step" }), delay * 1000);
    }
  }

  // the mistake review (rummykit.review): a button when the round ends, then one mistake at a time
  function reviewPanel(r) {
    if (!r) return null;
    if (r.total === undefined) return button(r.button, { type: "review" }, true, { "data-testid": "review" });
    return h(
      "div",
      { class: "rk-review", "data-testid": "review-panel" },
      h("p", {}, h("b", {}, r.headline)),
      r.total
        ? h(
            "div",
            {},
            button(r.previous, { type: "review", step: -1 }, r.position > 0, { "data-testid": "review-previous" }),
            h("span", { "aria-live": "polite" }, ` ${r.title} `),
            button(r.next, { type: "review", step: 1 }, r.position < r.total - 1, { "data-testid": "review-next" }),
            h("div", { html: r.html }),
          )
        : null,
    );
  }

  function keys(event) {
    const v = model.get("view");
    if (!v || event.target.tagName === "INPUT") return;
    const map = { s: { type: "draw" }, p: { type: "take_discard" }, m: { type: "meld" }, x: { type: "discard" }, u: { type: "undo" } };
    const message = map[event.key];
    if (message) {
      event.preventDefault();
      send(message);
    }
  }

  el.setAttribute("tabindex", "-1");
  el.addEventListener("keydown", keys);
  model.on("change:view", draw);
  draw();
  return () => {
    clearTimeout(timer);
    el.removeEventListener("keydown", keys);
  };
}

export default { render };
