"""Ordinals and count words against quantities: ``count(item, *)`` with ``min=N`` or ``exact=N``.

A count word tied to an item mention says how many of the item there are, and
:mod:`ledger.check.judge_meaning` holds it to the quantity held (all visible holders together):

- an ordinal before the item, or standing for it ("his second vial of laudanum", "uncorks her second"):
  at least that many (``min``);
- "both" before the item or "both vials of it" after it: exactly two; "only", "sole" or "last" ("his only
  beeswax candle", "her last smoke bomb"): exactly one; "all six of them" after it: exactly six;
- a number word or digits right before it ("eight black pearls"): at least that many (a narrator may show a
  few of a stack, never more than there are);
- a plural mention ("the vials of squid ink", "gold nuggets") of an item whose own name is singular: at
  least two;
- an ordinal told as the last one ("the sixth, his very last") or a count closed by a phrase of totality
  ("two cartridges, and that's the whole arsenal"): exactly that many (:mod:`.count_totals`);
- a count of the unit the record counts the item in ("three mithqals of gold dust", "a pinch of gold dust,
  three mithqals at most"), and a bound told around a count ("at most three", "no more than three":
  ``max``; "at least three": ``min``).

A count word's claim names the holder whose stack it counts when the words say (:mod:`.count_holders`:
"the seven cores you took", "Musa's eight slabs"), else ``*``. Imports :mod:`.lexicon`, :mod:`.names`,
:mod:`.sentence`, :mod:`.count_totals` and :mod:`.count_holders`; :func:`_counts` is one pass over a
sentence.
"""

from __future__ import annotations

from ledger.check.claims import Claim, Modality
from ledger.check.extract.count_holders import bound_of, comparison_only, count_holder
from ledger.check.extract.count_totals import (
    bridged_count,
    elided_last,
    ordinal_is_last,
    total_after,
    total_later,
)
from ledger.check.extract.lexicon import _NUMBERS, ORDINALS, VERBS
from ledger.check.extract.linker import _lemma_table, is_plural, noun_lemma
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.text import Token
from ledger.check.extract.verbs import lemma as verb_lemma

NUMBER_WORDS = {w: n for w, n in _NUMBERS.items() if w not in ("a", "an", "single", "one")} | {
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
}
ONE_WORDS = frozenset({"only", "sole", "last", "lone"})
_POSSESSIVE = frozenset({"his", "her", "their", "its", "my", "your", "our"})
_DETERMINERS = frozenset({"the", "his", "her", "their", "its", "my", "your", "our", "a", "an"})
_ELLIPSIS_AFTER = frozenset({".", ",", ";", "and", "to", "for", "from", "on", "in", "into", "then", "!"})


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word)


def _head(words: list[str]) -> str:
    """The head noun of a name: the word before "of" ("vials of squid ink"), else the last word."""
    return words[words.index("of") - 1] if "of" in words[1:] else words[-1]


def _plural_head(s: _Sentence, m: Mention) -> bool:
    """True when the mention's head noun reads as a plural ("candles", not "glass")."""
    head = _head([t.low for t in s.tokens[m.i : m.j]])
    return head.endswith("s") and not head.endswith(("ss", "us", "is"))


def _head_plural(s: _Sentence, m: Mention) -> bool:
    """True when the mention's head noun (before "of", else its last word) is a plural the item's own name
    does not use: "vials of squid ink" for the vial of squid ink, "gold nuggets" for the gold nugget."""
    e = s.snap.entities.get(m.id or "")
    if e is None:
        return False
    words = [t.low for t in s.tokens[m.i : m.j]]
    head = words[words.index("of") - 1] if "of" in words[1:] else words[-1]
    name = e.name.lower().split()
    name_head = name[name.index("of") - 1] if "of" in name[1:] else name[-1]
    if not head.endswith("s") or head == name_head or name_head.endswith("s"):
        return False
    return head in (name_head + "s", name_head + "es", name_head[:-1] + "ies")


