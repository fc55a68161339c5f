"""Known names in the text: the snapshot's name index, mentions, the ``Extraction`` they start, and pronouns.

:func:`name_index` builds one n-gram matcher per snapshot (cached on it) for entity names and aliases, fact
tells and thread aliases; :func:`find_mentions` looks every token up in it, longest first. ``_pronouns``
turns an opening "He"/"She"/"It" into a mention of the previous sentence's unambiguous subject. Imports
:mod:`.lexicon` and :mod:`.text`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field

from ledger.check.claims import Claim
from ledger.check.extract.lexicon import _BODY_NOUNS, _NUMBERS
from ledger.check.extract.linker import (
    AGES,
    DETERMINERS,
    GENDER_NOUNS,
    HONORIFICS,
    age_degree,
    alias_title_variants,
    gender_of,
    is_common_word,
    item_variants,
    narrow,
    person_parts,
    person_variants,
    role_variants,
    title_variants,
)
from ledger.check.extract.relative_names import in_reduced_relative
from ledger.check.extract.speakers import fronted_subject_at, turn_taker
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
    derived: bool = False  # named by a variant the linker derived, not a recorded name or alias
    plural: bool = False  # an item named in the plural ("gold nuggets")
    # the entity, when the name is unambiguous: set once here, since the passes ask it thousands of times
    id: str | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", self.ids[0] if len(self.ids) == 1 else None)


@dataclass(frozen=True, slots=True)
class NameIndex:
    """Lowercased token n-grams -> (entity id, alias visibility); tells of facts; thread aliases."""

    names: Mapping[tuple[str, ...], tuple[tuple[str, str], ...]]
    tells: Mapping[tuple[str, ...], tuple[str, ...]]
    threads: Mapping[tuple[str, ...], tuple[str, ...]]
    longest: int
    starts: frozenset[str] = frozenset()  # first words of every phrase: most words are skipped at once
    # derived variants (:mod:`.linker`): a person's name parts and role heads, an item's shorter and
    # inflected forms (with whether the form is plural); a recorded name always wins over these
    people: Mapping[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    items: Mapping[tuple[str, ...], tuple[tuple[str, bool], ...]] = field(default_factory=dict)
    derived_longest: int = 0
    derived_starts: frozenset[str] = frozenset()  # first words of derived forms, and their prefixes
    # first word -> the longest recorded phrase starting with it: most words start only short names
    reach: Mapping[str, int] = field(default_factory=dict)
    # what was read with this index and holds while it does (the leak check's secrets, by fact): a round's
    # snapshot that takes the previous index reads only its new facts; it lives and dies with the index
    read: dict[tuple[object, ...], object] = field(default_factory=dict, compare=False, hash=False)


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

    owned: set[tuple[str, ...]] = set()  # keys only a possessive alias gave ("Suri's" for the galley)
    plain: set[tuple[str, ...]] = set()
    for e in snapshot.entities.values():
        for alias in e.names():
            vis = alias.visibility if alias.visibility != "public" else e.visibility
            add(alias.name, e.id, vis)
            words = alias.name.split()
            if words and words[-1].endswith(("'s", "’s")):
                owned.add(_key(alias.name))  # "Suri's" (the galley): Suri herself is still a person's name
            else:
                plain.add(_key(alias.name))
            # "the Gilded Anchor" is also "Gilded Anchor"; "the merchant" is never just "merchant".
            if len(words) > 1 and words[0].lower() == "the" and any(w[:1].isupper() for w in words[1:]):
                add(" ".join(words[1:]), e.id, vis)
    people: dict[tuple[str, ...], list[str]] = {}
    items: dict[tuple[str, ...], list[tuple[str, bool]]] = {}
    derived_longest = 0
    for e in snapshot.entities.values():
        if e.visibility != "public":
            continue  # a part of a hidden name must not link (nor leak) anything
        for k in person_variants(e) | role_variants(e) | title_variants(e) | alias_title_variants(e):
            if k not in names or (k in owned and k not in plain):
                people.setdefault(k, []).append(e.id)
                derived_longest = max(derived_longest, len(k))
        for k, plural in item_variants(e).items():
            if k not in names:
                items.setdefault(k, []).append((e.id, plural))
                derived_longest = max(derived_longest, len(k))
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
            # "the arrears" is also "the company's arrears", "Bram's back pay" also "his back pay": a
            # narrator puts any determiner or owner before the words that name the matter
            bare = k[1:] if k and (k[0] in _DETERMINERS or a.split()[0].endswith(("'s", "’s"))) else ()
            for key in (k, bare if bare and bare[-1] not in _THREAD_KIND_WORDS else ()):
                if key and th.id not in threads.get(key, ()):
                    threads.setdefault(key, []).append(th.id)
                    longest = max(longest, len(key))
    index = NameIndex(
        names={k: tuple(v) for k, v in names.items()},
        tells={k: tuple(v) for k, v in tells.items()},
        threads={k: tuple(v) for k, v in threads.items()},
        longest=longest,
        starts=frozenset(k[0] for table in (names, tells, threads) for k in table),
        reach=_reach(names, tells, threads),
        people={k: tuple(v) for k, v in people.items()},
        items={k: tuple(v) for k, v in items.items()},
        derived_longest=derived_longest,
        derived_starts=frozenset(k[0] for table in (people, items) for k in table)
        | AGES
        | frozenset(HONORIFICS)
        | {"the"},
    )
    snapshot.cache["names"] = index
    return index


def _owner_not_place(tokens: list[Token], i: int, size: int, best: int) -> bool:
    """A person's name as long as the possessive alias of a place named after them ("Suri's" for her
    galley): the bare name ("Suri sees you") and "Suri's got", "Suri's been" (has) are the person."""
    if size != best:
        return False
    end = tokens[i + size - 1]
    nxt = tokens[i + size].low if i + size < len(tokens) else ""
    return not end.poss or nxt in ("got", "been", "gotten")


def _called_by_surname(snap: WorldSnapshot, family: str, ids: tuple[str, ...]) -> tuple[str, ...]:
    """Of several people sharing the family name ``family``, those a public alias calls by a title and that
    name ("Bosun Teague", "Captain Vance"): kin who share a surname are told apart by given name, and the
    bare surname is the one the others call so."""
    out = []
    for eid in ids:
        e = snap.entities[eid]
        parts = person_parts(e)
        for a in e.aliases:
            words = a.name.lower().split()
            if (
                a.visibility == "public"
                and len(words) >= 2
                and words[-1] == family
                and (parts is None or parts.given not in words)
                and a.name.split()[0][:1].isupper()
            ):
                out.append(eid)
                break
    return tuple(out)


def _reach(*tables: Mapping[tuple[str, ...], object]) -> dict[str, int]:
    out: dict[str, int] = {}
    for table in tables:
        for k in table:
            if len(k) > out.get(k[0], 0):
                out[k[0]] = len(k)
    return out


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
    # creature -> the known place a sentence's opening phrase put them in ("Up in the wheelhouse, Sol
    # steers"): the narration has cut away there, and their later acts with no place of their own stay there
    placed: dict[str, str] = field(default_factory=dict)
    _starts: tuple[int, list[int]] | None = field(default=None, repr=False, compare=False)

    def between(self, lo: int, hi: int) -> list[Mention]:
        """The mentions starting in tokens [lo, hi), found by bisection (mentions are kept in text order).

        The meaning passes ask this once per sentence; scanning every mention of the narration each time
        made a long narration's check grow with the square of its length.
        """
        key = id(self.mentions)
        if self._starts is None or self._starts[0] != key or len(self._starts[1]) != len(self.mentions):
            self._starts = (key, [m.i for m in self.mentions])
        starts = self._starts[1]
        return self.mentions[bisect_left(starts, lo) : bisect_left(starts, hi)]


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
        for size in range(min(index.reach.get(lows[i], index.longest), n - i), 0, -1):
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
    derived: dict[int, tuple[int, tuple[str, ...], bool]] = {}  # token -> (size, ids, plural)
    if index.people or index.items:
        dstarts = index.derived_starts
        for i in range(n):
            if lows[i] not in dstarts:
                continue
            found_d = _derived_at(tokens, lows, i, index, snapshot)
            if found_d is not None and (
                found_d[0] > best[i] or _owner_not_place(tokens, i, found_d[0], best[i])
            ):
                derived[i] = found_d
                best[i] = found_d[0]
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
        end = tokens[i + size - 1]
        if i in derived:
            _, ids, plural = derived[i]
            if size == 1 and len(ids) > 1 and len(by := _called_by_surname(snapshot, lows[i], ids)) == 1:
                ids = by  # a bare "Teague" is Bosun Teague, not his son Pip Teague
            mentions.append(Mention(ids, i, i + size, end.poss, tokens[i].quoted, "public", True, plural))
            i += size
            continue
        found = index.names[epithet.get(i) or tuple(lows[i : i + size])]
        ids = tuple(eid for eid, _ in found)
        if len(ids) > 1:  # "the guard": prefer whoever is in the scene
            here = tuple(eid for eid in ids if eid in present)
            ids = here if here else ids
        vis = next((v for eid, v in found if eid == ids[0]), "public")
        mentions.append(Mention(ids, i, i + size, end.poss, tokens[i].quoted, vis))
        i += size
    if snapshot.edges:
        from ledger.check.extract.kin_phrases import _kin_phrases  # it reads this module's Mention

        mentions = _kin_phrases(mentions, tokens, snapshot)
    return mentions, tells, threads


_DETERMINERS = DETERMINERS
# a thread's kind words: an alias stripped to one of these ("the debt") names every thread of the kind
_THREAD_KIND_WORDS = frozenset(
    {"debt", "favour", "favor", "oath", "vow", "bounty", "quest", "promise", "boon"}
)
_OPENERS = frozenset({".", "!", "?", ":", ";", '"', "“", "”", "—", "–", "("})
_PRONOUN_GENDER = {"he": "he", "him": "he", "his": "he", "himself": "he", "she": "she", "her": "she"}
_MAX_SHARED = 64  # a derived form more records share than this names nothing (it is a common noun)


def _pronoun_of(snap: WorldSnapshot, eid: str | None) -> str | None:
    e = snap.entities.get(eid or "")
    return e.pronoun if e is not None else None


def _sentence_start(tokens: list[Token], i: int) -> bool:
    return i == 0 or tokens[i - 1].text in _OPENERS or tokens[i - 1].quoted != tokens[i].quoted


def _derived_at(
    tokens: list[Token], lows: list[str], i: int, index: NameIndex, snap: WorldSnapshot
) -> tuple[int, tuple[str, ...], bool] | None:
    """The derived name starting at token ``i``: (tokens covered, candidate ids, plural), or None.

    A person: ``[the] [old|young] [honorific] NAME-PART [lord|lady|man|...]`` where NAME-PART is a derived
    variant (or, after a prefix, a recorded name) and starts with a capital letter; a one-word part that is
    also an English word never opens a sentence ("Dusk comes down"). An item: a derived form after a
    determiner, a number or a possessive. Candidates are narrowed by the honorific's or noun's gender, the
    age word, the scene, and for a person by the first he/she pronoun later in the sentence."""
    n = len(tokens)
    found = _derived_person(tokens, lows, i, index, snap)
    if found is not None:
        return found
    prev = tokens[i - 1] if i > 0 else None
    if prev is None or not (
        prev.low in _DETERMINERS or prev.low in _NUMBERS or prev.low.isdigit() or prev.poss
    ):
        return None
    if prev.poss and not any(
        tuple(lows[i - size : i]) in index.names or tuple(lows[i - size : i]) in index.people
        for size in range(1, min(i, 4) + 1)
    ):
        return None  # "the bursar's letters": someone the world does not know owns them
    for size in range(min(index.derived_longest, n - i), 0, -1):
        cands = index.items.get(tuple(lows[i : i + size]))
        if not cands or len(cands) > _MAX_SHARED:
            continue
        ids = tuple(dict.fromkeys(eid for eid, _ in cands))
        if len(ids) > 1:
            seen = [eid for eid in ids if _in_view(eid, snap)]
            ids = tuple(seen) or ids
        plural = next(p for eid, p in cands if eid == ids[0])
        if size == 1 and plural and not prev.poss and not any(_in_view(eid, snap) for eid in ids):
            # a bare plural head noun ("kneels by the crates") for an item nowhere in the scene is the
            # common noun, not that record told in the plural
            return None
        return size, ids, plural
    return None


def _in_view(item: str, snap: WorldSnapshot) -> bool:
    """An item held by someone in the scene or lying at the scene's place."""
    return any(h in snap.scene.present or h == snap.scene.location for h in snap.holders_of(item))


