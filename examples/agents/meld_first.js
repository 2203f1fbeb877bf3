#!/usr/bin/env node
// A rummykit agent in JavaScript for Node (no packages): it draws from the stock, lays
// down the longest meld it may and lays off what it can once it has opened, and discards
// its highest card. It speaks the agent protocol, version 1 (docs/agents.md): one JSON
// object per line on standard input and output; notes for people go to standard error.
// Try it:   rummykit league examples/agents     or
//           ProcessAgent(["node", "examples/agents/meld_first.js"])
"use strict";

const readline = require("node:readline");

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");

// 1. The handshake: the versions it speaks, its name, the variants it plays.
send({ type: "hello", protocol: 1, protocols: [1], name: "meld-first",
       variants: ["hungarian", "rommi"] });

// Cards are strings: rank A, 2-10, J, Q, K and suit ♠ ♥ ♦ ♣ ("10♥", "Q♠"), or the joker
// "🃏". The suit is the last character (the joker is one character of two UTF-16 units).
const RANKS = { A: 1, J: 11, Q: 12, K: 13 };
function rank(card) {
  const chars = Array.from(card);
  if (chars.length === 1) return 0; // the joker: never discarded while another card will do
  const text = chars.slice(0, -1).join("");
  return RANKS[text] || Number(text);
}

let undoneIn = null; // the turn (game and turn count) in which a meld was taken back

function choose(message) {
  const obs = message.observation;
  const legal = obs.legal_actions;
  const status = message.turn_status || {};
  const turnKey = `${message.game}:${obs.turns[obs.seat]}`;
  const of = (type) => legal.filter((a) => a.type === type);
  const steps = [];

  // Melds and lay-offs only where they can't leave the turn unfinished: once opened, or
  // where there is no opening to make (Rommi); never twice in a turn we had to undo.
  const free = status.opened || status.threshold === 0;
  if (obs.phase === "play" && free && undoneIn !== turnKey) {
    const melds = of("meld").sort((a, b) => b.cards.length - a.cards.length);
    if (melds.length) {
      steps.push(`${melds.length} melds may be laid down; the longest has ${melds[0].cards.length} cards`);
      return { action: melds[0], steps, why: "a meld on the table is points out of my hand" };
    }
    const layoffs = of("layoff");
    if (layoffs.length) {
      return { action: layoffs[0], steps, why: `lay off ${layoffs[0].cards.join(" ")}` };
    }
  }
  const discards = of("discard");
  if (obs.phase === "play" && !discards.length && of("undo").length) {
    undoneIn = turnKey; // the turn can't end as it stands: take the move back
    return { action: of("undo")[0], steps, why: "the turn could not end this way" };
  }
  const stock = legal.find((a) => a.type === "draw" && (a.source || "stock") === "stock");
  if (stock) return { action: stock, steps, why: "I always draw from the stock" };
  if (discards.length) {
    const ranked = discards.map((a) => ({ action: a, score: rank(a.card) }));
    ranked.sort((a, b) => b.score - a.score);
    return {
      action: ranked[0].action,
      steps,
      candidates: ranked.map((c) => ({ action: c.action, score: c.score,
                                       notes: [`rank ${c.score}`] })),
      why: `${ranked[0].action.card} is my highest card`,
    };
  }
  return { action: legal[0], steps, why: "the only kind of move offered" };
}

// 2. Every line: a decide is answered with its id, the action and a trace of why; a
//    verdict (a refused action) is answered with the first legal action; bye ends it.
const input = readline.createInterface({ input: process.stdin });
let last = null;
input.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "welcome":
      if (message.protocol !== 1) {
        process.stderr.write(`the referee chose protocol ${message.protocol}; I speak 1\n`);
        process.exit(2);
      }
      break;
    case "decide": {
      last = message;
      const { action, steps, candidates, why } = choose(message);
      send({ type: "action", id: message.id, action,
             trace: { steps, candidates: candidates || [], why } });
      break;
    }
    case "verdict":
      process.stderr.write(`refused: ${message.message}\n`);
      send({ type: "action", id: message.id, action: last.observation.legal_actions[0],
             trace: { why: "my first choice was refused" } });
      break;
    case "error":
      process.stderr.write(`referee: ${message.code || ""} ${message.message}\n`);
      break;
    case "bye":
      process.exit(0);
    default: // a message of a later protocol version: not ours to answer
  }
});
input.on("close", () => process.exit(0));