def kind_not_item(s: _Sentence, m: Mention) -> bool:
    """True when a mention is only the plural of a single item's head noun ("she keeps the keys") for an
    item recorded as one thing ("the postern key"), or only the singular of a stack's ("his dagger" for the
    "throwing daggers"): the word names things of that kind, not the one the ledger keeps, so it says
    nothing of who holds that item or how many there are. A count before a plural ("Odhran's three
    waterskins") counts the item itself."""
    if not m.derived or m.j - m.i != 1:
        return False
    e = s.snap.entities.get(m.id or "")
    if e is None or e.kind != "item":
        return False
    name = [w for w in e.name.lower().replace("'s", "").split() if w.isalpha()]
    told_plural = m.plural or _plural_head(s, m)
    if not told_plural:
        # "his dagger" for a stack of "throwing daggers": one thing of that kind, his own
        return bool(name) and is_plural(_head(name)) and _head(name) != s.tokens[m.i].low
    lead = s.tokens[m.i - 1].low if m.i > s.a else ""
    if _number(lead) is not None or lead in ORDINALS or lead in ("both", "all", "pair", "brace"):
        return False
    if sum(h.quantity for h in s.snap.holders_of(e.id).values()) > 1:
        return False
    return bool(name) and _head(name) != s.tokens[m.i].low


# coins and units of money: a number before one may name a sum (a price, a debt, a wage), not a stack
_MONEY = frozenset(
    {"coin", "guinea", "penny", "pence", "shilling", "crown", "mark", "ducat", "florin", "doubloon"}
    | {"sovereign", "noble", "thaler", "groat", "farthing", "sou", "denier", "dollar", "pound", "talent"}
    | {"drachma", "obol", "piece", "escudo", "livre", "franc", "copper", "dinar", "dirham", "groschen"}
)
# lemmas of a sentence about a sum owed, paid, charged or priced
_SUM_WORDS = frozenset(
    {"owe", "debt", "cost", "price", "worth", "fee", "wage", "bounty", "reward", "ransom", "toll"}
    | {"tax", "rent", "pay", "repay", "settle", "lend", "borrow", "bet", "wager", "stake", "charge", "loan"}
    | {"payment", "fare", "tithe", "bribe", "dowry", "arrears", "due", "earn", "sell", "buy", "pawn"}
)


def _others_stack(s: _Sentence, m: Mention) -> bool:
    """True when a named owner's possessive stands before the item (past its count words) and the ledger
    gives that owner none of it: "the bay's fuel cells", "Ada's twenty guineas" count another stack."""
    toks = s.tokens
    k = m.i - 1
    while k >= s.a and (toks[k].low in ORDINALS or _number(toks[k].low) is not None or toks[k].low in _ADJ):
        k -= 1
    if k < s.a or not toks[k].poss:
        return False
    owner = next((c for c in s.ex.between(s.a, k + 1) if c.j - 1 == k and c.poss and c.id), None)
    if owner is None:
        return True  # an owner the ledger does not know ("the harbour's lamps")
    return owner.id not in s.snap.holders_of(m.id or "")


_ADJ = frozenset({"last", "remaining", "only", "final", "own", "spare", "few", "both"})


def _is_money(s: _Sentence, m: Mention) -> bool:
    """True when the item's head noun is a coin or a unit of money ("gold guineas", "silver marks")."""
    e = s.snap.entities.get(m.id or "")
    if e is None:
        return False
    words = [w for w in e.name.lower().replace("'s", "").split() if w.isalpha()]
    return bool(words) and noun_lemma(_head(words)) in _MONEY


def _tells_a_sum(s: _Sentence) -> bool:
    """True when the sentence (outside quotes) talks of owing, paying, pricing or a debt."""
    for t in s.tokens[s.a : s.b]:
        if t.quoted or not t.text.isalpha():
            continue
        if t.low in _SUM_WORDS or noun_lemma(t.low) in _SUM_WORDS or verb_lemma(t.low) in _SUM_WORDS:
            return True
    return False