def _derived_person(
    tokens: list[Token], lows: list[str], i: int, index: NameIndex, snap: WorldSnapshot
) -> tuple[int, tuple[str, ...], bool] | None:
    n = len(tokens)
    k = i
    if (
        i > 0
        and tokens[i].text[:1].isupper()
        and (
            (lows[i - 1] in HONORIFICS and tokens[i - 1].quoted == tokens[i].quoted)
            or (lows[i - 1] in AGES and _age_epithet(tokens, i - 1))
            or (i > 1 and lows[i - 2] == "the" and age_degree(lows[i - 1]) is not None)
        )
    ):
        return None  # "Old Fenn", "Mr Fenn", "the elder Fenn": read with the word before, or not at all
    the = lows[k] == "the"
    if the:
        role = _role_at(tokens, lows, i, index, snap)
        if role is not None:
            return role
        k += 1
    age: str | None = None
    compared = the and k < n and age_degree(lows[k]) is not None
    if k < n and (compared or (lows[k] in AGES and (the or _age_epithet(tokens, k)))):
        age = age_degree(lows[k]) or lows[k]
        k += 1
    gender: str | None = None
    honorific: str | None = None
    if k + 1 < n and lows[k] in HONORIFICS and tokens[k + 1].text[:1].isupper():
        gender = HONORIFICS[lows[k]]
        honorific = lows[k]
        k += 1
    prefixed = k > i
    if k >= n or not tokens[k].text[:1].isupper() or tokens[k].quoted != tokens[i].quoted:
        return None
    for size in range(min(max(index.derived_longest, index.longest), n - k), 0, -1):
        key = tuple(lows[k : k + size])
        ids = index.people.get(key, ())
        if not ids and prefixed and key in index.names:
            ids = tuple(e for e, _ in index.names[key] if snap.entities[e].kind in ("pc", "npc", "monster"))
        if not ids or len(ids) > _MAX_SHARED:
            continue
        end = k + size
        if the:
            # "the young Aelindor lord": after "the" only a family name with a person noun names someone,
            # or a name after a compared age ("the elder Tachibana": the older of those who share it)
            if end < n and lows[end] in GENDER_NOUNS and not tokens[end - 1].poss:
                gender = gender or GENDER_NOUNS[lows[end]]
                end += 1
            elif not compared:
                return None
        elif not prefixed and size == 1 and _sentence_start(tokens, i) and is_common_word(key[0]):
            # "Dusk comes down" is the word, unless someone of the scene is called so ("Finch lounges",
            # "Quill and the bosun ..."): linking one who is here costs nothing if the word was meant, since
            # being here and acting is what the record says of them
            if not any(e in snap.scene.present for e in ids):
                return None
            ids = tuple(e for e in ids if e in snap.scene.present)
        cands = narrow(ids, snap, gender=gender, age=age, present_first=False)
        if age is not None and len(cands) > 1:
            from ledger.check.extract.kin_phrases import by_age  # it reads this module's Mention

            ranked = by_age(cands, snap, age)
            if compared and len(ranked) != 1:
                return None  # "the elder Vance" of two Vances the records do not rank: nobody
            # "Old Brandt" of a father and son is the father, whoever of them is in the scene
            cands = ranked if len(ranked) == 1 else cands
        if len(cands) > 1 and honorific is not None:
            # "Master Tsuro": the one whose recorded name carries that title, not a namesake of the family
            titled = tuple(c for c in cands if (p := person_parts(snap.entities[c])) and p.title == honorific)
            cands = titled or cands
        if len(cands) > 1:
            cands = _by_pronoun(tokens, lows, end, cands, snap)
        if len(cands) > 1 and (age is not None or gender is not None):
            # "old Fenn" of two brothers, "Mr Fenn" of two men: the word was meant to tell them apart and
            # does not; who stands in the scene is no answer to it (the dead father is seldom there)
            return None
        if len(cands) > 1:
            cands = narrow(cands, snap)
        if not cands:
            return None
        return end - i, cands, False
    return None


