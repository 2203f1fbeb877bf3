"""Every sentence the meld, lay-off and opening checks say is true to its input.

A hypothesis property test over random melds, lay-offs and openings, in both variants and
under house rules, reads every reason's message as a sceptical teacher would:

- every card it names is in the input, or is a card the meld lacks or a joker stands for:
  of a suit and a rank the meld's own cards frame (a gap between two cards of one suit, a
  card a joker can reach, a missing suit of a set's rank);
- every rule it cites exists in docs/rules.md, and a help of the software's own cites none;
- it has a subject, no leftover ``{placeholder}``, no ``(s)``, no Python identifier;
- a variant without jokers never reasons about what a joker stands for, and a variant
  without an opening never talks of one.
"""

from __future__ import annotations

import ast
import functools
import random
import re
import string
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.cards import JOKER, RANKS, SUITS, Card, parse_card
from rummykit.explain import CATALOGUE, Verdict, cite, example_sentence
from rummykit.game import Game, from_position, parse_action
from rummykit.melds import Meld, check_layoff, check_meld, check_opening, meld_readings
from rummykit.messages import RANK_PATTERNS, TEMPLATES
from rummykit.variants import HUNGARIAN, ROMMI, Variant, variant

RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
RULE_IDS = frozenset(
    re.findall(r"^\| ([HR]\d+) \|", RULES_MD.read_text(encoding="utf-8"), flags=re.M)
)

RULESETS: tuple[Variant, ...] = (
    HUNGARIAN,
    ROMMI,
    HUNGARIAN.derive(jokers_per_meld=2),
    HUNGARIAN.derive(ace_above_king=False),
    HUNGARIAN.derive(ace_low=False),
    HUNGARIAN.derive(opening_threshold=40),
    variant("rommi", ace_high=True),
    ROMMI.derive(ace_low=True),
)
rulesets = st.sampled_from(RULESETS)

FULL_DECK: tuple[Card, ...] = HUNGARIAN.deck()
CARD_TEXT = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|🃏")
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|=\s*(?:True|False|\d)|\bNone\b|\b(?:True|False)\b")
WRONG_PLURAL = re.compile(
    r"\b(?:1|one) (?:cards|points|jokers|gaps)\b"
    r"|\b(?:[02-9]|1\d+|two|three|four|five|six|seven|eight|nine|ten) (?:card|point|joker|gap)\b"
)


def test_the_rule_ids_are_read_from_the_rulebook_page() -> None:
    assert {"H1", "H15", "R1", "R12"} <= RULE_IDS and len(RULE_IDS) == 27


# --- what a sentence may name ----------------------------------------------------------------


def _positions(rank: int) -> tuple[int, ...]:
    return (1, 14) if rank == 1 else (rank,)


def _placements(ranks: Iterable[int]) -> list[list[int]]:
    """The run positions of these ranks, the ace low and the ace high."""
    ranks = sorted(set(ranks))
    if 1 not in ranks:
        return [ranks]
    others = [r for r in ranks if r != 1]
    return [[1, *others], [*others, 14]]


def may_name(card: Card, meld: Sequence[Card]) -> bool:
    """Whether a sentence about ``meld`` may name ``card``: a card of the meld, a gap between
    two of its cards of one suit, a card one of its jokers may stand for (within reach of
    its cards of that suit, or of its rank in a set)."""
    if card in meld:
        return True
    jokers = sum(1 for c in meld if c.is_joker)
    same_suit = [c.rank for c in meld if not c.is_joker and c.suit == card.suit]
    for placed in _placements(same_suit):
        if not placed:
            continue
        low, high = min(placed), max(placed)
        for p in _positions(card.rank):
            if len(placed) >= 2 and low < p < high:  # a gap between two cards of its suit
                return True
            if jokers and low - jokers <= p <= high + jokers:  # a card a joker reaches
                return True
    # a set's missing suit, which a joker may stand for
    return jokers > 0 and any(not c.is_joker and c.rank == card.rank for c in meld)