# words after a sum that make it owed or still to come, not a stack there now: "the forty coins are still
# owing", "her twenty shillings are yet to be paid", "still to come out of that money"
_OWED = frozenset({"owing", "owed", "due", "unpaid", "outstanding", "owes", "owe", "promised"})


# participles of handing over right after a sum: "forty coins counted into his palm" tells a payment made,
# not how many there are now
_PAID_OVER = frozenset({"counted", "paid", "handed", "given", "passed", "lent", "sent", "tendered"})


def owed_after(s: _Sentence, j: int) -> bool:
    """True when the words after an item mention ending at ``j`` (to the clause's end, at most six) tell a
    sum owed or still to come rather than a thing in hand."""
    toks = s.tokens
    for q in range(j, min(s.b, j + 6)):
        t = toks[q]
        if t.quoted or t.text in (",", ";", ".", "—"):
            return False
        if t.low in _OWED or (t.low == "to" and q > j and toks[q - 1].low in ("still", "yet")):
            return True
    return False


def _counts(s: _Sentence) -> None:
    """count(item, *) claims for the count words tied to item mentions in one sentence."""
    toks = s.tokens
    items = [
        m for m in s.mentions if m.id and s.kind(m) == "item" and not m.quoted and not kind_not_item(s, m)
    ]
    if not items and not any(toks[k].low in ORDINALS or toks[k].low == "last" for k in range(s.a, s.b)):
        _bridged(s)
        return
    made: set[tuple[str, str]] = set()

    def claim(m: Mention, detail: str, at: Mention | None = None, holder: str = "*") -> None:
        assert m.id is not None
        if (m.id, detail) in made:
            return
        made.add((m.id, detail))
        mod = s.modality(at or m)
        if s.future_or_asked(at or m):
            # "jokes that the ghost will come for her twenty guineas": a count still to come or asked about
            mod = Modality(mod.in_dialogue, True, mod.memory, mod.rumour, mod.negated)
        elif mod.hypothetical and comparison_only(s, (at or m).i):
            # "lighter than you would like, Musa: three mithqals at most": the comparison frames only itself
            mod = Modality(mod.in_dialogue, False, mod.memory, mod.rumour, mod.negated)
        s.ex.claims.append(Claim("count", (m.id, holder), s.raw.strip(), s.span, mod, detail))

    sums = _tells_a_sum(s) if any(_is_money(s, m) for m in items) else False
    for m in items:
        if owed_after(s, m.j) or _paid_over(s, m.j):
            continue  # "the forty coins are still owing", "forty coins counted into his palm": a sum
        if _others_stack(s, m):
            continue  # "the bay's fuel cells are down to two": a stack of someone the ledger gives none
        if sums and _is_money(s, m):
            continue  # "the debt of forty crowns", "paid twenty guineas for the mare": a sum, not a purse
        # the words right before the name, nearest first, back to a determiner: "his second", "both"
        words: list[str] = []
        head = m.i - _described(s, m.i)  # "six charged power cells": the count before the words describing
        k = head - 1
        while k >= s.a and len(words) < 3 and not toks[k].quoted and toks[k].low.replace("-", "").isalnum():
            words.append(toks[k].low)
            if toks[k].low in _DETERMINERS:
                break
            k -= 1
        # the count phrase's first word after its determiner: "your [seven] cores", "Musa's [three] ..."
        first = head - len(words) + (1 if words and words[-1] in _DETERMINERS else 0)
        first = max([first, *(q + 1 for q in range(first, m.i) if toks[q].poss)])
        of_at = (
            m.i - 1  # an owner inside the item's own name: "five of Gideon's letters"
            if m.i - 1 >= s.a and toks[m.i - 1].low == "of"
            else k - 1
            if k - 1 >= s.a and toks[k - 1].low == "of"
            else k
            if k >= s.a and toks[k].low == "of"
            else -1
        )
        unit_at = _unit_before(s, m, of_at)
        if unit_at >= 0:
            # "three mithqals of gold dust", "the four litre bottles of spirt you have left": the record's own
            # unit counted, bounded ("at most three mithqals") or all there is
            n = 1 if toks[unit_at].low == "one" else _number(toks[unit_at].low) or 0
            told_all = _all_there_is(s, m, [toks[unit_at].low]) or total_later(
                s, unit_at, m.j, n, _item_starts(items, m)
            )
            bound = bound_of(s, unit_at, of_at, n)
            claim(m, bound or (f"exact={n}" if told_all else f"min={n}"), None, count_holder(s, m, unit_at))
            continue
        if of_at >= 0:
            # "one of his two ...": a partitive is the holdings pass's count, but "the fifth of his harpoons"
            # still needs five, and "the pair of candles" two
            lead = toks[of_at - 1].low if of_at - 1 >= s.a else ""
            words = [lead] if lead in ORDINALS else ["two"] if lead in _PAIRS else []
            if _number(lead) is not None and of_at - 2 >= s.a and toks[of_at - 2].low == "all":
                claim(m, f"exact={_number(lead)}")  # "all five of Gideon's letters": every one there is
                continue
            whole = _number(toks[of_at + 2].low) if of_at + 2 < m.i else None
            if lead in ("last", "final") and toks[of_at + 1].low in _POSSESSIVE and whole is not None:
                claim(m, f"exact={whole}")  # "the last of his four flares": four was all he had
                continue
        # the ordinal before the name, or before "and last" ("her sixth and last candle" is all six)
        at = next((q for q in range(m.i - 1, max(s.a, m.i - 4) - 1, -1) if toks[q].low in ORDINALS), -1)
        if at >= 0 and (
            any(w in ORDINALS for w in words[:2]) or words[:2] in (["last", "and"], ["final", "and"])
        ):
            n = ORDINALS[toks[at].low]
            claim(m, f"exact={n}" if ordinal_is_last(s, at) else f"min={n}")
        elif words and words[0] == "both":
            claim(m, "exact=2")
        elif (
            any(w in ONE_WORDS for w in words[:2])
            and _DETERMINERS & set(words[:3])
            and not (m.j < s.b and toks[m.j].low == "of")
            and not _plural_head(s, m)
            and ("last" not in words[:2] or _POSSESSIVE & set(words[:3]))
        ):
            # "his only candle", "her last smoke bomb"; but "the last crate" may be the last of a task, and
            # "the last candles" are the ones left, however many; with no determiner "only" is the focusing
            # adverb ("the blow smashes only stone", "finds only dust"), no count
            claim(m, "exact=1")
        elif words[:1] == ["remaining"] and len(words) > 1 and _number(words[1]) is not None:
            claim(m, f"exact={_number(words[1])}")  # "the two remaining casks"
        elif words and _number(words[0]) is not None:
            n = _number(words[0]) or 0
            if words[0] == "dozen" and words[1:3] == ["a", "half"]:
                n = 6  # "half a dozen"
            whole = _all_there_is(s, m, words) or total_later(s, head - 1, m.j, n, _item_starts(items, m))
            bound = bound_of(s, head - 1, m.j, n)
            claim(m, bound or (f"exact={n}" if whole else f"min={n}"), None, count_holder(s, m, first))
        elif _head_plural(s, m):
            claim(m, "min=2")
        left = _left_later(s, m, items)
        if left is not None:
            claim(m, f"exact={left}")  # "two sacks slump by the wall, and that is all: the last two"
        # further on, set off by a comma: "The moonwater in his satchel, both vials of it", "all six of them"
        for q in range(m.j, min(s.b - 2, m.j + 8)):
            if toks[q].quoted or toks[q].text in (";", ".") or any(x.i == q for x in items):
                break
            if toks[q].text != ",":
                continue
            nxt = toks[q + 1].low
            some = 1 if nxt == "one" else _number(nxt)
            if some is not None and _is_unit(s, m, q + 2):
                # "a pinch of gold dust knotted in the leather, three mithqals at most": the amount set off,
                # in the record's own unit (so no other thing named since is what it counts)
                bound = bound_of(s, q + 1, q + 3, some)
                told_all = total_after(s, q + 3, some, q + 1)  # "..., three mithqals, all he has"
                claim(m, bound or f"{'exact' if told_all else 'min'}={some}", None, count_holder(s, m, first))
            elif nxt == "both":
                claim(m, "exact=2")
            elif nxt == "all" and _number(toks[q + 2].low) is not None and not _named_since(toks, m.j, q):
                # "lights candles for the dead, all nine": what is named since is what is counted
                claim(m, f"exact={_number(toks[q + 2].low)}")
            elif (
                (some := _number(nxt)) is not None
                and q + 4 < s.b
                and toks[q + 2].low == "of"
                and toks[q + 3].low in ("them", "those")
                and not _named_since(toks, m.j, q)
                and total_after(s, q + 4, some, q + 1)
            ):
                claim(m, f"exact={some}")  # "pulls out her candles, three of them, the last she owns"
            break
    # "when the first vial is empty she uncorks her second": an ordinal standing for the last item named; and
    # "he counts out his last three", "the last two she has": all that is left of it
    for k in range(s.a + 1, s.b - 1):
        t = toks[k]
        left = None if t.quoted or t.low in ORDINALS else elided_last(s, k)  # "counts out his last three"
        if left is None and (
            t.quoted or t.low not in ORDINALS or toks[k - 1].low not in _DETERMINERS - {"a", "an"}
        ):
            continue
        if left is None and (toks[k + 1].low not in _ELLIPSIS_AFTER or _ordinal_of_someone(s, k)):
            continue
        recent = [
            m
            for m in s.ex.mentions
            if m.id and m.i < k and not m.quoted and (e := s.snap.entities.get(m.id)) and e.kind == "item"
        ]
        # "the seventh" counts things of which there are several: a single thing named since ("one poem
        # she swore never to show") is passed over for the stack named before it
        stacks = [m for m in recent if _countable(s, m)]
        it = stacks[-1] if stacks else recent[-1] if recent and left is None else None
        if it is not None and it.i >= _reach_back(s, it.i):
            here = Mention(it.ids, k, k + 1, False, False, "public")  # the modality where the ordinal is
            if left is not None:
                claim(it, f"exact={left}", here)
                continue
            n = ORDINALS[t.low]
            claim(it, f"exact={n}" if ordinal_is_last(s, k) else f"min={n}", here)
    # "until all seven of them are wheeling overhead": "all N of them" is every one of the things last named
    for k in range(s.a, s.b - 3):
        if toks[k].quoted or toks[k].low != "all" or toks[k + 2].low != "of":
            continue
        every = _number(toks[k + 1].low)
        if every is None or toks[k + 3].low not in ("them", "those", "these"):
            continue
        named = [m for m in s.ex.mentions if m.id and m.i < k and not m.quoted]
        if not named or named[-1].i < _reach_back(s, named[-1].i):
            continue
        it = named[-1]  # the last thing named, no creature after it ("the guards ... all six of them")
        if s.snap.entities.get(it.id or "") is None or s.snap.entities[it.id or ""].kind != "item":
            continue
        if not (_told_plural_at(s, it) or _number(toks[it.i - 1].low) is not None):
            continue
        if _named_since(toks, it.j, k):
            continue  # "sets down the candles; the bargemen crowd in, all six of them": others named since
        here = Mention(it.ids, k, k + 4, False, False, "public")
        claim(it, f"exact={every}", here)


