"""The agent protocol, version 1: the JSON lines a referee and an agent program exchange.

One JSON object per line, UTF-8, each with a ``"type"``. The agent speaks first:

- agent → referee ``{"type": "hello", "protocol": 1, "name": "hard", "variants": [...]}``;
- referee → agent ``{"type": "decide", "id": 1, "observation": {...}, "options": {...},
  "turn": {...}, "turn_status": {...}}``: the seat's observation in its JSON form
  (:meth:`Observation.to_dict`, the legal actions included), the variant's house rules and
  the public facts of the turn;
- agent → referee ``{"type": "action", "id": 1, "action": {...}}`` (the action's JSON form)
  or ``{"type": "action", "id": 1, "text": "discard 9s"}`` (its text form), optionally with
  ``"trace"`` in the Decision trace's JSON form (:meth:`Trace.to_dict`);
- referee → agent ``{"type": "verdict", "id": 1, "verdict": {...}, "message": "..."}`` when
  the action was refused: one more answer to the same ``id``, then a forfeit;
- either side ``{"type": "error", "message": "..."}``; the referee's last line is
  ``{"type": "bye"}``, and the agent exits then, or when its input ends.

This module turns values into those messages and back; it runs nothing.

>>> from rummykit.game import Game
>>> game = Game.new("rommi", players=2, seed=3)
>>> obs = game.observation(game.current)
>>> message = decide_message(obs, 1)
>>> read_observation(json.loads(json.dumps(message))) == obs
True
"""

from __future__ import annotations

import json
from dataclasses import fields, replace
from typing import Any, TypeVar

from rummykit.ai.trace import Candidate, Decision, Note, Term, Trace
from rummykit.cards import Card, CardParseError, Cards, make_deck, parse_card
from rummykit.explain import Reason, Verdict
from rummykit.game.actions import Action, ActionParseError, parse_action
from rummykit.game.observation import Observation
from rummykit.game.state import Event, TableMeld, TurnInfo, TurnStatus
from rummykit.melds import Meld
from rummykit.messages import render
from rummykit.variants import Variant
from rummykit.variants import variant as get_variant

__all__ = [
    "PROTOCOL_VERSION",
    "ProtocolError",
    "action_message",
    "check_variant",
    "decide_message",
    "decode",
    "encode",
    "hello_message",
    "read_answer",
    "read_hello",
    "read_observation",
    "read_trace",
    "variant_names",
    "verdict_message",
]

PROTOCOL_VERSION = 1
"""The protocol version this rummykit speaks (the ``protocol`` of the hello line)."""

MAX_LINE = 1 << 20
"""The longest line either side accepts (1 MiB); a longer one is garbage."""


class ProtocolError(ValueError):
    """A line did not follow the agent protocol."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as one line of UTF-8 JSON, newline included.

    >>> encode({"type": "bye"})
    b'{"type":"bye"}\\n'
    """
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def decode(line: bytes | str) -> dict[str, Any]:
    """One line back into a message; anything but a JSON object with a ``type`` is refused.

    >>> decode(b'{"type": "bye"}')
    {'type': 'bye'}
    >>> decode("hello")
    Traceback (most recent call last):
    ...
    rummykit.agents.protocol.ProtocolError: 'hello' is not a JSON object with a "type": ...
    """
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError(render("protocol_not_a_message", line=_clip(text)))
    return data


def _clip(text: str, limit: int = 120) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- the handshake --------------------------------------------------------------------------