def assert_sentences_true(
    verdict: Verdict, rules: Variant, melds: Sequence[Sequence[Card]], extra: Sequence[Card] = ()
) -> None:
    """Every reason of ``verdict`` passes the teacher's reading (see the module docstring)."""
    context = (rules.title, [" ".join(map(str, m)) for m in melds], " ".join(map(str, extra)))
    for reason in verdict.reasons:
        text = reason.message
        where = (reason.code, text, *context)
        for token in CARD_TEXT.findall(text):
            card = parse_card(token)
            if card.is_joker:
                assert any(JOKER in m for m in melds) or JOKER in extra, where
                continue
            assert card in extra or any(may_name(card, m) for m in melds), (token, *where)
        # the rule cited is a real rule, and a help of the software's own cites none
        entry = CATALOGUE.get(reason.code)
        assert entry is not None, where
        if reason.rule is not None:
            assert reason.rule in RULE_IDS, where
            assert reason.rule[0] == rules.rulebook, where
            assert entry.is_rule, where
        assert not re.search(r"\([HR]\d+\)", text), where  # the citation is added by str()
        # a whole sentence: a subject, no placeholder left, no "(s)", no identifier
        assert text and text == text.strip() and "  " not in text, where
        assert text[0].isupper() or text[0].isdigit() or CARD_TEXT.match(text), where
        assert not re.search(r"\s[.,;:]", text), where
        assert "{" not in text and "}" not in text, where
        assert "(s)" not in text, where
        assert not IDENTIFIER.search(text), where
        assert not WRONG_PLURAL.search(text), where
        # no joker reasoning where there are no jokers, no opening where there is none
        if rules.jokers == 0 or rules.jokers_per_meld == 0:
            assert "joker" not in text.lower() or reason.code == "jokers_not_allowed", where
        if not rules.opening_threshold:
            assert "opening" not in text.lower() or reason.code == "opening_not_required", where
    # one sentence per distinct problem
    messages = [str(r) for r in verdict.reasons]
    assert len(messages) == len(set(messages)), (messages, *context)


# --- strategies -----------------------------------------------------------------------------


@st.composite
def near_melds(draw: st.DrawFn) -> list[Card]:
    """A run or a set, then a few cards swapped for others, jokers or duplicates."""
    suit = draw(st.sampled_from(SUITS))
    if draw(st.booleans()):
        first = draw(st.integers(1, 12))
        length = draw(st.integers(2, 7))
        cards = [Card(1 if p == 14 else p, suit) for p in range(first, min(first + length, 15))]
    else:
        rank = draw(st.sampled_from(RANKS))
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=2, max_size=4, unique=True))
        cards = [Card(rank, s) for s in suits]
    for _ in range(draw(st.integers(0, 3))):
        index = draw(st.integers(0, len(cards) - 1))
        cards[index] = draw(st.one_of(st.just(JOKER), st.sampled_from(FULL_DECK)))
    cards += draw(st.lists(st.one_of(st.just(JOKER), st.sampled_from(FULL_DECK)), max_size=2))
    return draw(st.permutations(cards))


random_cards = st.lists(st.sampled_from(FULL_DECK), max_size=8)
melds = st.one_of(near_melds(), random_cards)


@given(melds, rulesets)
def test_every_meld_sentence_is_true(cards: list[Card], rules: Variant) -> None:
    assert_sentences_true(check_meld(cards, rules), rules, [cards])


@given(st.data(), near_melds(), rulesets)
def test_every_layoff_sentence_is_true(
    data: st.DataObject, cards: list[Card], rules: Variant
) -> None:
    readings = meld_readings(cards, rules)
    base: Meld | list[Card] = cards
    use_a_reading = data.draw(st.booleans())
    if readings and use_a_reading:
        base = data.draw(st.sampled_from(list(readings)))
    added = data.draw(st.lists(st.one_of(st.just(JOKER), st.sampled_from(FULL_DECK)), max_size=3))
    verdict = check_layoff(base, added, rules)
    assert_sentences_true(verdict, rules, [[*cards, *added]])


@given(st.lists(melds, max_size=4), rulesets)
def test_every_opening_sentence_is_true(opening: list[list[Card]], rules: Variant) -> None:
    assert_sentences_true(check_opening(opening, rules), rules, opening)


# --- the reason catalogue covers every code ---------------------------------------------------

PACKAGE = Path(__file__).resolve().parent.parent / "rummykit"
#: Calls whose first argument after the variant (or self) is a reason code.
_MAKERS = {"Reason": 0}