_BE = frozenset({"is", "was", "are", "were", "be", "been", "being", "'s", "’s"})


# words the count rules read themselves ("the two remaining casks", "his last two"), never describing ones
_KEPT = _DETERMINERS | ONE_WORDS | {"remaining", "left", "final", "more", "other", "extra", "further", "less"}


def _described(s: _Sentence, at: int) -> int:
    """How many words describing a thing stand between a count word and the thing's name at token ``at``
    ("six [charged] power cells", "two [little stoppered] draughts"): at most two adjectives or participles,
    none a noun alone or a finite verb, with a count word right before them; else 0."""
    toks = s.tokens
    n = 0
    while n < 2 and at - n - 1 > s.a:
        t = toks[at - n - 1]
        if t.quoted or not t.text.replace("-", "").isalpha() or not t.text.islower() or t.low in _KEPT:
            break
        adverb = n == 1 and t.low.endswith("ly") and len(t.low) > 4  # "six [fully charged] cells"
        if not (
            adverb
            or _lemma_table()(t.low).get("ADJ")
            or (t.low.endswith(("ed", "ing")) and verb_lemma(t.low))
        ):
            break
        n += 1
        if _number(toks[at - n - 1].low) is not None and toks[at - n - 1].low != "dozen":
            return n
    return 0