def hello_message(name: str, variants: list[str]) -> dict[str, Any]:
    """The agent's first line: protocol version, name, the variants it plays."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, "variants": variants}


def read_hello(data: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """The name and variants of an agent's hello line; a wrong version or shape is refused.

    >>> read_hello(hello_message("first", ["rommi"]))
    ('first', ('rommi',))
    >>> read_hello({"type": "hello", "protocol": 9, "name": "x", "variants": ["rommi"]})
    Traceback (most recent call last):
    ...
    rummykit.agents.protocol.ProtocolError: the agent speaks protocol 9; this referee speaks 1
    """
    if data.get("type") != "hello":
        raise ProtocolError(render("protocol_expected", expected="hello", got=data.get("type")))
    if data.get("protocol") != PROTOCOL_VERSION:
        raise ProtocolError(
            render("protocol_version", version=data.get("protocol"), ours=PROTOCOL_VERSION)
        )
    name, variants = data.get("name"), data.get("variants")
    if not isinstance(name, str) or not name.strip():
        raise ProtocolError(
            render("protocol_bad_field", field="name", expected=render("protocol_expects_string"))
        )
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise ProtocolError(
            render(
                "protocol_bad_field",
                field="variants",
                expected=render("protocol_expects_variant_names"),
            )
        )
    return name.strip(), tuple(v.strip().lower() for v in variants)


# --- the referee's questions ----------------------------------------------------------------


_T = TypeVar("_T", TurnInfo, TurnStatus)

_OPTIONS: dict[Variant, dict[str, object]] = {}


def _options(rules: Variant) -> dict[str, object]:
    found = _OPTIONS.get(rules)
    if found is None:
        found = _OPTIONS[rules] = rules.changes()
    return dict(found)


def decide_message(obs: Observation, ident: int) -> dict[str, Any]:
    """The question for one decision: the observation, the house rules, the turn so far.

    The observation is :meth:`Observation.to_dict` exactly, but the JSON forms of its history
    events and legal actions are reused from earlier questions (a referee asks about one game
    decision after decision): the message is for encoding, and its inner values are shared.

    >>> from rummykit.game import Game
    >>> game = Game.new("hungarian", players=3, seed=5)
    >>> for _ in range(6):
    ...     obs = game.observation(game.current)
    ...     assert decide_message(obs, 1)["observation"] == obs.to_dict()
    ...     game.play(obs.legal_actions[-1])
    """
    plain = replace(obs, table=(), history=(), legal_actions=()).to_dict()
    plain["table"] = [_form(m) for m in obs.table]
    plain["history"] = _history_forms(obs.history)
    plain["legal_actions"] = [_form(a) for a in obs.legal_actions]
    return {
        "type": "decide",
        "id": ident,
        "observation": plain,
        "options": _options(obs.variant),
        "turn": _plain_fields(obs.turn),
        "turn_status": None if obs.status is None else _plain_fields(obs.status),
    }


_BY_TEXT: dict[str, Card] = {str(c): c for c in make_deck(1, 1)}  # every card's own text
_TEXT: dict[Card, str] = {c: t for t, c in _BY_TEXT.items()}

_SENT_HISTORY: list[tuple[tuple[Event, ...], list[dict[str, Any]]]] = []


def _history_forms(history: tuple[Event, ...]) -> list[dict[str, Any]]:
    """The history's JSON forms; the events already sent (the very same objects) are reused."""
    known: list[dict[str, Any]] = []
    if _SENT_HISTORY:
        sent, forms = _SENT_HISTORY[0]
        if len(sent) <= len(history) and all(a is b for a, b in zip(sent, history)):
            known = forms
    result = known + [e.to_dict() for e in history[len(known) :]]
    _SENT_HISTORY[:] = [(history, result)]
    return result


_FORMS: dict[Action | TableMeld, dict[str, Any]] = {}


def _form(value: Action | TableMeld) -> dict[str, Any]:
    """An action's or a table meld's JSON form (the same ones come decision after decision)."""
    found = _FORMS.get(value)
    if found is None:
        if len(_FORMS) > 50_000:
            _FORMS.clear()
        found = _FORMS[value] = value.to_dict()
    return found


def _plain(value: object) -> object:
    if isinstance(value, Card):
        return _TEXT.get(value) or str(value)
    if isinstance(value, Reason):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _plain_fields(value: TurnInfo | TurnStatus) -> dict[str, object]:
    """A turn's facts or status as JSON: every field, cards as text, reasons as data."""
    return {f.name: _plain(getattr(value, f.name)) for f in _FIELDS[type(value)]}


def _rebuilt(cls: type[_T], data: object) -> _T:
    """A :class:`TurnInfo` or :class:`TurnStatus` back from :func:`_plain_fields`."""
    if not isinstance(data, dict):
        raise ProtocolError(
            render(
                "protocol_bad_field", field=cls.__name__, expected=render("protocol_expects_object")
            )
        )
    values: dict[str, Any] = {}
    for f in _FIELDS[cls]:
        value = data[f.name]
        if f.name in _CARD_FIELDS:
            value = _maybe_card(value)
        elif f.name in _REASON_FIELDS:
            value = tuple(_relayed(r) for r in value)
        elif isinstance(value, list):
            value = tuple(value)
        values[f.name] = value
    return cls(**values)


_FIELDS = {cls: fields(cls) for cls in (TurnInfo, TurnStatus)}
_CARD_FIELDS = frozenset({"taken", "cut_taken"})
_REASON_FIELDS = frozenset({"obligations"})


