"""Known names in the text: the snapshot's name index, mentions, the ``Extraction`` they start, and pronouns.

:func:`name_index` builds one n-gram matcher per snapshot (cached on it) for entity names and aliases, fact
tells and thread aliases; :func:`find_mentions` looks every token up in it, longest first. ``_pronouns``
turns an opening "He"/"She"/"It" into a mention of the previous sentence's unambiguous subject. Imports
:mod:`.lexicon` and :mod:`.text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ledger.check.claims import Claim
from ledger.check.extract.lexicon import _BODY_NOUNS
from ledger.check.extract.text import Token, _key
from ledger.check.snapshot import WorldSnapshot


@dataclass(frozen=True, slots=True)
class Mention:
    """A known name found in the text: the entity ids it may denote and the token range it covers."""

    ids: tuple[str, ...]
    i: int
    j: int  # exclusive token index
    poss: bool
    quoted: bool
    alias_visibility: str

    @property
    def id(self) -> str | None:
        """The entity, when the name is unambiguous."""
        return self.ids[0] if len(self.ids) == 1 else None


@dataclass(frozen=True, slots=True)
class NameIndex:
    """Lowercased token n-grams -> (entity id, alias visibility); tells of facts; thread aliases."""

    names: Mapping[tuple[str, ...], tuple[tuple[str, str], ...]]
    tells: Mapping[tuple[str, ...], tuple[str, ...]]
    threads: Mapping[tuple[str, ...], tuple[str, ...]]
    longest: int
    starts: frozenset[str] = frozenset()  # first words of every phrase: most words are skipped at once


def name_index(snapshot: WorldSnapshot) -> NameIndex:
    """The snapshot's name matcher, built on first use and cached on the snapshot."""
    cached = snapshot.cache.get("names")
    if isinstance(cached, NameIndex):
        return cached
    names: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    longest = 1

    def add(phrase: str, eid: str, vis: str) -> None:
        nonlocal longest
        k = _key(phrase)
        if not k:
            return
        bucket = names.setdefault(k, [])
        if all(b[0] != eid for b in bucket):
            bucket.append((eid, vis))
        longest = max(longest, len(k))

    for e in snapshot.entities.values():
        for alias in e.names():
            vis = alias.visibility if alias.visibility != "public" else e.visibility
            add(alias.name, e.id, vis)
            words = alias.name.split()
            # "the Gilded Anchor" is also "Gilded Anchor"; "the merchant" is never just "merchant".
            if len(words) > 1 and words[0].lower() == "the" and any(w[:1].isupper() for w in words[1:]):
                add(" ".join(words[1:]), e.id, vis)
    tells: dict[tuple[str, ...], list[str]] = {}
    for f in snapshot.facts.values():
        for t in f.tells:
            k = _key(t)
            if k:
                tells.setdefault(k, []).append(f.key)
                longest = max(longest, len(k))
    threads: dict[tuple[str, ...], list[str]] = {}
    for th in snapshot.threads.values():
        for a in th.aliases:
            k = _key(a)
            if k:
                threads.setdefault(k, []).append(th.id)
                longest = max(longest, len(k))
    index = NameIndex(
        names={k: tuple(v) for k, v in names.items()},
        tells={k: tuple(v) for k, v in tells.items()},
        threads={k: tuple(v) for k, v in threads.items()},
        longest=longest,
        starts=frozenset(k[0] for table in (names, tells, threads) for k in table),
    )
    snapshot.cache["names"] = index
    return index


@dataclass
class Extraction:
    """Everything the extractor found in one narration."""

    tokens: list[Token]
    mentions: list[Mention]
    claims: list[Claim] = field(default_factory=list)
    tells: list[tuple[str, int, int]] = field(default_factory=list)  # fact key, char span
    thread_mentions: list[tuple[str, int, int]] = field(default_factory=list)
    new_entities: list[str] = field(default_factory=list)
    sentences: list[tuple[int, int]] = field(default_factory=list)  # char spans
    antecedent: dict[int, str] = field(default_factory=dict)  # sentence start token -> previous subject
    it_antecedent: dict[int, str] = field(default_factory=dict)  # sentence start -> previous lone monster
    present_tense: bool = False  # the narration is told in the present tense


_EPITHETS = frozenset({"dead", "late", "slain", "fallen", "murdered", "drowned", "poor", "old", "wounded"})


def find_mentions(
    tokens: list[Token], index: NameIndex, snapshot: WorldSnapshot
) -> tuple[list[Mention], list[tuple[str, int, int]], list[tuple[str, int, int]]]:
    """Longest-first lookup of names, fact tells and thread aliases at every token."""
    mentions: list[Mention] = []
    tells: list[tuple[str, int, int]] = []
    threads: list[tuple[str, int, int]] = []
    lows = [t.low for t in tokens]
    n = len(tokens)
    present = snapshot.scene.present
    best: list[int] = [0] * n  # length of the longest name starting at each token
    epithet: dict[int, tuple[str, ...]] = {}  # token -> the alias key once its epithet is dropped
    starts = index.starts
    for i in range(n):
        if lows[i] not in starts:
            continue
        for size in range(min(index.longest, n - i), 0, -1):
            key = tuple(lows[i : i + size])
            span = (tokens[i].start, tokens[i + size - 1].end)
            for fk in index.tells.get(key, ()):
                tells.append((fk, *span))
            for tid in index.threads.get(key, ()):
                threads.append((tid, *span))
            if not best[i] and key in index.names:
                best[i] = size
        # "the dead merchant", "the late abbot": an epithet inside a "the ..." alias still names it
        if not best[i] and lows[i] == "the" and i + 2 < n and lows[i + 1] in _EPITHETS:
            for size in range(min(index.longest, n - i - 1), 1, -1):
                key = ("the", *lows[i + 2 : i + size + 1])
                if key in index.names:
                    best[i] = size + 1
                    epithet[i] = key
                    break
    i = 0
    while i < n:
        size = best[i]
        if not size:
            i += 1
            continue
        # "the crypt map": "crypt map" (an item) beats "the crypt" (a place) when it reaches further
        if any(best[k] and k + best[k] > i + size for k in range(i + 1, i + size)):
            i += 1
            continue
        found = index.names[epithet.get(i) or tuple(lows[i : i + size])]
        ids = tuple(eid for eid, _ in found)
        if len(ids) > 1:  # "the guard": prefer whoever is in the scene
            here = tuple(eid for eid in ids if eid in present)
            ids = here if here else ids
        vis = next((v for eid, v in found if eid == ids[0]), "public")
        mentions.append(Mention(ids, i, i + size, tokens[i + size - 1].poss, tokens[i].quoted, vis))
        i += size
    return mentions, tells, threads


