"""The Actics X card set: loading and checking ``cards.json``, the ready-made decks, deck rules.

The card set is data. Each card has ``id``, ``name`` {en, ja}, ``kind`` (actor / ex),
``ex_kind`` (normal / counter for EX cards), ``attribute``, ``level``, ``rarity``, ``type``,
``power``, ``range`` (the 8 directions relative to the owner, "F" being toward the enemy, with
distances), ``awakening`` ({power, range, text}) and ``texts``
[{kind, effect, params, speed (actions only), text {en, ja}}], each text naming an effect of
``effects.REGISTRY``. The data is checked when this module is imported, so a broken entry
fails loudly at start-up instead of in the middle of a match.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from minigames.acticsx.rules import effects
from minigames.game import register_term

DATA_PATH = Path(__file__).with_name("cards.json")
DIRECTIONS = ("F", "FR", "R", "BR", "B", "BL", "L", "FL")
RARITIES = ("Common", "Uncommon", "Rare")
CARD_KINDS = ("actor", "ex")
EX_KINDS = ("normal", "counter")
ACTOR_TEXT_KINDS = ("deploy", "trigger", "trait", "action", "jump")
DECK_SIZE = 20
MAX_COPIES = 2
MAX_RANGE = 5

_ID = re.compile(r"^[a-z][a-z0-9_]{1,40}$")


class CardDataError(ValueError):
    """The card data file does not describe a usable card set."""


def _bilingual(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"en", "ja"}
        and all(isinstance(v, str) and v.strip() for v in value.values())
    )


def _int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def card_problems(card: Any) -> list[str]:
    """Return what is wrong with one card entry (empty when it is usable)."""
    if not isinstance(card, dict):
        return ["a card must be an object"]
    label = card.get("id") if isinstance(card.get("id"), str) else "?"
    return [f"{label}: {problem}" for problem in _entry_problems(card)]


def _entry_problems(card: dict[str, Any]) -> Iterator[str]:
    """Yield one card's problems, unlabelled, in the order ``card_problems`` reports them.

    Without a known kind the rest of the entry cannot be judged (which fields an actor or
    an EX card must have), so only the identity problems are reported then.
    """
    if not isinstance(card.get("id"), str) or not _ID.match(card["id"]):
        yield "id must be lower_snake_case"
    if not _bilingual(card.get("name")):
        yield "name needs non-empty 'en' and 'ja'"
    kind = card.get("kind")
    if kind not in CARD_KINDS:
        yield f"kind must be one of {', '.join(CARD_KINDS)}"
        return
    if card.get("attribute") not in effects.ATTRIBUTES:
        yield f"attribute must be one of {', '.join(effects.ATTRIBUTES)}"
    if not _int(card.get("level"), 1, 3):
        yield "level must be 1, 2 or 3"
    if card.get("rarity") not in RARITIES:
        yield f"rarity must be one of {', '.join(RARITIES)}"
    texts = card.get("texts")
    if not isinstance(texts, list):
        yield "texts must be a list"
        texts = []
    yield from _texts_problems(texts)
    kinds = [t.get("kind") for t in texts if isinstance(t, dict)]
    if kind == "actor":
        yield from _actor_problems(card, kinds)
    else:
        yield from _ex_problems(card, kinds)


def _texts_problems(texts: list) -> Iterator[str]:
    for index, text in enumerate(texts):
        if not isinstance(text, dict):
            yield f"text {index} must be an object"
            continue
        for problem in effects.text_problems(text):
            yield f"text {index}: {problem}"
        if not _bilingual(text.get("text")):
            yield f"text {index} needs non-empty 'en' and 'ja' wording"


def _actor_problems(card: dict[str, Any], kinds: list[Any]) -> Iterator[str]:
    """What an actor needs beyond any card: a type, power, range and an awakening."""
    if card.get("ex_kind") is not None:
        yield "an actor has no ex_kind"
    if not _bilingual(card.get("type")):
        yield "an actor needs a type with 'en' and 'ja'"
    if not _int(card.get("power"), 0, 20):
        yield "power must be a whole number from 0 to 20"
    rng = card.get("range")
    if not isinstance(rng, dict) or set(rng) != set(DIRECTIONS):
        yield "range must give all 8 directions: " + ", ".join(DIRECTIONS)
    elif not all(_int(v, 0, MAX_RANGE) for v in rng.values()):
        yield f"range distances must be whole numbers from 0 to {MAX_RANGE}"
    yield from _awakening_problems(card.get("awakening"))
    for k in kinds:
        if k not in ACTOR_TEXT_KINDS:
            yield f"an actor cannot have a {k} text"


def _awakening_problems(awakening: Any) -> Iterator[str]:
    """Unlike ``range``, an awakening's range lists only the directions it adds to."""
    if not isinstance(awakening, dict) or set(awakening) != {"power", "range", "text"}:
        yield "awakening needs power, range and text"
        return
    if not _int(awakening["power"], 0, 10):
        yield "awakening power must be a whole number from 0 to 10"
    extra = awakening["range"]
    if not isinstance(extra, dict) or not set(extra) <= set(DIRECTIONS):
        yield "awakening range may only name the 8 directions"
    elif not all(_int(v, 0, MAX_RANGE) for v in extra.values()):
        yield "awakening range bonuses must be whole numbers from 0 to 5"
    if not _bilingual(awakening["text"]):
        yield "awakening text needs 'en' and 'ja'"