def verdict_message(ident: int, verdict: Verdict) -> dict[str, Any]:
    """The referee's refusal of an answer: the engine's verdict, as data and as words."""
    return {"type": "verdict", "id": ident, "verdict": verdict.to_dict(), "message": str(verdict)}


_VARIANTS: dict[object, Variant] = {}


def _variant(name: object, options: object) -> Variant:
    key: object
    try:
        # 1, 1.0 and True are equal keys: the types keep them apart
        items = options.items() if isinstance(options, dict) else ()
        key = (name, type(options), tuple((k, type(v), v) for k, v in items))
        hash(key)
    except TypeError:  # a list among the values
        key = json.dumps([name, options], sort_keys=True, default=str)
    found = _VARIANTS.get(key)
    if found is None:
        if not isinstance(name, str) or not isinstance(options, dict):
            raise ProtocolError(
                render(
                    "protocol_bad_field", field="variant", expected=render("protocol_expects_name")
                )
            )
        found = _VARIANTS[key] = get_variant(name, **options)
    return found


def _card(text: object) -> Card:
    card = _BY_TEXT.get(text) if isinstance(text, str) else None
    return card if card is not None else parse_card(str(text))


def _cards(values: object) -> tuple[Card, ...]:
    if not isinstance(values, list):
        raise ProtocolError(
            render("protocol_bad_field", field="cards", expected=render("protocol_expects_list"))
        )
    return Cards(map(_card, values))


def _maybe_card(value: object) -> Card | None:
    return None if value is None else _card(value)


_ACTIONS: dict[tuple[object, ...], Action] = {}


def _action(data: object) -> Action:
    """An action from its JSON form (the same forms come back decision after decision)."""
    if not isinstance(data, dict):
        return Action.from_dict(data)
    key = tuple(tuple(v) if isinstance(v, list) else v for v in data.items())
    try:
        found = _ACTIONS.get(key)
    except TypeError:  # an unhashable value: let from_dict say what is wrong
        return Action.from_dict(data)
    if found is None:
        found = Action.from_dict(data)
        if len(_ACTIONS) > 50_000:
            _ACTIONS.clear()
        _ACTIONS[key] = found
    return found


def _relayed(data: dict[str, Any]) -> Reason:
    """A reason as the other side wrote it: its code, rule and cards, its sentence kept."""
    return Reason(
        str(data["code"]),
        data.get("rule"),
        _cards(data.get("cards", [])),
        {"text": str(data.get("message", ""))},
        bool(data.get("failing", True)),
        template="ai_say",
    )


_LAST_HISTORY: list[tuple[list[Any], tuple[Event, ...]]] = []


def _events(history: list[Any]) -> tuple[Event, ...]:
    """The public history; a program follows one game decision after decision, so the events
    it has already read (the same ones, compared in full) are reused."""
    known: tuple[Event, ...] = ()
    if _LAST_HISTORY:
        seen, events = _LAST_HISTORY[0]
        if len(seen) <= len(history) and history[: len(seen)] == seen:
            known = events
    fresh = tuple(
        Event(int(e["seat"]), str(e["code"]), dict(e["params"])) for e in history[len(known) :]
    )
    events = known + fresh
    _LAST_HISTORY[:] = [(history, events)]
    return events


def read_observation(message: dict[str, Any]) -> Observation:
    """Rebuild the :class:`Observation` of a decide message — equal to the referee's own.

    Only values are rebuilt (cards, melds, events, actions); nothing of the referee's game.
    """
    try:
        o = message["observation"]
        rules = _variant(o["variant"], message.get("options", {}))
        s = message.get("turn_status")
        status = None if s is None else _rebuilt(TurnStatus, s)
        table = tuple(
            TableMeld(
                int(m["owner"]),
                Meld(
                    str(m["kind"]),
                    _cards(m["cards"]),
                    tuple(_maybe_card(c) for c in m["represents"]),
                    int(m["start"]),
                ),
            )
            for m in o["table"]
        )
        return Observation(
            seat=int(o["seat"]),
            variant=rules,
            players=int(o["players"]),
            dealer=int(o["dealer"]),
            phase=str(o["phase"]),
            current=int(o["current"]),
            hand=_cards(o["hand"]),
            table=table,
            discard_pile=_cards(o["discard_pile"]),
            cut_card=_maybe_card(o["cut_card"]),
            hand_sizes=tuple(int(n) for n in o["hand_sizes"]),
            stock_size=int(o["stock_size"]),
            opened=tuple(bool(b) for b in o["opened"]),
            turns=tuple(int(n) for n in o["turns"]),
            scores=tuple(int(n) for n in o["scores"]),
            history=_events(o["history"]),
            legal_actions=tuple(_action(a) for a in o["legal_actions"]),
            status=status,
            turn=_rebuilt(TurnInfo, message["turn"]),
        )
    except ProtocolError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        # CardParseError, ActionParseError and VariantError are ValueErrors
        raise ProtocolError(render("protocol_bad_observation", error=_error_text(exc))) from exc