def _pronouns(ex: Extraction, snap: WorldSnapshot, sentences: list[tuple[int, int]]) -> None:
    """A sentence opening with "He"/"She" (or "His eyes ...") continues the previous sentence's subject.

    Only unambiguous antecedents count: the named subject opening the previous sentence, or else its only
    named person; "it" is the previous sentence's only monster. Monsters are never "he" or "she".
    """
    added: list[Mention] = []
    prev_subject: str | None = None
    prev_monster: str | None = None
    prev_people: list[str] = []
    toks = ex.tokens

    def pick(word: str) -> str | None:
        """The previous sentence's subject if the pronoun fits it, else its only person it fits."""
        if word not in ("he", "she", "his", "her"):
            return None
        if prev_subject is not None and fits(prev_subject, word):
            return prev_subject
        fitting = [p for p in prev_people if fits(p, word)]
        known = all(snap.entities[p].pronoun is not None for p in fitting if p in snap.entities)
        return fitting[0] if len(fitting) == 1 and known else None

    def kind(eid: str | None) -> str:
        e = snap.entities.get(eid or "")
        return e.kind if e else ""

    def fits(eid: str | None, word: str) -> bool:
        """ "she" cannot be a man, "he" cannot be a woman, and neither is a monster."""
        e = snap.entities.get(eid or "")
        if e is None:
            return False
        want = "he" if word in ("he", "his", "him") else "she"
        if e.pronoun is not None:
            return e.pronoun in (want, "they")
        return e.kind != "monster"

    for a, b in sentences:
        if prev_subject is not None:
            ex.antecedent[a] = prev_subject
        if prev_monster is not None:
            ex.it_antecedent[a] = prev_monster
        here = [m for m in ex.mentions if a <= m.i < b and not m.quoted and m.id]
        creatures = [m for m in here if kind(m.id) in ("pc", "npc", "monster")]
        first_named = creatures[0].i if creatures else b
        # the pronoun opens the sentence, follows a quote ('"...," she says') or a lead-in ("Satisfied, she")
        k = next((q for q in range(a, b) if not toks[q].quoted), None)
        if k is not None and toks[k].text == "," and k > a:
            k += 1
        if k is not None and toks[k].low not in ("he", "she", "his", "her", "it"):
            comma = next((q for q in range(k, min(b, k + 5)) if toks[q].text == ","), None)
            if comma is not None and comma + 1 < b and toks[comma + 1].low in ("he", "she"):
                k = comma + 1
        continued = False
        if k is not None and k < first_named and k + 1 <= b:
            low = toks[k].low
            nxt = toks[k + 1].low if k + 1 < b else ""
            chosen = pick(low)
            if low in ("he", "she") and chosen is not None:
                added.append(Mention((chosen,), k, k + 1, False, False, "public"))
                continued = True
            elif low in ("his", "her") and nxt in _BODY_NOUNS and chosen is not None:
                added.append(Mention((chosen,), k, k + 1, True, False, "public"))
                continued = True
            if continued:
                prev_subject = chosen
            elif low == "it" and prev_monster is not None:
                added.append(Mention((prev_monster,), k, k + 1, False, False, "public"))
        # "It is Tobin, and he is limping": a pronoun opening a later clause of the same sentence is the one
        # person named before it whom it fits
        for q in range(max(a + 1, first_named + 1), b):
            if toks[q].quoted or toks[q].low not in ("he", "she") or any(m.i == q for m in ex.mentions):
                continue
            if toks[q - 1].low not in ("and", "but", ",", ";", "then", "while", "as", "when", "until"):
                continue
            named = {m.id for m in creatures if m.i < q and m.id is not None}
            fitting = [p for p in named if fits(p, toks[q].low)]
            if len(named) == 1 and len(fitting) == 1 and snap.entities[fitting[0]].pronoun is not None:
                added.append(Mention((fitting[0],), q, q + 1, False, False, "public"))
        monsters = {m.id for m in creatures if kind(m.id) == "monster"}
        prev_monster = next(iter(monsters)) if len(monsters) == 1 else None
        if not continued:
            opener = creatures[0] if creatures and creatures[0].i == a else None
            if (
                opener is not None
                and opener.poss
                and not (opener.j < b and toks[opener.j].low in _BODY_NOUNS)
            ):
                opener = None
            people = [p for p in dict.fromkeys(m.id for m in creatures) if p and kind(p) in ("pc", "npc")]
            first: list[str] = [opener.id] if opener is not None and opener.id else []
            prev_people = [*first, *(p for p in people if p not in first)]
            if opener is not None and kind(opener.id) != "monster":
                prev_subject = opener.id
            elif len(people) == 1:
                prev_subject = people[0]
            else:
                prev_subject = None
    if added:
        ex.mentions = sorted(ex.mentions + added, key=lambda m: m.i)