def _age_epithet(tokens: list[Token], k: int) -> bool:
    """True when the age word at ``k`` is an epithet before a name: capitalised ("Old Fisk"), or in lower
    case mid-sentence with no article or possessive before it ("old Hargreave bellows"), not an adjective
    of a thing named after the family ("an old Hargreave poster", "his old Hargreave coat")."""
    if tokens[k].text[:1].isupper():
        return True
    prev = tokens[k - 1] if k > 0 else None
    return prev is None or not (prev.poss or prev.low in _DETERMINERS or prev.low in ("a", "an"))


def _role_at(
    tokens: list[Token], lows: list[str], i: int, index: NameIndex, snap: WorldSnapshot
) -> tuple[int, tuple[str, ...], bool] | None:
    """ "the factor" (an alias's head), "the sheriff", "the riding officer" (the office a recorded name
    opens with): a role noun after "the", in either case, naming the one record that holds it once the
    sentence's pronoun and the scene have narrowed the field; never before "of" ("the captain of the watch"
    is another office)."""
    n = len(tokens)
    for size in range(min(index.derived_longest, n - i), 1, -1):
        key = tuple(lows[i : i + size])
        ids = index.people.get(key, ())
        if (
            not ids
            or len(ids) > _MAX_SHARED
            or any(t.quoted != tokens[i].quoted for t in tokens[i : i + size])
        ):
            continue
        end = i + size
        if end < n and lows[end] == "of" and not tokens[end - 1].poss:
            return None
        cands = narrow(ids, snap, present_first=False)
        if len(cands) > 1:
            cands = _by_pronoun(tokens, lows, end, cands, snap)
        if len(cands) > 1:
            cands = narrow(cands, snap)
        return (size, cands, False) if len(cands) == 1 else None
    return None


