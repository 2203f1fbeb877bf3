"""The opening: what new melds are worth, per reading when a joker's meaning changes it, and
whether they are enough (H8).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rummykit.cards import Card
from rummykit.explain import Reason, Verdict
from rummykit.melds.check import check_meld
from rummykit.melds.meld import Meld
from rummykit.melds.readings import MeldLike, shown_and_readings
from rummykit.melds.wording import (
    VALUE_OPTIONS,
    explanation,
    failure,
    joker_reps,
    reading_phrase,
    the_cards,
    times_word,
    variant_words,
    word_for_set,
)
from rummykit.messages import join, number_word, render
from rummykit.variants import HUNGARIAN, Variant
from rummykit.variants import variant as named_variant

__all__ = ["check_opening"]

# --- the opening -----------------------------------------------------------------------


def _reading_condition(
    meld: Meld, shown: tuple[Card, ...] | None, variant: Variant, first: bool = True
) -> str:
    """``if the joker in 🃏 2♥ 3♥ is the A♥`` (``shown``), ``if the joker is the A♥``, or
    after the first reading, ``if it is the 4♥``."""
    reps = joker_reps(meld)
    fixed = [rep for rep in reps if rep is not None]
    names = the_cards(fixed)
    set_word = word_for_set(variant)
    if not first:
        if len(fixed) < len(reps) or not meld.is_run:
            jokers = render("jokers_it_is_set", set_word=set_word)
        elif len(fixed) == 1:
            jokers = render("jokers_it_is", card=fixed[0])
        else:
            jokers = render("jokers_they_are", cards=names)
    elif shown is None:
        jokers = reading_phrase(meld)
    elif len(fixed) < len(reps) or not meld.is_run:
        jokers = render("jokers_in_set", meld=shown, set_word=set_word)
    elif len(fixed) == 1:
        jokers = render("jokers_in_one", meld=shown, card=fixed[0])
    else:
        jokers = render("jokers_in_many", meld=shown, cards=names)
    return render("condition_if", jokers=jokers)


def check_opening(melds: Iterable[MeldLike], variant: Variant | str = HUNGARIAN) -> Verdict:
    """Do these new melds make an opening (H8)? Each meld's value, the total, what is missing.

    A meld whose jokers may stand for cards of different values is counted per reading,
    and the total is said per reading too.

    >>> print(check_opening(["3♣ 4♣ 5♣", "8♦ 8♠ 8♥"]))
    3♣ 4♣ 5♣: 12. 8♠ 8♥ 8♦: 24. Your melds total 36; opening needs 51 — 15 more. Add a meld, or take these back. (H8)
    >>> check_opening(["7♥ 8♥ 9♥", "10♠ 10♦ 10♣", "J♣ Q♣ K♣"]).points
    84
    """
    if isinstance(variant, str):  # a name such as "rommi" is accepted too
        variant = named_variant(variant)
    threshold = variant.opening_threshold
    reasons: list[Reason] = []
    used: Counter[Card] = Counter()
    built: list[Meld] = []
    # each meld's values, one per reading: (value, condition) — one entry when fixed
    values: list[list[tuple[int, str]]] = []
    for item in melds:
        shown, options = shown_and_readings(item, variant)
        if not options:
            if shown:
                code = "opening_bad_meld" if threshold else "opening_bad_meld_free"
                reasons.append(failure(variant, code, shown, meld=shown))
            reasons.extend(check_meld(shown, variant).failures)
            continue
        meld = options[0]
        built.append(meld)
        used.update(meld.cards)
        by_value = dict.fromkeys(m.points(variant) for m in options)
        if len(by_value) == 1:
            values.append([(meld.points(variant), "")])
            if threshold:
                reasons.append(
                    explanation(
                        variant,
                        "opening_meld_value",
                        cited=False,
                        meld=meld.cards,
                        points=meld.points(variant),
                    )
                )
            continue
        values.append(
            [
                (m.points(variant), _reading_condition(m, shown, variant, i == 0))
                for i, m in enumerate(options)
            ]
        )
        if threshold:
            parts = [
                render(
                    "value_if",
                    points=m.points(variant),
                    condition=_reading_condition(m, None, variant, i == 0),
                )
                for i, m in enumerate(options)
            ]
            reasons.append(
                explanation(
                    variant,
                    "opening_meld_value",
                    template="opening_meld_value_readings",
                    cited=False,
                    meld=shown,
                    choices=join(parts),
                )
            )
    for card, count in used.items():
        if count > variant.copies(card):
            reasons.append(
                failure(
                    variant,
                    "opening_card_reused",
                    (card,),
                    card=card,
                    times=times_word(count),
                    variant=variant.title,
                    copies_word=number_word(variant.copies(card)),
                )
            )
    best = sum(v[0][0] for v in values)
    house = ("opening_threshold", *VALUE_OPTIONS)
    if not built and not reasons:
        code = "opening_none" if threshold else "no_melds"
        reasons.append(failure(variant, code, (), house=house))
    elif not threshold:
        words = variant_words(variant, ("opening_threshold",))
        reasons.append(explanation(variant, "opening_not_required", house=house, variant=words))
    elif built:
        reasons.append(_opening_total(values, threshold, variant, any(r.failing for r in reasons)))
    return Verdict(
        _distinct(reasons),
        tuple(c for m in built for c in m.cards),
        None,
        best,
        (),
        variant.name,
        {"melds": tuple(built), "total": best, "missing": max(0, threshold - best)},
    )


def _opening_total(
    values: list[list[tuple[int, str]]], threshold: int, variant: Variant, failed: bool
) -> Reason:
    """The total toward the opening — per reading when a joker's meaning changes it."""
    house = ("opening_threshold", *VALUE_OPTIONS)
    best = sum(v[0][0] for v in values)
    worst = sum(min(p for p, _ in v) for v in values)
    open_melds = [v for v in values if len(v) > 1]
    if not open_melds:
        if best >= threshold and not failed:
            return explanation(
                variant, "opening_total_ok", house=house, total=best, threshold=threshold
            )
        if best >= threshold:  # enough points, but something above keeps it from going down
            return failure(
                variant, "opening_blocked", (), house=house, total=best, threshold=threshold
            )
        missing = max(0, threshold - best)
        return failure(
            variant,
            "opening_short",
            (),
            house=house,
            total=best,
            threshold=threshold,
            missing=missing,
        )
    if len(open_melds) == 1:
        rest = best - open_melds[0][0][0]
        choices = join([render("value_if", points=rest + p, condition=c) for p, c in open_melds[0]])
    else:
        choices = render("total_range", low=worst, high=best)
    if worst >= threshold and not failed:
        template, code = "opening_total_ok_readings", "opening_total_ok"
    elif failed and best >= threshold:
        return failure(
            variant,
            "opening_blocked",
            (),
            template="opening_blocked_readings",
            house=house,
            choices=choices,
            threshold=threshold,
        )
    elif best < threshold or failed:
        return failure(
            variant,
            "opening_short",
            (),
            template="opening_short_readings",
            house=house,
            choices=choices,
            threshold=threshold,
            missing=max(0, threshold - best),
        )
    else:
        template, code = "opening_total_readings", "opening_total_readings"
    return explanation(
        variant, code, template=template, house=house, choices=choices, threshold=threshold
    )


def _distinct(reasons: Iterable[Reason]) -> tuple[Reason, ...]:
    """Each sentence once: the same meld given twice is explained once."""
    seen: dict[str, Reason] = {}
    for reason in reasons:
        seen.setdefault(f"{reason.code}|{reason}", reason)
    return tuple(seen.values())