def _is_unit(s: _Sentence, m: Mention, q: int) -> bool:
    """True when token ``q`` is the unit the record counts item ``m`` in ("mithqals" of gold dust counted
    in mithqals, "litre" of spirit kept by the litre)."""
    e = s.snap.entities.get(m.id or "")
    if e is None or not e.unit or q >= s.b or s.tokens[q].quoted:
        return False
    unit, low = e.unit.lower(), s.tokens[q].low
    return low in (unit, unit + "s", unit + "es", unit[:-1] + "ies") or noun_lemma(low) == unit


def _unit_before(s: _Sentence, m: Mention, of_at: int) -> int:
    """The token of a count of the record's unit before "of" and the item ("three mithqals of gold dust",
    "four litre bottles of spirt": a unit and at most one noun after it), or -1."""
    toks = s.tokens
    if of_at < s.a + 2 or of_at != m.i - 1:
        return -1
    for size in (1, 2):
        at = of_at - size - 1
        if at < s.a or (_number(toks[at].low) is None and toks[at].low != "one") or toks[at].low == "dozen":
            continue
        if _is_unit(s, m, at + 1) and all(toks[q].text.isalpha() for q in range(at + 1, of_at)):
            return at
    return -1


def _bridged(s: _Sentence) -> None:
    """count(item, exact=N) for a sentence that opens on N things told by another word and closed as all
    there is ("He turns out the tin he keeps his chits in. Three stamped discs slide onto the table, and
    that's the lot."): the one stack the sentence before names."""
    found = bridged_count(s)
    if found is None:
        return
    n, at, _ = found
    prev = _sentence_start_before(s)
    named = {m.id for m in s.ex.between(prev, s.a) if m.id and not m.quoted}
    stacks = [m for m in s.ex.between(prev, s.a) if m.id and not m.quoted and s.kind(m) == "item"]
    stacks = [m for m in stacks if _countable(s, m)]
    if len({m.id for m in stacks}) != 1 or len(named & {m.id for m in stacks}) != 1:
        return
    if any(s.kind(m) == "item" and m.id != stacks[-1].id for m in s.ex.between(prev, s.a) if m.id):
        return  # another thing named with it: which one is counted is no longer sure
    it = stacks[-1]
    here = Mention(it.ids, at, at + 1, False, False, "public")
    mod = s.modality(here)
    assert it.id is not None
    s.ex.claims.append(Claim("count", (it.id, "*"), s.raw.strip(), s.span, mod, f"exact={n}"))