def _by_pronoun(
    tokens: list[Token], lows: list[str], end: int, cands: tuple[str, ...], snap: WorldSnapshot
) -> tuple[str, ...]:
    """Several candidates: the first he/she pronoun later in the sentence may pick one ("Young Ashcombe
    lounges ... with his hands in his pockets")."""
    for q in range(end, min(len(tokens), end + 20)):
        if tokens[q].text in ".!?" or tokens[q].quoted:
            break
        want = _PRONOUN_GENDER.get(lows[q])
        if want is None:
            continue
        fit = tuple(c for c in cands if gender_of(snap.entities[c]) == want)
        return fit if len(fit) == 1 else cands
    return cands


# words opening a subordinate clause before the main one ("As Tolliver works, Nils ...")
_SUBORDINATORS = frozenset({"as", "when", "while", "after", "before", "once", "though", "although", "since"})


def _unnamed_subject(toks: list[Token], a: int, first_named: int) -> str | None:
    """The pronoun of an unnamed person opening the sentence before anyone named: "The boy grins at ...",
    "A tall woman hands Brann ...", "The old man ..." (a determiner, up to two modifiers, a person noun)."""
    if toks[a].quoted or toks[a].low not in ("the", "a", "an"):
        return None
    for q in range(a + 1, min(a + 4, first_named)):
        if toks[q].quoted or not toks[q].text.islower():
            return None
        gender = GENDER_NOUNS.get(toks[q].low)
        if gender is not None:
            return gender
    return None


