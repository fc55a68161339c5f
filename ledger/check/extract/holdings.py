"""Item claims: who holds an item and how many, from possessives, pronouns and handling verbs.

``_holdings`` emits ``holds`` with hand-overs ("give:<id>"), acquisitions and counts ("qty=3", "qty>=2") as
details the judge replays in text order; the carrying, bundle and handling word lists live here. Imports
:mod:`.lexicon`, :mod:`.text`, :mod:`.names` and :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.claims import Modality
from ledger.check.extract.lexicon import (
    _BODY_NOUNS,
    _HOLDING,
    _NUMBERS,
    _PRONOUN_POSS,
    _SUBJECT_LEAD,
    VERBS,
    _is_past,
)
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.text import _number

_HOLD_VERBS = frozenset(_HOLDING.split())
_GIVE_VERBS = frozenset({"hand", "give", "pass", "toss", "offer", "slide", "throw", "press"})
_ACQUIRE_VERBS = frozenset(
    {"pick", "take", "grab", "snatch", "seize", "buy", "receive", "accept", "catch", "find"}
)


_TRAILING_PREPS = frozenset(
    {
        "at",
        "on",
        "in",
        "from",
        "under",
        "against",
        "across",
        "over",
        "into",
        "between",
        "upon",
        "inside",
        "within",
        "beneath",
        "behind",
        "beside",
    }
)


_CARRIED_IN = frozenset(
    [
        "hip",
        "belt",
        "hand",
        "hands",
        "fingers",
        "knuckles",
        "palm",
        "sleeve",
        "pocket",
        "pack",
        "satchel",
        "pouch",
        "lap",
        "knees",
        "knee",
        "quiver",
        "boot",
        "sash",
        "scabbard",
        "bandolier",
        "coat",
        "cloak",
        "bag",
        "purse",
        "side",
        "back",
        "shoulder",
        "arms",
        "grip",
        "fist",
    ]
)


_BUNDLES = frozenset(
    [
        "bundle",
        "stack",
        "quiver",
        "pouch",
        "sack",
        "bag",
        "case",
        "brace",
        "handful",
        "pair",
        "set",
        "crate",
        "bundle",
        "box",
        "satchel",
    ]
)


def _count_after(s: _Sentence, j: int) -> tuple[int | None, bool]:
    """ "the torches ...: all six of them" / "three in all": an exact count told after the item."""
    words = [t.low for t in s.tokens[j : min(s.b, j + 16)] if not t.quoted]
    for n in range(len(words) - 1):
        # "...: a full dozen, fletched in grey" / "— just two." : a count set off after a colon or dash
        if words[n] in (":", "—", "–"):
            q = n + 1
            while q < len(words) and words[q] in ("a", "an", "just", "only", "full", "bare", "mere", "whole"):
                q += 1
            w = words[q] if q < len(words) else ""
            num = int(w) if w.isdigit() else _NUMBERS.get(w) if w not in ("a", "an") else None
            if num is not None and (q + 1 >= len(words) or words[q + 1] in (",", ".", ";", "!", "left")):
                return num, True
    for n in range(len(words) - 2):
        w = words[n]
        num = int(w) if w.isdigit() else _NUMBERS.get(w) if w not in ("a", "an") else None
        if num is None:
            continue
        if words[n + 1 : n + 3] in (["of", "them"], ["in", "all"]) or (
            n > 0 and words[n - 1] in (":", ",", "—") and words[n + 1 : n + 2] in (["left"], ["remaining"])
        ):
            return num, True
    return None, False


_ITEM_HERE = frozenset(
    {"sit", "rest", "lie", "hang", "stand", "wait", "gleam", "glint", "glitter", "shine", "lean"}
)


def _item_is_here(s: _Sentence, it: Mention) -> bool:
    """An item opening its clause, then a present-tense verb of lying about ("sits", "gleams", "is on")."""
    c0, _ = s.clause_of(it.i)
    first = it.i == c0 or (it.i - 1 >= s.a and s.tokens[it.i - 1].low in _SUBJECT_LEAD)
    if not first or it.j >= s.b or it.poss:
        return False
    form = s.tokens[it.j].low
    lemma = VERBS.get(form) or (form[:-1] if form.endswith("s") else "")
    return lemma in _ITEM_HERE and form.endswith("s") and not _is_past(form, lemma)


def _holdings(s: _Sentence) -> None:
    """holds(holder, item, qty?) from possessives, pronouns and handling verbs; hand-overs as details."""
    toks = s.tokens
    items = [m for m in s.mentions if s.kind(m) == "item" and not m.quoted]
    if not items:
        return
    creatures = s.creatures()
    for it in items:
        iid = it.id
        assert iid is not None
        holder: Mention | None = None
        qlo = it.i
        # Mira's silver dagger / Greyrock's last three arrows
        k = it.i - 1
        while k >= s.a and (
            toks[k].low in _NUMBERS
            or toks[k].low.isdigit()
            or toks[k].low
            in ("last", "remaining", "only", "final", "trusty", "old", "own", "spare", "prized", "precious")
        ):
            k -= 1
        if k - 1 >= s.a and toks[k].low == "of" and toks[k - 1].low in _BUNDLES:
            k -= 2  # "Lorcan's bundle of torches"
        poss = next((c for c in creatures if c.j - 1 == k and c.poss), None)
        pronoun = k >= s.a and toks[k].low in _PRONOUN_POSS
        verb_lemma = ""
        subject = None
        before = [c for c in creatures if c.j <= it.i and not c.poss]
        if (
            not before
            and creatures
            and creatures[0].i < it.i
            and creatures[0].j < s.b
            and toks[creatures[0].j].low in _BODY_NOUNS
        ):
            before = [creatures[0]]  # "Kestrel's fingers brush the bone flute"
        if before:
            subject = before[-1]
            between = [t.low for t in toks[subject.j : it.i]]
            verb_lemma = next(
                (VERBS.get(w) or "hold" for w in reversed(between) if w in VERBS or w in ("has", "have")), ""
            )
        elif pronoun and creatures:
            subject = creatures[0]
        elif pronoun and s.ex.antecedent.get(s.a):
            # "His last two water skins ..." continues the previous sentence's subject
            ante = s.ex.antecedent[s.a]
            subject = Mention((ante,), it.i, it.i, False, False, "public")
        trailing = [t.low for t in toks[it.j : min(s.b, it.j + 5)]]
        if (
            not pronoun
            and subject is not None
            and any(
                trailing[j] in _TRAILING_PREPS
                and trailing[j + 1] in _PRONOUN_POSS
                and trailing[j + 2] in _CARRIED_IN
                for j in range(max(0, len(trailing) - 2))
            )
        ):
            pronoun = True  # "the dagger at his hip", "turns it over in his hands": carried, not in a wound
        # "the crown rests on the duke's brow", "the dagger at Mira's hip": worn or carried by that owner
        worn = next(
            (
                x
                for x in creatures
                if x.poss
                and it.j < x.i <= it.j + 4
                and toks[x.i - 1].low in _TRAILING_PREPS
                and x.j < s.b
                and toks[x.j].low in _CARRIED_IN | _BODY_NOUNS | {"brow", "neck", "finger", "head", "belt"}
            ),
            None,
        )
        if poss is not None:
            holder, qlo = poss, poss.j
        elif worn is not None and not (subject is not None and verb_lemma in _GIVE_VERBS):
            holder, qlo = worn, it.i
        elif subject is not None and subject.i == subject.j == it.i:
            holder, qlo = subject, k + 1
        elif subject is not None and (pronoun or verb_lemma in _HOLD_VERBS | _GIVE_VERBS | _ACQUIRE_VERBS):
            holder, qlo = subject, subject.j
        if holder is None and subject is None and not pronoun and _item_is_here(s, it):
            # "The poisoned chalice sits on a velvet cushion": the item is told to exist somewhere now
            s.claim("holds", ("*somewhere*", iid), it, s.modality(it), "exists")
            continue
        if holder is None or holder.id is None:
            continue
        qty, exact = _number(toks, qlo, it.i)
        if qty is None:
            qty, exact = _count_after(s, it.j)
        if qty is None and exact and not toks[it.j - 1].low.endswith("s"):
            qty = 1
        if (qty is not None and poss is not None) or pronoun:
            exact = exact or qty is not None
        mod = s.modality(holder)
        if "sold" in s.narr or "pawned" in s.narr or "lost" in s.narr.split():
            mod = Modality(mod.in_dialogue, mod.hypothetical, True, mod.rumour, mod.negated)
        detail = ""
        if verb_lemma in _GIVE_VERBS and holder is subject:
            to = next((c for c in creatures if c.i > it.j and c.id != holder.id), None)
            if to is not None and to.id:
                detail = f"give:{to.id}"
        elif verb_lemma in _ACQUIRE_VERBS and holder is subject and poss is None:
            detail = "acquire"
        if qty is not None:
            detail = (detail + ";" if detail else "") + (f"qty={qty}" if exact else f"qty>={qty}")
        s.claim("holds", (holder.id, iid), holder, mod, detail)
