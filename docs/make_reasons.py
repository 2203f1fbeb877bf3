"""Write docs/reasons.md, the reason-code catalogue, from the code itself.

Every example message in the catalogue is what ``check_meld`` (or ``check_layoff`` /
``check_opening``) really says today, so the page can't drift from the library:
``tests/test_docs.py`` fails when docs/reasons.md differs from this script's output.

    python docs/make_reasons.py          # rewrite docs/reasons.md
    python docs/make_reasons.py --check  # exit 1 if docs/reasons.md is out of date
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from rummykit import HUNGARIAN, ROMMI, Variant, Verdict, check_layoff, check_meld, check_opening
from rummykit.cards import RANKS, Card, format_cards, parse_cards
from rummykit.explain import CATALOGUE, cite, example_sentence

OUTPUT = Path(__file__).with_name("reasons.md")

#: Where to look for an example's reason: the built-in variants first, then a house rule
#: (the only way to meet ``ace_high_not_allowed``: no built-in variant forbids Q-K-A).
CANDIDATES: tuple[Variant, ...] = (
    HUNGARIAN,
    ROMMI,
    HUNGARIAN.derive(ace_above_king=False),
)

#: The codes of a failing meld, each with cards that give it (``…`` fills a run).
MELD_FAILURES: dict[str, str] = {
    "too_few_cards": "9♠ 9♥",
    "identical_cards": "9♠ 9♠ 9♥",
    "set_rank_mismatch": "9♠ 9♥ 10♥",
    "set_too_large": "9♠ 9♥ 9♦ 9♣ 🃏",
    "run_suit_mismatch": "8♠ 9♠ 10♥",
    "run_gap": "5♥ 6♥ 8♥",
    "run_duplicate_rank": "5♥ 6♥ 7♥ 7♥",
    "run_too_long": "A♥ 2♥ … K♥ 🃏",
    "run_wraps": "K♠ A♠ 2♠",
    "ace_low_not_allowed": "A♥ 2♥ 3♥",
    "ace_high_not_allowed": "Q♥ K♥ A♥",
    "too_many_jokers": "5♥ 🃏 🃏",
    "jokers_not_allowed": "5♥ 🃏 7♥",
    "not_in_deck": "9♠ 9♠ 9♠",
}

#: More examples for codes whose sentence changes shape (a joker, several cards, the ace).
MORE_EXAMPLES: dict[str, tuple[tuple[str, Variant], ...]] = {
    "set_rank_mismatch": (("9♠ 10♥ J♦", HUNGARIAN),),
    "run_suit_mismatch": (("9♠ 10♥ J♦", HUNGARIAN), ("9♠ 10♠ J♥ Q♥", HUNGARIAN)),
    "run_gap": (("5♥ 🃏 9♥", HUNGARIAN),),
    "run_duplicate_rank": (("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥", HUNGARIAN),),
    "identical_cards": (("9♠ 9♥ 9♦ 9♣ 9♠ 9♥ 9♦ 9♣", HUNGARIAN),),
    "run_wraps": (("K♥ 🃏 2♥", HUNGARIAN), ("K♠ A♠ 2♠", ROMMI)),
    "not_in_deck": (("🃏 🃏 🃏 🃏 🃏", HUNGARIAN), ("9♠ 9♠ 9♥ 9♥", ROMMI)),
}

#: A house rule: two jokers in a meld (so one meld can be read several ways).
TWO_JOKERS = HUNGARIAN.derive(jokers_per_meld=2)

#: Checks whose verdicts show the codes that explain (valid melds, lay-offs, the opening).
EXPLAINED: tuple[tuple[str, Callable[[], Verdict]], ...] = (
    ('check_meld("5♥ 🃏 7♥")', lambda: check_meld("5♥ 🃏 7♥")),
    ('check_meld("🃏 2♥ 3♥")', lambda: check_meld("🃏 2♥ 3♥")),
    ('check_meld("9♠ 9♥ 🃏")', lambda: check_meld("9♠ 9♥ 🃏")),
    ('check_meld("9♠ 9♥ 9♦ 🃏")', lambda: check_meld("9♠ 9♥ 9♦ 🃏")),
    ('check_meld("9♠ 9♥ 9♦", ROMMI)', lambda: check_meld("9♠ 9♥ 9♦", ROMMI)),
    (
        'check_meld("K♥ 🃏 🃏", HUNGARIAN.derive(jokers_per_meld=2))',
        lambda: check_meld("K♥ 🃏 🃏", TWO_JOKERS),
    ),
    ('check_meld("Q♥ K♥ A♥", ROMMI)', lambda: check_meld("Q♥ K♥ A♥", ROMMI)),
    ('check_layoff("4♥ 5♥ 6♥", "7♥ 8♥")', lambda: check_layoff("4♥ 5♥ 6♥", "7♥ 8♥")),
    ('check_layoff("4♥ 🃏 6♥", "5♥")', lambda: check_layoff("4♥ 🃏 6♥", "5♥")),
    ('check_layoff("4♥ 5♥ 6♥", "")', lambda: check_layoff("4♥ 5♥ 6♥", "")),
    ('check_layoff("🃏 2♥ 3♥", "4♥")', lambda: check_layoff("🃏 2♥ 3♥", "4♥")),
    (
        'check_opening(["🃏 2♥ 3♥", "J♠ Q♠ K♠", "2♦ 2♣ 2♠"])',
        lambda: check_opening(["🃏 2♥ 3♥", "J♠ Q♠ K♠", "2♦ 2♣ 2♠"]),
    ),
    (
        'check_opening(["7♥ 8♥ 9♥", "10♠ 10♦ 10♣", "J♣ Q♣ K♣"])',
        lambda: check_opening(["7♥ 8♥ 9♥", "10♠ 10♦ 10♣", "J♣ Q♣ K♣"]),
    ),
    (
        'check_opening(["3♣ 4♣ 5♣", "8♦ 8♠ 8♥"])',
        lambda: check_opening(["3♣ 4♣ 5♣", "8♦ 8♠ 8♥"]),
    ),
    ('check_opening(["K♠ A♠ 2♠"])', lambda: check_opening(["K♠ A♠ 2♠"])),
    ('check_opening(["7♥ 8♥ 9♥"], ROMMI)', lambda: check_opening(["7♥ 8♥ 9♥"], ROMMI)),
)


def expand(example: str) -> tuple[Card, ...]:
    """Read a catalogue example, filling ``…`` with the cards between its neighbours.

    ``A♥ 2♥ … K♥ 🃏`` is the whole run of hearts from the ace to the king, then a joker.
    """
    before, dots, after = example.partition("…")
    if not dots:
        return parse_cards(example)
    head, tail = parse_cards(before), parse_cards(after)
    low, high = head[-1], tail[0]
    middle = tuple(Card(r, low.suit) for r in RANKS if low.rank < r < high.rank)
    return (*head, *middle, *tail)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _example(code: str, cards: Sequence[Card], rules: Variant) -> list[str]:
    verdict = check_meld(cards, rules)
    found = [r for r in verdict.failures if r.code == code]
    if not found:
        raise SystemExit(f"{code}: check_meld({format_cards(cards)!r}) in {rules} does not give it")
    lines = [f"`{format_cards(cards)}` in {rules}:", ""]
    lines += [f"> {reason}" for reason in found]
    others = [r.code for r in verdict.failures if r.code != code]
    if others:
        lines += ["", "(also: " + ", ".join(f"`{c}`" for c in others) + ")"]
    return [*lines, ""]


def _first_variant(code: str, cards: Sequence[Card]) -> Variant:
    for rules in CANDIDATES:
        if code in check_meld(cards, rules).codes:
            return rules
    raise SystemExit(f"{code}: no variant gives it for the catalogue example {cards}")


def _cites(code: str) -> str:
    entry = CATALOGUE[code]
    if not entry.is_rule:
        return "help"
    return " / ".join(cite(code, rules) or "—" for rules in (HUNGARIAN, ROMMI))


def _code_section(code: str) -> list[str]:
    entry = CATALOGUE[code]
    if entry.is_rule:
        hungarian, rommi = cite(code, HUNGARIAN), cite(code, ROMMI)
        if hungarian and rommi:
            cites = f"A rule: cites {hungarian} (Hungarian Rummy) or {rommi} (Rommi)"
        else:
            cites = f"A rule: cites {hungarian or rommi} ({'Hungarian Rummy' if hungarian else 'Rommi'} only)"
    else:
        cites = "A help: the software's own sentence, citing no rule"
    lines = [
        f"### {code}",
        "",
        f"{cites} — {entry.meaning}.",
        "",
        f"> {example_sentence(code)}",
        "",
    ]
    if code in MELD_FAILURES:
        cards = expand(MELD_FAILURES[code])
        lines += ["What `check_meld` says today:", ""]
        lines += _example(code, cards, _first_variant(code, cards))
        for more, rules in MORE_EXAMPLES.get(code, ()):
            lines += _example(code, parse_cards(more), rules)
    return lines


def build() -> str:
    """The text of docs/reasons.md."""
    out = [
        "# Reason codes",
        "",
        "<!-- Generated by docs/make_reasons.py; edit that script, not this file. -->",
        "",
        "Every verdict rummykit gives is a list of reasons. A reason has a stable `code` (tests,",
        "widgets and scripts key on it), the `rule` it cites (look it up in",
        "[rules.md](rules.md)), the `cards` at fault, and a one-sentence `message`. The same",
        "code cites the Hungarian rule under Hungarian Rummy and the Rommi rule under Rommi.",
        "",
        "A code is either a **rule** — its reasons cite the rule that says so — or a **help**:",
        "the software's own sentence (a meld number that isn't on the table, nothing to undo),",
        "which cites no rule. Under a house rule, a reason the house rule decides cites no rule",
        "either: the numbered rules don't say it.",
        "",
        "```python",
        ">>> from rummykit import check_meld",
        '>>> check_meld("K♠ A♠ 2♠").codes',
        "('run_wraps',)",
        "```",
        "",
        "On the command line, `rummykit check --json CARDS` prints the same reasons as JSON.",
        "",
        "## Every code",
        "",
        "These are the codes of `rummykit.explain.CATALOGUE`: the meld checks, the referee's",
        "refusals and scoring, and the card table's helps. The example is the code's sentence",
        "rendered from its template.",
        "",
        "| code | cites (Hungarian / Rommi) | means | example |",
        "|---|---|---|---|",
    ]
    for code, entry in CATALOGUE.items():
        out.append(
            f"| [`{code}`](#{code}) | {_cites(code)} | {_cell(entry.meaning)} "
            f"| {_cell(example_sentence(code))} |"
        )
    out += ["", "## Each code", ""]
    for code in CATALOGUE:
        out += _code_section(code)
    out += [
        "## What a verdict explains",
        "",
        "A valid meld, a lay-off and an opening are explained too: what the meld is, what each",
        "joker stands for, what it is worth. These reasons don't fail a verdict; a check may",
        "also give reasons of its own (a lay-off that would move a joker, an opening that is",
        "short). Each table is one real verdict, reason by reason.",
        "",
    ]
    for call, check in EXPLAINED:
        verdict = check()
        verdict_word = "valid" if verdict.ok else "not valid"
        out += [f"`{call}` — {verdict_word}", "", "| code | rule | message |", "|---|---|---|"]
        for reason in verdict.reasons:
            code = f"**`{reason.code}`**" if reason.failing else f"`{reason.code}`"
            out.append(f"| {code} | {reason.rule or ''} | {_cell(reason.message)} |")
        out.append("")
    out += ["Codes in **bold** make the verdict fail.", ""]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Write docs/reasons.md, or with ``--check`` say whether it is up to date."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 if stale")
    args = parser.parse_args(argv)
    text = build()
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is out of date: run python docs/make_reasons.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