def _paid_over(s: _Sentence, j: int) -> bool:
    """True when a participle of handing over follows the item mention ending at ``j``, next to it or set off
    by a comma: "forty coins counted into his palm", "Forty chits, counted into his tin last market day"
    tell a payment made, not how many there are now."""
    toks = s.tokens
    q = j + 1 if j < s.b and toks[j].text == "," else j
    return q < s.b and toks[q].low in _PAID_OVER


def _item_starts(items: list[Mention], m: Mention) -> frozenset[int]:
    """The first tokens of the item mentions other than ``m``: a count's reach stops at another thing."""
    return frozenset(x.i for x in items if x is not m)


def _countable(s: _Sentence, m: Mention) -> bool:
    """True when the mention names things of which there may be several: told as a plural ("the tanzaku"
    for poem slips counts), or an item the ledger keeps as a stack (a plural name, or more than one held)."""
    e = s.snap.entities.get(m.id or "")
    if e is None:
        return False
    if m.plural or _told_plural_at(s, m):
        return True
    name = [w for w in e.name.lower().replace("'s", "").split() if w.isalpha()]
    if name and is_plural(_head(name)):
        return True
    return sum(h.quantity for h in s.snap.holders_of(e.id).values()) > 1


def _ordinal_of_someone(s: _Sentence, k: int) -> bool:
    """True when the elided ordinal at token ``k`` ranks a creature, not a thing: a predicate ("he is the
    fifth to arrive"), "the fifth to <verb>", or set off after someone named ("Saskia arrives, the fifth")."""
    toks = s.tokens
    pre = toks[k - 2] if k - 2 >= s.a else None
    if pre is not None and pre.low in _BE:
        return True
    if k + 2 < s.b and toks[k + 1].low == "to" and _bare_verb(toks[k + 2].low):
        return True  # "the fifth to come in"; "hands the fifth to Berta" names someone after "to"
    return pre is not None and pre.text == "," and any(c.i < k - 2 for c in s.creatures())