def _strings(node: ast.AST) -> set[str]:
    return {
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def _called(call: ast.Call) -> str:
    func = call.func
    return (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else ""
    )


@functools.cache
def codes_in_use() -> dict[str, str]:
    """Every reason code the package gives, found in its source: the code argument of each
    ``Reason(...)`` and of every function that passes one of its parameters on as a code
    (``_r``, ``_reason``, ``line``, ``_guide`` …), a name followed to what it is assigned."""
    functions: list[tuple[Path, ast.FunctionDef | ast.AsyncFunctionDef, list[ast.Call]]] = []
    for path in PACKAGE.rglob("*.py"):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                calls = [c for c in ast.walk(fn) if isinstance(c, ast.Call)]
                functions.append((path, fn, calls))
    makers = dict(_MAKERS)
    changed = True
    while changed:  # wrappers of wrappers: _reason → Reason, self._r → Reason …
        changed = False
        for _, fn, calls in functions:
            if fn.name in makers:
                continue
            params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
            offset = 1 if params[:1] == ["self"] else 0
            for call in calls:
                index = makers.get(_called(call))
                arg = call.args[index] if index is not None and len(call.args) > index else None
                if isinstance(arg, ast.Name) and arg.id in params:
                    makers[fn.name] = params.index(arg.id) - offset
                    changed = True
                    break
    found: dict[str, str] = {}
    for path, fn, calls in functions:
        assigned = _assignments(fn)
        for call in calls:
            index = makers.get(_called(call))
            if index is None or len(call.args) <= index:
                continue
            arg = call.args[index]
            strings = _strings(arg)
            if isinstance(arg, ast.Name):
                strings |= assigned.get(arg.id, set())
            for code in strings & set(TEMPLATES):
                found.setdefault(code, str(path.relative_to(PACKAGE.parent)))
    return found


def _assignments(fn: ast.AST) -> dict[str, set[str]]:
    """The strings each name may be given in a function: ``code = "a" if … else "b"``,
    ``a, b = "x", "y"``, ``for code, … in (("x", …), …)``."""
    assigned: dict[str, set[str]] = {}
    for node in ast.walk(fn):
        pairs: list[tuple[ast.AST, ast.AST]] = []
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Tuple)
                    and isinstance(node.value, ast.Tuple)
                    and len(target.elts) == len(node.value.elts)
                ):
                    pairs += list(zip(target.elts, node.value.elts, strict=True))
                else:
                    pairs.append((target, node.value))
        elif isinstance(node, ast.For):
            pairs.append((node.target, node.iter))
        for names, value in pairs:
            for name in ast.walk(names):
                if isinstance(name, ast.Name):
                    assigned.setdefault(name.id, set()).update(_strings(value))
    return assigned


def test_the_code_finder_finds_codes_of_every_kind() -> None:
    found = codes_in_use()
    # a meld reason, a referee refusal, a code picked by a conditional, a score line,
    # a card table help, and codes picked from a loop over pairs
    for code in (
        "run_wraps",
        "no_such_meld",
        "joker_as_impossible",
        "score_hand",
        "widget_select_meld",
        "ace_low_not_allowed",
        "ace_high_not_allowed",
    ):
        assert code in found, code


def test_every_code_in_use_is_in_the_catalogue() -> None:
    missing = {code: where for code, where in codes_in_use().items() if code not in CATALOGUE}
    assert not missing, f"add these codes to rummykit.explain.CATALOGUE: {missing}"


def test_every_catalogue_code_has_a_sentence_and_an_example() -> None:
    for code, entry in CATALOGUE.items():
        assert code in TEMPLATES, code
        sentence = example_sentence(code)
        assert "{" not in sentence and "(s)" not in sentence, (code, sentence)
        assert entry.meaning and entry.meaning == entry.meaning.strip(), code
        needed = {name for _, name, _, _ in string.Formatter().parse(TEMPLATES[code]) if name}
        needed -= set(RANK_PATTERNS)  # filled in by render itself
        assert needed <= set(entry.example), (code, needed - set(entry.example))


def test_a_help_cites_no_rule_and_a_rule_cites_one_that_exists() -> None:
    for code, entry in CATALOGUE.items():
        for rules in (HUNGARIAN, ROMMI):
            cited = cite(code, rules)
            if not entry.is_rule:
                assert cited is None, code
            elif cited is not None:
                assert cited in RULE_IDS and cited[0] == rules.rulebook, (code, cited)
        if entry.is_rule:
            assert any(cite(code, rules) for rules in (HUNGARIAN, ROMMI)), code
    # the helps: the software's own sentences, not rules
    for code in ("layoff_no_cards", "no_such_meld", "discard_take_again", "nothing_to_undo"):
        assert not CATALOGUE[code].is_rule, code


