"""The agent protocol, version 1: the JSON lines a referee and an agent program exchange.

One JSON object per line, UTF-8, each with a ``"type"``. The agent speaks first:

- agent → referee ``{"type": "hello", "protocol": 1, "name": "hard", "variants": [...]}``
  (``"protocols": [1, 2]`` too, when it speaks several versions);
- referee → agent ``{"type": "welcome", "protocol": 1, "protocols": [1], ...}``: the version
  the referee chose and every version it speaks, the program's name in the standings, its
  time limits and resource limits;
- referee → agent ``{"type": "decide", "id": 1, "game": 1, "observation": {...},
  "options": {...}, "turn": {...}, "turn_status": {...}}``: the seat's observation in its
  JSON form (:meth:`Observation.to_dict`, the legal actions included), the variant's house
  rules and the public facts of the turn; ``game`` counts the games this program has played;
- agent → referee ``{"type": "action", "id": 1, "action": {...}}`` (the action's JSON form)
  or ``{"type": "action", "id": 1, "text": "discard 9s"}`` (its text form), optionally with
  ``"trace"`` in the Decision trace's JSON form (:meth:`Trace.to_dict`);
- referee → agent ``{"type": "verdict", "id": 1, "verdict": {...}, "message": "..."}`` when
  the action was refused: one more answer to the same ``id``, then a forfeit;
- either side ``{"type": "error", "message": "..."}`` (the referee's with the forfeit
  ``code`` too, just before it stops the program); the referee's last line is
  ``{"type": "bye"}``, and the agent exits then, or when its input ends.

The JSON Schema of every message ships beside this module (:func:`schema`). The referee
reads a program's lines with limits — :data:`MAX_LINE` bytes, :data:`MAX_DEPTH` levels of
nesting, :data:`MAX_NUMBER` characters in a number — and refuses a line over any of them
with a protocol error that names the limit. This module turns values into those messages
and back; it runs nothing.

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
from importlib import resources
from typing import Any, TypeVar

from rummykit.ai.trace import Candidate, Decision, Note, Term, Trace
from rummykit.cards import Card, CardParseError, Cards, make_deck, parse_card
from rummykit.errors import RummykitError, sentence_of
from rummykit.explain import Reason, Verdict
from rummykit.game.actions import Action, ActionParseError, parse_action
from rummykit.game.observation import Observation
from rummykit.game.state import PHASES, Event, TableMeld, TurnInfo, TurnStatus
from rummykit.melds import MELD_KINDS, Meld
from rummykit.messages import render
from rummykit.variants import Variant
from rummykit.variants import variant as get_variant

__all__ = [
    "MAX_DEPTH",
    "MAX_LINE",
    "MAX_NUMBER",
    "PROTOCOL_VERSION",
    "PROTOCOL_VERSIONS",
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
    "schema",
    "variant_names",
    "verdict_message",
    "welcome_message",
]

PROTOCOL_VERSION = 1
"""The protocol version this rummykit speaks (the ``protocol`` of the hello line)."""

PROTOCOL_VERSIONS = (1,)
"""Every protocol version this referee speaks (the welcome line lists them)."""

MAX_LINE = 1 << 20
"""The longest line either side accepts (1 MiB); a longer one is garbage."""

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects the referee reads in a program's line."""

MAX_NUMBER = 40
"""The most characters of one number the referee reads in a program's line."""