_SUBJECT_PRONOUNS = frozenset({"he", "she", "they", "i", "we", "you"})


def _backgrounded(
    toks: list[Token], a: int, b: int, creatures: list[Mention]
) -> tuple[frozenset[str], str | None]:
    """Those named only inside the adverbial clause a sentence opens with ("When the boss looks away she
    bends to her uncle"; "As Tolliver works, Nils ..."): the clause ends at its comma or, with none, at
    the main clause's subject pronoun after the clause's own subject. With them, that main clause's subject
    pronoun, if it opens with one. Nothing for other openings."""
    if toks[a].low not in _SUBORDINATORS or toks[a].quoted:
        return frozenset(), None
    own_subject = False
    end: int | None = None
    for q in range(a + 1, b):
        if toks[q].quoted:
            continue
        if toks[q].text == ",":
            end = q
            break
        if toks[q].low in _SUBJECT_PRONOUNS and own_subject:
            end = q
            break
        own_subject = own_subject or toks[q].low in _SUBJECT_PRONOUNS or any(m.i == q for m in creatures)
    if end is None:
        return frozenset(), None
    inside = {m.id for m in creatures if m.j <= end and m.id}
    main = end + 1 if toks[end].text == "," else end
    pronoun = toks[main].low if main < b and toks[main].low in _SUBJECT_PRONOUNS else None
    return frozenset(inside - {m.id for m in creatures if m.i > end}), pronoun