# --- the referee's refusals read the same way ----------------------------------------------


def assert_refusal_is_a_sentence(verdict: Verdict, rules: Variant) -> None:
    """A refusal's reasons: known codes, a help cites no rule, a rule one that exists, and
    whole sentences (the cards a refusal names are the player's, so they aren't checked)."""
    for reason in verdict.reasons:
        text, where = reason.message, (reason.code, reason.message, str(rules))
        entry = CATALOGUE.get(reason.code)
        assert entry is not None, where
        if not entry.is_rule:
            assert reason.rule is None, where
        if reason.rule is not None:
            assert reason.rule in RULE_IDS and reason.rule[0] == rules.rulebook, where
        assert text and text == text.strip() and "  " not in text, where
        assert "{" not in text and "}" not in text and "(s)" not in text, where
        assert not IDENTIFIER.search(text), where
        assert not WRONG_PLURAL.search(text), where


REFEREE_RULES: tuple[tuple[Variant, int], ...] = (
    (HUNGARIAN, 2),
    (HUNGARIAN, 4),
    (HUNGARIAN.derive(jokers_per_meld=2), 3),
    (ROMMI, 2),
    (ROMMI, 3),
    (ROMMI.derive(discard_to_win=True), 4),
)


def _probes(game: Game, rng: random.Random) -> list[str]:
    """Moves a hostile learner types at any moment, legal or not."""
    hand = list(game.hand(game.current))
    cards = " ".join(str(c) for c in rng.sample(hand, min(3, len(hand))))
    one = str(rng.choice(hand)) if hand else "9♠"
    stranger = str(rng.choice([c for c in FULL_DECK if c not in hand] or [JOKER]))
    melds = len(game.table) if hasattr(game, "table") else 0
    return [
        "draw",
        "take discard",
        "take cut",
        "return cut",
        "undo",
        f"meld {cards}",
        f"lay off {one} onto {rng.randint(1, melds + 2)}",
        f"exchange {one} from {rng.randint(1, melds + 2)}",
        f"discard {stranger}",
        f"discard {one}",
    ]


@pytest.mark.parametrize(("rules", "players"), REFEREE_RULES, ids=lambda v: str(v))
def test_every_referee_refusal_is_a_sentence(rules: Variant, players: int) -> None:
    rng = random.Random(players * 31 + len(str(rules)))
    game = Game.new(rules, players=players, seed=rng.randrange(1000))
    for _ in range(60):
        if game.phase == "over":
            break
        for text in _probes(game, rng):
            try:
                action = parse_action(text)
            except ValueError:
                continue
            verdict = game.check(action)
            if not verdict.ok:
                assert_refusal_is_a_sentence(verdict, rules)
        game.play(rng.choice(game.legal_actions()))


def test_a_refused_joker_meaning_joins_the_cards_it_can_be() -> None:
    game = from_position(
        HUNGARIAN,
        hands=["Jk 2h 3h 9d 9c", "3c 4c 5c 8d 8s 8h 2d"],
        discard="5s",
        phase="play",
        opened=[True, True],
    )
    verdict = game.check(parse_action("meld Jk 2h 3h as 5h"))
    reason = next(r for r in verdict.failures if r.code == "joker_as_impossible")
    assert reason.message.endswith("it can be the A♥ or the 4♥.")


@pytest.mark.parametrize("option", Variant.option_names())
def test_no_house_rule_shows_up_as_python(option: str) -> None:
    for base in (HUNGARIAN, ROMMI):
        value = getattr(base, option)
        changed = (
            not value
            if isinstance(value, bool)
            else value + 1
            if isinstance(value, int)
            else ((2, 5), (3, 5), (4, 5))
        )
        rules = base.derive(**{option: changed})
        for text in ("Q♥ K♥ A♥", "A♥ 2♥ 3♥", "5♥ 🃏 🃏", "K♠ A♠ 2♠", "9♠ 9♥ 9♦ 9♣ 9♠"):
            for reason in check_meld(text, rules).reasons:
                assert not IDENTIFIER.search(reason.message), (option, reason.message)
        for reason in check_opening(["7♥ 8♥ 9♥", "A♠ A♥ A♦"], rules).reasons:
            assert not IDENTIFIER.search(reason.message), (option, reason.message)