def _ex_problems(card: dict[str, Any], kinds: list[Any]) -> Iterator[str]:
    """An EX card is its one text: none of an actor's fields, and a text of its own kind."""
    ex_kind = card.get("ex_kind")
    if ex_kind not in EX_KINDS:
        yield f"an EX card's ex_kind must be one of {', '.join(EX_KINDS)}"
    for key in ("power", "range", "awakening", "type"):
        if card.get(key) is not None:
            yield f"an EX card has no {key}"
    if kinds != [ex_kind]:
        yield f"an EX card has exactly one text, of kind {ex_kind!r}"


def data_problems(data: Any) -> list[str]:
    """Return what is wrong with a whole card data file (empty when it is usable)."""
    if not isinstance(data, dict):
        return ["the card data must be an object"]
    problems: list[str] = []
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        return ["'cards' must be a non-empty list"]
    seen: set[str] = set()
    for card in cards:
        problems.extend(card_problems(card))
        cid = card.get("id") if isinstance(card, dict) else None
        if cid in seen:
            problems.append(f"{cid}: the id is used twice")
        if isinstance(cid, str):
            seen.add(cid)
    decks = data.get("decks")
    if not isinstance(decks, list):
        return [*problems, "'decks' must be a list"]
    known = {c["id"]: c for c in cards if isinstance(c, dict) and c.get("id") in seen}
    deck_ids: set[str] = set()
    for deck in decks:
        if not isinstance(deck, dict) or not isinstance(deck.get("id"), str):
            problems.append("a deck needs an id")
            continue
        if deck["id"] in deck_ids:
            problems.append(f"deck {deck['id']}: the id is used twice")
        deck_ids.add(deck["id"])
        if not _bilingual(deck.get("name")):
            problems.append(f"deck {deck['id']}: name needs 'en' and 'ja'")
        counts = deck.get("cards")
        if not isinstance(counts, dict) or not all(_int(n, 1, 99) for n in counts.values()):
            problems.append(f"deck {deck['id']}: cards must map card ids to counts")
            continue
        ids = [cid for cid, n in counts.items() for _ in range(n)]
        for reason in validate_deck(ids, cards=known):
            problems.append(f"deck {deck['id']}: {reason}")
    return problems


def load_cards(path: Path | str = DATA_PATH) -> tuple[dict[str, dict], dict[str, dict]]:
    """Read and check a card data file; return (cards by id, decks by id)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CardDataError(f"cannot read {path}: {exc}") from exc
    problems = data_problems(data)
    if problems:
        raise CardDataError("; ".join(problems))
    cards = {card["id"]: card for card in data["cards"]}
    decks = {deck["id"]: deck for deck in data["decks"]}
    return cards, decks


def get_card(card_id: str) -> dict[str, Any]:
    """Return the card called ``card_id``; KeyError when the set has none."""
    return CARDS[card_id]


def card_name(card_id: str, lang: str = "en") -> str:
    """Return the card's name in ``lang`` ("en" or "ja")."""
    return CARDS[card_id]["name"][lang]


def deck_list(deck_id: str) -> list[str]:
    """Return the card ids of a ready-made deck, one entry per copy, in a stable order."""
    return sorted(cid for cid, n in DECKS[deck_id]["cards"].items() for _ in range(n))


def validate_deck(
    card_ids: Iterable[Any],
    *,
    size: int = DECK_SIZE,
    max_copies: int = MAX_COPIES,
    cards: Mapping[str, dict] | None = None,
) -> list[str]:
    """Check a deck against the deck rules; return the reasons it breaks them (empty if legal).

    The rules: exactly ``size`` cards (20), at most ``max_copies`` (2) of any one card, and
    every card from the card set.
    """
    pool = CARDS if cards is None else cards
    ids = list(card_ids)
    reasons: list[str] = []
    if len(ids) != size:
        reasons.append(f"A deck needs exactly {size} cards; this one has {len(ids)}.")
    unknown = sorted({str(cid) for cid in ids if not isinstance(cid, str) or cid not in pool})
    for cid in unknown:
        reasons.append(f"There is no card {cid!r} in the card set.")
    for cid, count in sorted(Counter(c for c in ids if isinstance(c, str)).items()):
        if cid in pool and count > max_copies:
            name = pool[cid]["name"]["en"]
            reasons.append(f"At most {max_copies} copies of a card: {name} has {count}.")
    return reasons


# Loaded last: checking the decks uses validate_deck above.
CARDS, DECKS = load_cards()


def card_term(card_id: str) -> dict[str, str]:
    """Name a card in a message (a term of ``minigames.game``), worded by its own name."""
    return {"card": card_id}


def card_text_term(card_id: str, index: int) -> dict[str, list]:
    """Quote a card's text in a message, worded by the text as the card prints it."""
    return {"card_text": [card_id, index]}


register_term("card", lambda card_id, language: CARDS[card_id]["name"][language])
register_term("card_text", lambda ref, language: CARDS[ref[0]]["texts"][ref[1]]["text"][language])