def _error_text(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return render("protocol_missing_key", key=exc.args[0] if exc.args else "?")
    return str(exc)


# --- the agent's answers --------------------------------------------------------------------


def action_message(ident: int, decision: Decision) -> dict[str, Any]:
    """An agent's answer: the action in its JSON form and the trace of why."""
    return {
        "type": "action",
        "id": ident,
        "action": _form(decision.action),
        "trace": decision.trace.to_dict(),
    }


def read_answer(data: dict[str, Any], ident: int) -> tuple[Action, dict[str, Any] | None]:
    """The action of an answer to question ``ident`` (JSON or text form) and its trace data.

    >>> read_answer({"type": "action", "id": 4, "text": "discard 9s"}, 4)
    (Discard(card=Card('9♠')), None)
    >>> read_answer({"type": "action", "id": 3, "text": "draw"}, 4)
    Traceback (most recent call last):
    ...
    rummykit.agents.protocol.ProtocolError: the answer is for question 3, but the question was 4
    """
    kind = data.get("type")
    if kind != "action":
        raise ProtocolError(render("protocol_expected", expected="action", got=kind))
    if data.get("id") != ident:
        raise ProtocolError(render("protocol_wrong_id", got=data.get("id"), ident=ident))
    try:
        if "action" in data:
            action = Action.from_dict(data["action"])
        elif isinstance(data.get("text"), str):
            action = parse_action(data["text"], "en")  # programs type English
        else:
            raise ProtocolError(render("protocol_no_action"))
    except (ActionParseError, CardParseError) as exc:
        raise ProtocolError(render("protocol_bad_action", error=str(exc))) from exc
    trace = data.get("trace")
    return action, trace if isinstance(trace, dict) else None


def _note(data: object) -> Note:
    if not isinstance(data, dict):
        raise ProtocolError(
            render("protocol_bad_field", field="trace", expected=render("protocol_expects_notes"))
        )
    return Note("ai_say", {"text": str(data.get("message", ""))}, _cards(data.get("cards", [])))


def read_trace(data: dict[str, Any] | None, name: str, seat: int, action: Action) -> Trace:
    """The trace an agent sent, its sentences kept as written; a missing or unreadable trace
    becomes a one-line trace that says the program gave no reasons.

    >>> print(read_trace(None, "first", 0, parse_action("draw")))
    first (seat 0) thinks:
    Chosen: draw from the stock. The program gave no reasons.
    """
    if data is not None:
        try:
            candidates = tuple(
                Candidate(
                    Action.from_dict(c["action"]),
                    float(c["score"]),
                    tuple(_note(n) for n in c.get("notes", [])),
                    tuple(
                        Term(str(t["name"]), float(t["value"]), _note(t["note"]))
                        for t in c.get("terms", [])
                    ),
                    _note(c["plan"]) if c.get("plan") else None,
                    bool(c.get("searched", True)),
                )
                for c in data.get("candidates", [])
            )
            steps = tuple(_note(n) for n in data.get("steps", []))
            return Trace(name, seat, steps, candidates, action, _note(data.get("why", {})))
        except (ProtocolError, KeyError, TypeError, ValueError, AttributeError):
            pass  # the action counts; a trace that doesn't read is replaced, not fatal
    return Trace(name, seat, (), (), action, Note("agent_no_reasons"))


def check_variant(rules: Variant, variants: tuple[str, ...]) -> bool:
    """Whether an agent that plays ``variants`` plays this variant (house rules included).

    >>> from rummykit import ROMMI
    >>> check_variant(ROMMI.derive(target=50), ("rommi",)), check_variant(ROMMI, ("hungarian",))
    (True, False)
    """
    return (rules.base or rules.name) in variants


def variant_names() -> list[str]:
    """Every built-in variant's name (what the built-in agents play)."""
    from rummykit.variants import VARIANTS

    return list(VARIANTS)