def _bare_verb(word: str) -> bool:
    """True when ``word`` is a verb's bare form ("arrive", "come")."""
    return verb_lemma(word) == word and word in VERBS


def _named_since(toks: list[Token], lo: int, hi: int) -> bool:
    """True when tokens ``lo`` to ``hi`` name other things a count after them may stand for: a plural word or
    a word after a determiner ("for the dead", "the bargemen crowd in")."""
    return any(
        toks[q].text.isalpha() and (is_plural(toks[q].low) or toks[q - 1].low in _DETERMINERS)
        for q in range(lo, hi)
    )


_PERSONAL_SUBJECTS = frozenset({"he", "she", "they", "i", "we", "you", "it"})


def _told_plural_at(s: _Sentence, it: Mention) -> bool:
    """True when the mention's head word is a plural ("the knives"), not a singular of its stack."""
    return is_plural(s.ex.tokens[it.j - 1].low)


def _reach_back(s: _Sentence, at: int) -> int:
    """The first token an elided count ("the eighth", "all seven of them") may reach back to, for a thing
    named at token ``at``: the previous sentence, or further past sentences that only describe the things
    just named, verbless fragments with no one in them ("Goose fletching, square iron heads, each one
    notched."): no mention, no personal pronoun, no verb before their first comma."""
    from ledger.check.extract.predicates import _sentence_token_starts

    start = _sentence_start_before(s)
    if at >= start:
        return start
    bounds = _sentence_token_starts(s)
    idx = next((n for n, (a, _) in enumerate(bounds) if a == start), -1)
    toks = s.ex.tokens
    mentioned = {m.i for m in s.ex.mentions}
    # the sentences between the thing and the count, nearest first: the one before the count's own sentence
    # (at ``start``) may be passed only if it is such a fragment, and so on, at most two of them
    for n in range(idx, max(0, idx - 2), -1):
        lo, hi = bounds[n]
        head: list[str] = []
        for t in toks[lo:hi]:
            if t.text == ",":
                break
            head.append(t.low)
        if (
            any(q in mentioned for q in range(lo, hi))
            or any(t.low in _PERSONAL_SUBJECTS for t in toks[lo:hi])
            or any(w in VERBS for w in head)
        ):
            return start
        start = bounds[n - 1][0]
        if at >= start:
            return start
    return start


_PAIRS = frozenset({"pair", "brace"})
_LEFT = frozenset({"left", "remaining"})
_HAVE = frozenset({"has", "have", "had", "'s"})
# words after "left" that pick out some of what remains: "two left with any charge", "three left that burn"
_QUALIFIERS = frozenset({"with", "that", "which", "who", "whose", "without", "worth", "fit", "unbroken"})


def _qualified(s: _Sentence, q: int) -> bool:
    """True when the word at ``q`` (after "left"/"remaining") narrows what is counted to some of the stack."""
    return q < s.b and s.tokens[q].low in _QUALIFIERS