class ProtocolError(RummykitError):
    """A line did not follow the agent protocol."""


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every message of the protocol, both ways.

    ``schema()["$defs"]`` holds each message (``hello``, ``welcome``, ``decide``,
    ``action``, ``verdict``, ``error``, ``bye``) and the values inside them (``card``,
    ``action_form``, ``observation``, ``trace``, ``verdict_form``...).

    >>> {"hello", "welcome", "decide", "action", "verdict", "error", "bye"} <= set(schema()["$defs"])
    True
    """
    text = resources.files(__package__).joinpath("protocol.schema.json").read_text("utf-8")
    found: dict[str, Any] = json.loads(text)
    return found


def encode(message: dict[str, Any]) -> bytes:
    """One message as one line of UTF-8 JSON, newline included.

    >>> encode({"type": "bye"})
    b'{"type":"bye"}\\n'
    """
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def decode(line: bytes | str, limits: bool = False) -> dict[str, Any]:
    """One line back into a message; anything but a JSON object with a ``type`` is refused.

    With ``limits`` (the referee reading a program's line), a line longer than
    :data:`MAX_LINE`, nested deeper than :data:`MAX_DEPTH` or with a number longer than
    :data:`MAX_NUMBER` characters is refused too, naming the limit.

    >>> decode(b'{"type": "bye"}')
    {'type': 'bye'}
    >>> decode("hello")
    Traceback (most recent call last):
    ...
    rummykit.agents.protocol.ProtocolError: 'hello' is not a JSON object with a "type": ...
    >>> decode('{"type": "hello", "x": ' + "[" * 40 + "]" * 40 + "}", limits=True)
    Traceback (most recent call last):
    ...
    rummykit.agents.protocol.ProtocolError: the line is nested deeper than 32 levels, the protocol's limit
    """
    if limits and len(line) > MAX_LINE:
        raise ProtocolError(render("protocol_line_too_long", size=len(line), limit=MAX_LINE))
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    try:
        data = _LIMITED.decode(text) if limits else json.loads(text)
    except RecursionError:
        raise ProtocolError(render("protocol_too_deep", limit=MAX_DEPTH)) from None
    except _Refused as refused:
        raise ProtocolError(sentence_of(refused)) from None
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError(render("protocol_not_a_message", line=_clip(text)))
    if limits and (text.count("[") + text.count("{") > MAX_DEPTH) and _too_deep(data):
        raise ProtocolError(render("protocol_too_deep", limit=MAX_DEPTH))
    return data


class _Refused(Exception):
    """A number or constant over the protocol's limits (raised inside the JSON decoder)."""


def _number(kind: type[int] | type[float]) -> Any:
    def read(text: str) -> int | float:
        if len(text) > MAX_NUMBER:
            raise _Refused(render("protocol_number_too_long", limit=MAX_NUMBER, start=text[:12]))
        return kind(text)

    return read


def _constant(name: str) -> object:
    raise _Refused(render("protocol_not_json_constant", name=name))


_LIMITED = json.JSONDecoder(
    parse_int=_number(int), parse_float=_number(float), parse_constant=_constant
)


def _too_deep(data: object) -> bool:
    """Whether ``data`` nests arrays and objects deeper than :data:`MAX_DEPTH` (no recursion)."""
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        inner = value.values() if isinstance(value, dict) else value
        assert isinstance(inner, (list, type({}.values())))
        stack.extend((v, depth + 1) for v in inner if isinstance(v, (dict, list)))
    return False


def _clip(text: str, limit: int = 120) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- the handshake --------------------------------------------------------------------------


def hello_message(name: str, variants: list[str]) -> dict[str, Any]:
    """The agent's first line: protocol version, name, the variants it plays."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, "variants": variants}


def welcome_message(version: int, name: str, **facts: object) -> dict[str, Any]:
    """The referee's answer to a hello: the version chosen, every version it speaks, the
    program's name in the standings, and ``facts`` (its limits, its sandbox).

    >>> welcome_message(1, "alice", time_limit=2.0)
    {'type': 'welcome', 'protocol': 1, 'protocols': [1], 'name': 'alice', 'time_limit': 2.0}
    """
    return {
        "type": "welcome",
        "protocol": version,
        "protocols": list(PROTOCOL_VERSIONS),
        "name": name,
        **facts,
    }


def _version(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_hello(data: dict[str, Any]) -> tuple[str, tuple[str, ...], int]:
    """The name, variants and chosen protocol version of an agent's hello line; a version
    the referee doesn't speak, or a wrong shape, is refused.

    A program that speaks several versions lists them in ``"protocols"``; the referee picks
    the highest it speaks too.

    >>> read_hello(hello_message("first", ["rommi"]))
    ('first', ('rommi',), 1)
    >>> read_hello({"type": "hello", "protocol": 9, "name": "x", "variants": ["rommi"]})
    Traceback (most recent call last):
    ...
    rummykit.agents.protocol.ProtocolError: the agent speaks protocol 9; this referee speaks only 1
    >>> read_hello({"type": "hello", "protocol": "1", "name": "x", "variants": ["rommi"]})
    Traceback (most recent call last):
    ...
    rummykit.agents.protocol.ProtocolError: "protocol" must be a whole number (the version, 1), not "1" (a string)
    """
    if data.get("type") != "hello":
        raise ProtocolError(render("protocol_expected", expected="hello", got=data.get("type")))
    said = data.get("protocol")
    if _version(said) is None:
        raise ProtocolError(
            render(
                "protocol_version_type",
                value=json.dumps(said),
                kind=render(f"json_type_{_json_type(said)}"),
                ours=PROTOCOL_VERSION,
            )
        )
    offered = data.get("protocols", [said])
    if not isinstance(offered, list) or any(_version(v) is None for v in offered):
        raise ProtocolError(
            render(
                "protocol_bad_field",
                field="protocols",
                expected=render("protocol_expects_versions"),
            )
        )
    common = sorted(set(offered) & set(PROTOCOL_VERSIONS))
    if not common:
        shown = ", ".join(str(v) for v in offered) if "protocols" in data else str(said)
        raise ProtocolError(
            render(
                "protocol_version",
                version=shown,
                ours=", ".join(str(v) for v in PROTOCOL_VERSIONS),
            )
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
    return name.strip(), tuple(v.strip().lower() for v in variants), common[-1]


def _json_type(value: object) -> str:
    """The JSON name of a value's type: string, number, boolean, null, array or object."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


# --- the referee's questions ----------------------------------------------------------------


_T = TypeVar("_T", TurnInfo, TurnStatus)
_C = TypeVar("_C", bound=str)

_OPTIONS: dict[Variant, dict[str, object]] = {}


def _options(rules: Variant) -> dict[str, object]:
    found = _OPTIONS.get(rules)
    if found is None:
        found = _OPTIONS[rules] = rules.changes()
    return dict(found)


def decide_message(obs: Observation, ident: int, game: int | None = None) -> dict[str, Any]:
    """The question for one decision: the observation, the house rules, the turn so far;
    ``game`` counts the games the program has been asked about (a new number: a new game).

    The observation is :meth:`Observation.to_dict` exactly, but the JSON forms of its history
    events and legal actions are reused from earlier questions (a referee asks about one game
    decision after decision): the message is for encoding, and its inner values are shared.

    >>> from rummykit.game import Game
    >>> game = Game.new("hungarian", players=3, seed=5)
    >>> for _ in range(6):
    ...     obs = game.observation(game.current)
    ...     assert decide_message(obs, 1)["observation"] == obs.to_dict()
    ...     _ = game.play(obs.legal_actions[-1])
    """
    plain = replace(obs, table=(), history=(), legal_actions=()).to_dict()
    plain["table"] = [_form(m) for m in obs.table]
    plain["history"] = _history_forms(obs.history)
    plain["legal_actions"] = [_form(a) for a in obs.legal_actions]
    message: dict[str, Any] = {"type": "decide", "id": ident}
    if game is not None:
        message["game"] = game
    return {
        **message,
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


def _one_of(value: object, choices: tuple[_C, ...]) -> _C:
    """``value`` as the one of ``choices`` it equals (a ValueError if none)."""
    for choice in choices:
        if value == choice:
            return choice
    raise ValueError(f"{value!r} is not one of {', '.join(map(str, choices))}")


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
                    _one_of(m["kind"], MELD_KINDS),
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
            phase=_one_of(o["phase"], PHASES),
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
    """A sentence of a trace: ``{"message": ..., "cards": [...]}`` (a ``Note``'s JSON form;
    its ``code`` is not needed) or just the sentence as a string."""
    if isinstance(data, str):
        return Note("ai_say", {"text": data})
    if not isinstance(data, dict):
        raise ProtocolError(
            render("protocol_bad_field", field="trace", expected=render("protocol_expects_notes"))
        )
    return Note("ai_say", {"text": str(data.get("message", ""))}, _cards(data.get("cards", [])))


def read_trace(data: dict[str, Any] | None, name: str, seat: int, action: Action) -> Trace:
    """The trace an agent sent, its sentences kept as written; a missing or unreadable trace
    becomes a one-line trace that says the program gave no reasons. Every sentence (a step,
    a candidate's note, ``why``) may be a note's JSON form or a plain string.

    >>> print(read_trace(None, "first", 0, parse_action("draw")))
    first (seat 0) thinks:
    Chosen: draw from the stock. The program gave no reasons.
    >>> print(read_trace({"why": "nothing better"}, "first", 0, parse_action("draw")))
    first (seat 0) thinks:
    Chosen: draw from the stock. nothing better
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
            why = data.get("why")
            said = _note(why) if why else Note("agent_no_reasons")
            return Trace(name, seat, steps, candidates, action, said)
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