# words counting some of a group: "one of Hamid's porters"
_PARTITIVES = frozenset(
    {"one", "some", "two", "three", "several", "many", "few", "each", "any", "none", "most"}
)


def _partitive_owner(toks: list[Token], m: Mention, a: int) -> bool:
    """True when mention ``m`` owns the group a partitive counts from ("one of Hamid's porters")."""
    return m.poss and m.i - 2 >= a and toks[m.i - 1].low == "of" and toks[m.i - 2].low in _PARTITIVES


# adverbs that may open a sentence right before its pronoun subject
_LEAD_ADVERBS = frozenset({"then", "now", "still", "later", "finally", "so", "and", "but", "yet", "suddenly"})


def _pronouns(ex: Extraction, snap: WorldSnapshot, sentences: list[tuple[int, int]]) -> None:
    """A sentence opening with "He"/"She" (or "His eyes ...") continues the previous sentence's subject.

    Only unambiguous antecedents count: the named subject opening the previous sentence, or else its only
    named person; "it" is the previous sentence's only monster. Monsters are never "he" or "she".
    """
    added: list[Mention] = []
    prev_subject: str | None = None
    prev_monster: str | None = None
    prev_people: list[str] = []
    prev_background: frozenset[str] = frozenset()  # named only in the previous sentence's fronted clause
    prev_main: str | None = None  # the subject pronoun of that sentence's main clause
    toks = ex.tokens

    def pick(word: str) -> str | None:
        """The previous sentence's subject if the pronoun fits it, else its only person it fits."""
        if word not in ("he", "she", "his", "her"):
            return None
        if prev_subject is not None and fits(prev_subject, word):
            return prev_subject
        fitting = [p for p in prev_people if fits(p, word)]
        if len(fitting) > 1 and prev_main != _PRONOUN_GENDER.get(word):
            # "When the boss looks away she bends to her uncle ... He hears her": one named only in the
            # fronted clause is the background; the main clause's one who fits is whom "he" goes on with
            # (not when the main clause's own subject is a "he": "When Mei calls, he shouts back that he saw
            # the ferryman. Then he spits" goes on with that "he")
            fore = [p for p in fitting if p not in prev_background]
            fitting = fore if len(fore) == 1 else fitting
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
            return e.pronoun == want  # one recorded as they or it is never "he" or "she"
        return e.kind != "monster"

    for n, (a, b) in enumerate(sentences):
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
        if k is not None and k + 1 < b and toks[k].low in _LEAD_ADVERBS and toks[k + 1].low in ("he", "she"):
            k += 1  # "Then she opens the ledger"
        if k is not None and toks[k].low not in ("he", "she", "his", "her", "it"):
            comma = next((q for q in range(k, min(b, k + 5)) if toks[q].text == ","), None)
            if comma is not None and comma + 1 < b and toks[comma + 1].low in ("he", "she"):
                k = comma + 1
        if k is not None and toks[k].low not in ("he", "she", "his", "her", "it"):
            # "With his own hands he eases": the subject behind a fronted phrase goes on from the last one
            q = fronted_subject_at(toks, a, b, frozenset())
            if q is not None and toks[q].low in ("he", "she") and fits(prev_subject, toks[q].low):
                k = q
        continued = False
        if k is not None and k < first_named and k + 1 <= b:
            low = toks[k].low
            nxt = toks[k + 1].low if k + 1 < b else ""
            chosen = pick(low)
            if low in ("he", "she") and n:
                # '"Two weeks," he says' after an exchange of two who fit: the one spoken to answers
                turn = turn_taker(toks, ex.mentions, sentences[n - 1], k, b, fits, low, chosen)
                chosen = turn or chosen
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
        # ("Her voice, when it comes, is low, and she draws the syllables out": the one the sentence opened
        # with by a pronoun counts as named there)
        opened = chosen if continued and k is not None else None
        for q in range(max(a + 1, (k + 1 if opened and k is not None else first_named + 1)), b):
            if toks[q].quoted or toks[q].low not in ("he", "she") or any(m.i == q for m in ex.mentions):
                continue
            if toks[q - 1].low not in ("and", "but", ",", ";", "then", "while", "as", "when", "until"):
                continue
            named = {m.id for m in creatures if m.i < q and m.id is not None}
            named |= {opened} if opened else set()
            fitting = [p for p in named if fits(p, toks[q].low)]
            if len(named) == 1 and len(fitting) == 1 and snap.entities[fitting[0]].pronoun is not None:
                added.append(Mention((fitting[0],), q, q + 1, False, False, "public"))
        # what "it" may stand for next: a monster of no other recorded pronoun, or anyone recorded as "it"
        # (an automaton, a golem, a ship's spirit)
        monsters = {
            m.id
            for m in creatures
            if (kind(m.id) == "monster" and _pronoun_of(snap, m.id) in (None, "it"))
            or _pronoun_of(snap, m.id) == "it"
        }
        prev_monster = next(iter(monsters)) if len(monsters) == 1 else None
        if not continued and toks[b - 1].text == "?" and not toks[b - 1].quoted:
            continue  # "Did the squire's horse come back?": who is asked about is not who acts next
        if (
            not continued
            and not creatures
            and not any(
                toks[q].low in ("he", "she", "they") and not toks[q].quoted and not toks[q].text.isupper()
                for q in range(a, b)
            )
        ):
            # a line of speech, or a sentence naming no one and with no subject pronoun of its own ("Someone
            # has worked him over"), or a message in capitals ("HE OWES ME 4K"): the one spoken of before is
            # still the subject
            continue
        if not continued:
            opener = creatures[0] if creatures and creatures[0].i == a else None
            if opener is None and toks[a].low in _SUBORDINATORS:
                # "As Tolliver ties off the bandage, Nils catches sight of Brisa": the main clause's subject
                comma = next((q for q in range(a, b) if toks[q].text == "," and not toks[q].quoted), b)
                opener = next((m for m in creatures if m.i == comma + 1 and not m.poss), None)
            colon = next((q for q in range(a, b) if toks[q].text == ":" and not toks[q].quoted), b)
            if opener is None and colon < b and not any(m.i < colon and not m.poss for m in creatures):
                # "By the hearth a lean man lights his pipe: Wat Fenner, the poacher": the one an unnamed
                # subject is revealed as, after a colon, is who "he" is next
                opener = next((m for m in creatures if m.i == colon + 1 and not m.poss), None)
            if (
                opener is not None
                and opener.poss
                and not (opener.j < b and toks[opener.j].low in _BODY_NOUNS)
            ):
                opener = None
            # "one of Hamid's porters leans close": the one a partitive's possessor names is not who acts;
            # nor is one named in a reduced relative ("Not the chair Needle died in.")
            people = [
                p
                for p in dict.fromkeys(
                    m.id
                    for m in creatures
                    if not _partitive_owner(toks, m, a) and not in_reduced_relative(toks, m.i, m.j, a)
                )
                if p and kind(p) in ("pc", "npc")
            ]
            first: list[str] = [opener.id] if opener is not None and opener.id else []
            prev_people = [*first, *(p for p in people if p not in first)]
            prev_background, prev_main = _backgrounded(toks, a, b, creatures)
            unnamed = _unnamed_subject(toks, a, first_named) if opener is None else None
            if unnamed is not None:
                # "The boy grins at the shieldman": an unnamed person opens the sentence, so a "he" next is
                # the boy, not the named man he grinned at; only someone of the other pronoun stays a pick
                prev_people = [p for p in people if _pronoun_of(snap, p) not in (unnamed, "they", None)]
                prev_subject = None
            elif opener is not None and kind(opener.id) != "monster":
                prev_subject = opener.id
            elif len(people) == 1:
                prev_subject = people[0]
            else:
                prev_subject = None
    if added:
        ex.mentions = sorted(ex.mentions + added, key=lambda m: m.i)