_PLACED_AT = frozenset(
    {
        "on",
        "at",
        "by",
        "behind",
        "outside",
        "inside",
        "there",
        "here",
        "beside",
        "under",
        "upon",
        "near",
        "in",
    }
    | {"with", "for", "out", "open", "lying", "standing", "unattended", "alone", "undone", "unsaid"}
)
_PERSONAL = frozenset({"he", "she", "they", "i", "we", "you"})


def _all_there_is(s: _Sentence, m: Mention, words: list[str]) -> bool:
    """True when a count before an item is told as all there is now: "her last two sacks", "the only three
    candles", "the two remaining casks", "three arrows left", "the pair of candles she has left". "the last
    two sacks" may be the last of a task ("loads the last two sacks onto the cart"), so "last" needs an
    owner."""
    toks = s.tokens
    rest = words[1:3]
    if "remaining" in rest or ("only" in rest and _DETERMINERS & set(words[1:4])):
        return True
    if "last" in rest and _POSSESSIVE & set(words[1:4]):
        return True
    q = m.j
    if q < s.b and toks[q].low in _LEFT:
        return not _qualified(s, q + 1)  # "three arrows left", "two casks remaining"
    if q < s.b and toks[q].low in ("that", "which"):
        q += 1
    # "the pair of candles she has left", "the four casks Osk has left"
    who = next((c for c in s.mentions if c.i == q and c.id and s.kind(c) != "item"), None)
    q = who.j if who is not None else q + 1 if q < s.b and toks[q].low in _PERSONAL else -1
    if not (0 <= q < s.b - 1 and toks[q].low in _HAVE and toks[q + 1].low == "left"):
        return False
    # "the two casks she has left on the quay" is the verb: put somewhere, not what remains
    return q + 2 >= s.b or toks[q + 2].low not in _PLACED_AT


_DWINDLE = frozenset(
    {"are", "is", "run", "runs", "dwindle", "dwindles", "dwindled", "fall", "falls", "fallen"}
)
_SET_OFF = frozenset({",", ":", "—", "–", "only", "just", "but", "barely"})
_ENDS_PHRASE = frozenset({",", ".", ";", ":", "!", "?", "—", "–", "of", "left", "remaining", "in", "and"})


def _left_later(s: _Sentence, m: Mention, items: list[Mention]) -> int | None:
    """A count later in the item's sentence told as all that is left of it, before another item is named:
    "..., and that is all: the last two.", "... — only three left", "..., four remaining"."""
    toks = s.tokens
    for q in range(m.j + 1, min(s.b, m.j + 18)):
        t = toks[q]
        if t.quoted or t.text in (".", ";", "!", "?") or any(x.i == q for x in items if x is not m):
            return None
        n = _number(t.low)
        if n is None or t.low == "dozen":
            continue
        after = toks[q + 1].low if q + 1 < s.b else "."
        before = toks[q - 1].low
        if (
            before == "last"
            and toks[q - 2].low in _DETERMINERS - {"a", "an"}
            and toks[q - 3].text in (":", "—", "–", ",")
            and after in _ENDS_PHRASE
        ):
            return n  # "...: the last two," set off, standing for the item
        if after in _LEFT and before in _SET_OFF and not _qualified(s, q + 2):
            return n  # "— only three left", ", four remaining"
        if (
            after in ("are", "is", "remain")
            and q + 2 < s.b
            and toks[q + 2].low in _LEFT | {"all"}
            and not _qualified(s, q + 3)
        ):
            return n  # "Of the casks, only two are left"
        if (
            before == "to"
            and toks[q - 2].low == "down"
            and toks[q - 3].low in _DWINDLE
            and q - 3 - m.j <= 2
            and after in _ENDS_PHRASE
        ):
            return n  # "her casks are down to three", right after the item
    return None


def _sentence_start_before(s: _Sentence) -> int:
    """The first token of the previous sentence (an elided ordinal reaches back no further)."""
    from ledger.check.extract.predicates import _previous_sentence

    return _previous_sentence(s)
