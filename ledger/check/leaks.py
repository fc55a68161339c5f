"""Secrets told in other words: the leak check's entity-level and content-level reading of a narration.

A secret fact ("Mother Grell poisons the village well with nightshade") is read once per snapshot into its
*anchors* (the creatures and items it names, its subject first, and any proper name the ledger does not know,
such as "the Ashen Circle") and its *concepts* (every other content word, lemmatised and mapped to a small
class of game-vocabulary synonyms, so "taints", "poisoning" and "belladonna" are one concept; a place
counts as a concept reached by its names and head nouns). A public sentence tells the secret when

- it names every anchor (by name, alias, title, head noun or pronoun) and at least one concept of the
  relation: "The reeve pockets coins from the tithe chest" tells "Reeve Marl steals silver from the tithe
  chest" although no word but "tithe chest" is shared; or
- it names the secret's subject and most of its concepts (three in five, at least two): "The keeper snuffs out
  the light and lets the ships founder on the reef"; or, for a secret that names nobody, most of its concepts
  (at least three).

A concept right after "someone", "whoever" and the like is not held against anybody ("whoever robbed the
tithe chest" accuses no one). Lemmas come from ``lemminflect``, which ships its tables in its wheel
(irregular forms: "stole", "bore", "fled"); the synonym classes are a closed table for the game's
vocabulary. Pure; no I/O.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, TypeVar, cast

from ledger.check.extract import Mention, NameIndex, Token, find_mentions, name_index, tokenize

if TYPE_CHECKING:
    from ledger.check.snapshot import Edge, WorldSnapshot

# Synonym classes of the game's vocabulary (lemmas). A word in no class is its own concept.
_CLASSES: dict[str, str] = {
    "poison": "poison poisoner venom venomous toxin toxic taint contaminate befoul foul nightshade "
    "belladonna hemlock wolfsbane arsenic foxglove envenom adulterate",
    "steal": "steal thief theft rob robber robbery pilfer filch swipe pocket embezzle embezzlement skim "
    "purloin loot plunder burgle burglar pickpocket snatch misappropriate thieve",
    "lead": "lead leader head command commander master chief rule ruler boss helm preside mastermind run",
    "kin": "father mother parent son daughter child sire bore birth bastard offspring heir boy girl kin "
    "kinsman sibling brother sister twin cousin uncle aunt nephew niece fathered mothered grandchild "
    "granddaughter grandson grandfather grandmother grandparent grandsire",
    "spouse": "husband wife spouse marry wed wedded bride groom betroth betrothed",
    "fear": "fear afraid terrify terror terrified dread frighten frightened scared scare fright cower quail "
    "panic horror",
    "forge": "forge forgery forger fake counterfeit fraud fraudulent false fabricate bogus sham phony copy "
    "imitation replica paste",
    "inform": "inform informer informant spy report snitch betray traitor treachery treason tattle denounce "
    "turncoat",
    "debt": "owe debt debtor borrow loan lend creditor repay indebted",
    "money": "silver gold coin crown copper money purse fortune",
    "bribe": "bribe payoff kickback pay paid",
    "extinguish": "douse snuff extinguish quench darken dim smother",
    "light": "light lamp lantern beacon candle wick torch",
    "burn": "burn fire flame flames ash ashes blaze incinerate scorch char stove hearth furnace",
    "ship": "ship vessel boat barque galley sloop hull",
    "wreck": "wreck wrecker wreckage founder aground shipwreck sink scuttle capsize",
    "smuggle": "smuggle smuggler contraband bootleg",
    "liquor": "brandy rum whisky wine ale spirit liquor",
    "record": "record write list note log jot",
    "book": "book ledger logbook journal register tome diary",
    "kill": "kill killer murder murderer slay assassinate assassin strangle",
    "love": "love lover affair adore mistress paramour sweetheart",
    "hate": "hate loathe despise detest resent grudge enemy",
    "hide": "hide conceal stash secrete hidden",
    "cult": "cult cultist worship coven sect",
    "disguise": "disguise impostor masquerade",
    "plot": "plot scheme conspire conspiracy",
    "chest": "chest strongbox coffer casket cashbox",
    "document": "charter deed writ testament will",
}
_CLASS_OF: dict[str, str] = {w: cls for cls, words in _CLASSES.items() for w in words.split()}
# two-word verbs: (lemma, particle) -> class
_PHRASES: dict[tuple[str, str], str] = {
    ("put", "out"): "extinguish",
    ("blow", "out"): "extinguish",
    ("make", "off"): "steal",
    ("run", "aground"): "wreck",
    ("sell", "out"): "inform",
}
# function words and words that only frame a secret ("X is secretly Y")
_STOP = frozenset(
    """a an the and or but so that this these those then than as at by for from in into of on onto to with
    without under over through via is are was were be been being am has have had having do does did
    will would shall should can could may might must he she it they them him her his hers its their
    theirs we us our you your i me my mine who whom whose which what when where why how not no nor
    never all any each every some very own just also only still even secretly secret truth true really
    actually indeed one ones man woman men women there here now ever let get got make made""".split()  # noqa: SIM905
)
_INDEFINITE = frozenset({"someone", "somebody", "whoever", "anyone", "anybody", "nobody", "something"})
_PRONOUNS = {
    "he": "he",
    "him": "he",
    "his": "he",
    "himself": "he",
    "she": "she",
    "her": "she",
    "hers": "she",
    "herself": "she",
}
_CREATURES = frozenset({"pc", "npc", "monster"})
# A secret's concept is also told by these broader ones ("killing his patient" tells a poisoning).
_IMPLIES: dict[str, frozenset[str]] = {"poison": frozenset({"kill"})}
# "will" is a noun after these (the modal verb otherwise): "the newer will", "his lordship's will"
_WILL_NOUN_AFTER = frozenset(
    {"the", "a", "his", "her", "their", "my", "true", "new", "newer", "last", "old", "real", "missing"}
)
# ... and before these, or before a punctuation mark: "the will is gone", "the will, signed ..."
_WILL_NOUN_BEFORE = frozenset({"is", "was", "and", "of", "that", "which", "has", "had", "in", "to"})
#: A sentence sharing this share of a secret's concepts (and at least two) tells it, with its subject named.
CONCEPT_SHARE = 0.6


@lru_cache(maxsize=1)
def _lemmatizer() -> Callable[[str], Mapping[str, tuple[str, ...]]]:
    """lemminflect's lemma lookup (word -> part of speech -> lemmas), imported on first use: its tables
    take a moment to load, and the checker must stay cheap to import."""
    from lemminflect import getAllLemmas

    return cast("Callable[[str], Mapping[str, tuple[str, ...]]]", getAllLemmas)


@lru_cache(maxsize=20000)
def lemmas(word: str) -> frozenset[str]:
    """Every lemma of ``word`` (lower-case) by lemminflect, plus the word itself."""
    low = word.lower().strip("'’")
    found: set[str] = {low}
    for forms in _lemmatizer()(low).values():
        found.update(forms)
    return frozenset(found)


@lru_cache(maxsize=20000)
def concept(word: str) -> str | None:
    """A content word's concept: its synonym class, else its shortest lemma; None for a stop word."""
    low = word.lower().strip("'’")
    if len(low) < 3 or low in _STOP or not low.isalpha():
        return None if not low.isdigit() else low
    forms = lemmas(low)
    for f in sorted(forms):
        if f in _CLASS_OF:
            return _CLASS_OF[f]
    if forms & _STOP:
        return None
    return min(forms, key=len)


@dataclass(frozen=True, slots=True)
class _Anchor:
    """What a secret is about: an entity (with its title words and head-noun concept) or a name phrase."""

    key: str  # entity id, or "name:<phrase>"
    titles: frozenset[str] = frozenset()  # "apprentice" of "the apprentice": a description that names it
    head: str | None = None  # an item's head-noun concept ("lamp" names "the brass lantern")


@dataclass(frozen=True, slots=True)
class Secret:
    """One hidden fact as the leak check reads it."""

    key: str
    visibility: str
    anchors: tuple[_Anchor, ...]
    concepts: frozenset[str]
    short: bool = False  # a value of a word or two: its owner and all of its words tell it


def _head_concept(name: str) -> str | None:
    words = [w for w in re.findall(r"[A-Za-z]+", name) if w.lower() not in _STOP]
    return concept(words[-1]) if words else None


def _place_words(snap: WorldSnapshot, eid: str) -> frozenset[str]:
    """The head nouns a place goes by ("the cove" and "the beach": cove, beach), as concepts."""
    e = snap.entities[eid]
    out = {c for a in e.names() if (c := _head_concept(a.name))}
    return frozenset(out)


def _anchor(snap: WorldSnapshot, eid: str) -> _Anchor:
    e = snap.entities[eid]
    titles: set[str] = set()
    for a in e.names():
        words = a.name.lower().split()
        # "the harbourmaster", and the head of a longer title: "the old tax officer" names an officer
        if len(words) >= 2 and words[0] == "the" and words[-1].isalpha():
            c = concept(words[-1])
            if c:
                titles.add(c)
    head = _head_concept(e.name) if e.kind == "item" else None
    return _Anchor(eid, frozenset(titles), head)


def _owner_entity(snap: WorldSnapshot, key: str) -> str | None:
    """The entity a fact key belongs to ("npc-grell-poisons-well" -> "npc-grell"), longest id first."""
    parts = key.split("-")
    for n in range(len(parts) - 1, 1, -1):
        eid = "-".join(parts[:n])
        if eid in snap.entities:
            return eid
    return None


def _concepts_of(
    snap: WorldSnapshot, tokens: Sequence[Token], mentions: Sequence[Mention], lo: int, hi: int
) -> list[tuple[int, str]]:
    """(token index, concept) for each content word and place in tokens[lo:hi] outside creature/item names."""
    covered = _covered(snap, tokens, mentions, lo, hi)
    out: list[tuple[int, str]] = []
    for m in mentions:
        if lo <= m.i < hi and m.id and (e := snap.entities.get(m.id)) and e.kind == "location":
            out.append((m.i, f"loc:{m.id}"))
            # the words of a place's name still mean something: "the light" is a light
            out += [(k, c) for k in range(m.i, m.j) if (c := concept(tokens[k].low)) in _CLASSES]
    k = lo
    while k < hi:
        if k in covered:
            k += 1
            continue
        t = tokens[k]
        if k + 1 < hi and k + 1 not in covered:
            nxt = tokens[k + 1].low
            pair = next((_PHRASES[(f, nxt)] for f in lemmas(t.low) if (f, nxt) in _PHRASES), None)
            if pair:
                out.append((k, pair))
                k += 2
                continue
        c = concept(t.low)
        if t.low == "will" and _will_is_a_noun(tokens, k, lo, hi):
            c = "document"
        if c:
            out.append((k, c))
        k += 1
    return out


def _name_words(snap: WorldSnapshot, eid: str) -> frozenset[str]:
    """The lowercased words of every name of ``eid``, kept per snapshot (asked for each mention)."""
    table = snap.cache.setdefault("leak-name-words", {})
    found = table.get(eid)
    if found is None:
        e = snap.entities[eid]
        found = table[eid] = frozenset(w.lower() for a in e.names() for w in a.name.split())
    return found  # type: ignore[no-any-return]


def _covered(
    snap: WorldSnapshot, tokens: Sequence[Token], mentions: Sequence[Mention], lo: int, hi: int
) -> set[int]:
    """Token indexes inside a name, counting a capitalised title just before it that is one of its words
    ("Reeve" in "Reeve Marl", when the reeve's full name is "Reeve Tobias Marl")."""
    covered: set[int] = set()
    for m in mentions:
        if not lo <= m.i < hi:
            continue
        if m.derived and (d := snap.entities.get(m.id or "")) is not None and d.kind == "item":
            # an item named by a variant the linker derived ("the lantern" for the brass lantern) is
            # still named in plain words: those words keep their meaning for the secret's concepts
            continue
        covered.update(range(m.i, m.j))
        e = snap.entities.get(m.id or "")
        if e is None:
            continue
        words = _name_words(snap, e.id)
        k = m.i - 1
        while k >= lo and tokens[k].text[:1].isupper() and tokens[k].low in words:
            covered.add(k)
            k -= 1
    return covered


def _will_is_a_noun(tokens: Sequence[Token], k: int, lo: int, hi: int) -> bool:
    """ "the newer will", "the will is gone": a testament, not the modal verb ("he will")."""
    if k > lo and (tokens[k - 1].low in _WILL_NOUN_AFTER or tokens[k - 1].poss):
        return True
    return k + 1 >= hi or not tokens[k + 1].low.isalpha() or tokens[k + 1].low in _WILL_NOUN_BEFORE


_T = TypeVar("_T")


def _memo(
    index: NameIndex, key: tuple[object, ...], read: Callable[[], _T], used: set[tuple[object, ...]]
) -> _T:
    """``read()``, once per name index: a secret is read from its fact and the entities the index was built
    from alone, and a round's snapshot takes the previous one's index when those did not change
    (``ledger.check.snapshot_sql``), so a fact read last round is not read again (reading every fact again
    was ~14 ms of each round)."""
    used.add(key)
    if key in index.read:
        return cast(_T, index.read[key])
    value = read()
    index.read[key] = value
    return value


def read_secrets(snap: WorldSnapshot) -> tuple[Secret, ...]:
    """Every fact with a sentence for a value, read into anchors and concepts (cached on the snapshot)."""
    cached = snap.cache.get("secrets")
    if isinstance(cached, tuple):
        return cached
    index = name_index(snap)
    used: set[tuple[object, ...]] = set()
    places: dict[str, frozenset[str]] = {}
    out: list[Secret] = []
    for f in snap.facts.values():
        if not isinstance(f.value, str):
            continue
        value = f.value
        if len(value.split()) < 3:
            short = _memo(
                index,
                ("short", f.key, value, f.visibility),
                partial(_short_secret, snap, f.key, value, f.visibility),
                used,
            )
            if short is not None:
                out.append(short)
            continue
        secret, found = _memo(
            index,
            ("fact", f.key, value, f.visibility),
            partial(_fact_secret, snap, index, f.key, value, f.visibility),
            used,
        )
        places.update(found)
        if secret is not None:
            out.append(secret)
    out += [
        s
        for e in snap.edges
        if (s := _memo(index, ("edge", e), partial(_edge_secret, snap, e), used)) is not None
    ]
    for stale in index.read.keys() - used:  # facts changed or gone since: no longer worth keeping
        del index.read[stale]
    snap.cache["places"] = places
    result = tuple(out)
    snap.cache["secrets"] = result
    return result


def _fact_secret(
    snap: WorldSnapshot, index: NameIndex, key: str, value: str, visibility: str
) -> tuple[Secret | None, tuple[tuple[str, frozenset[str]], ...]]:
    """One fact with a sentence for a value, read into a secret, and the places it names (their words)."""
    toks = tokenize(value)
    mentions, _, _ = find_mentions(toks, index, snap)
    anchors: list[_Anchor] = []
    places: dict[str, frozenset[str]] = {}
    # a fact a character learned ("pc-greyrock-learned-...") is about what was learned, not about the
    # learner: naming the learner beside the place is no leak
    owner = None if "-learned-" in key else _owner_entity(snap, key)
    ids = [m.id for m in mentions if m.id]
    if owner and snap.entities[owner].kind in _CREATURES | {"item"}:
        ids = [owner, *ids]
    for eid in dict.fromkeys(ids):
        if snap.entities[eid].kind in _CREATURES | {"item"}:
            anchors.append(_anchor(snap, eid))
        elif snap.entities[eid].kind == "location":
            places.setdefault(eid, _place_words(snap, eid))
    covered = _covered(snap, toks, mentions, 0, len(toks))
    # a proper name the ledger does not know ("the Ashen Circle") is an anchor too
    k = 1
    while k < len(toks):
        if k not in covered and toks[k].text[:1].isupper() and toks[k].low not in _STOP:
            j = k
            while j < len(toks) and j not in covered and toks[j].text[:1].isupper():
                j += 1
            anchors.append(_Anchor("name:" + " ".join(t.low for t in toks[k:j])))
            covered.update(range(k, j))
            k = j
        else:
            k += 1
    heads = {a.head for a in anchors if a.head}
    concepts = {
        c
        for k2, c in _concepts_of(snap, toks, mentions, 0, len(toks))
        if (k2 not in covered or c.startswith("loc:")) and not any(_kin_word(c, h) for h in heads)
    }
    found = tuple(places.items())
    if len(anchors) + len(concepts) < 2:
        return None, found
    return Secret(key, visibility, tuple(anchors), frozenset(concepts)), found


def _kin_word(c: str, head: str) -> bool:
    """True when concept ``c`` is the item's own head noun or a word of its stem ("weigh" of "jade weights",
    "lock" of "the padlock"): naming an item at its ordinary work ("weighs the tea with her weights") uses
    such a word and tells nothing of what is secret about it."""
    if c == head:
        return True
    short, long_ = sorted((c, head), key=len)
    if len(short) < 4:
        return False
    # "weigh" of "weight"; the head of a compound: "lock" of "padlock"
    return (long_.startswith(short) and len(long_) - len(short) <= 2) or long_.endswith(short)


def _short_secret(snap: WorldSnapshot, key: str, value: str, visibility: str) -> Secret | None:
    """A fact about someone whose value is a word or two ("npc-maren-holt-role" = "smuggler boss").

    Told when a sentence names its owner with every word of the value (by synonym): "Maren Holt runs the
    smuggling ring" tells that she is the smuggler boss.
    """
    owner = _owner_entity(snap, key)
    if owner is None or snap.entities[owner].kind not in _CREATURES | {"item"}:
        return None
    concepts = frozenset(c for w in re.findall(r"[A-Za-z]+", value) if (c := concept(w.lower())))
    if not concepts:
        return None
    return Secret(key, visibility, (_anchor(snap, owner),), concepts, short=True)


def _edge_secret(snap: WorldSnapshot, edge: Edge) -> Secret | None:
    """A relationship as a secret: both ends named in one sentence with a word of its kind or reason."""
    if edge.source not in snap.entities or edge.target not in snap.entities:
        return None
    text = f"{edge.kind.replace('-', ' ')}. {edge.reason or ''}"
    toks = tokenize(text)
    mentions, _, _ = find_mentions(toks, name_index(snap), snap)
    covered = _covered(snap, toks, mentions, 0, len(toks))
    concepts = frozenset(c for k, c in _concepts_of(snap, toks, mentions, 0, len(toks)) if k not in covered)
    if not concepts:
        return None
    anchors = (_anchor(snap, edge.source), _anchor(snap, edge.target))
    return Secret(edge.id, edge.visibility, anchors, concepts)


def _sentence_anchors(
    snap: WorldSnapshot,
    tokens: Sequence[Token],
    mentions: Sequence[Mention],
    lo: int,
    hi: int,
    previous: Sequence[str],
) -> set[str]:
    """Entity ids a sentence names, by name or alias, or by a pronoun that fits someone just named."""
    here = [m.id for m in mentions if lo <= m.i < hi and m.id]
    found = set(here)
    covered = {k for m in mentions if lo <= m.i < hi for k in range(m.i, m.j)}
    people = [p for p in dict.fromkeys([*previous, *here]) if snap.entities[p].kind in ("pc", "npc")]
    for k in range(lo, hi):
        want = _PRONOUNS.get(tokens[k].low)
        if want is None or k in covered:
            continue
        for p in people:
            pr = snap.entities[p].pronoun
            if pr is None or pr in (want, "they"):
                found.add(p)
    return found


class _SecretIndex:
    """The snapshot's secrets with a reverse index from concept to the secrets it may help tell.

    A secret with concepts can only be told by a sentence sharing at least one of them (directly or through
    ``_IMPLIES``), so a sentence is compared only with the secrets its own concepts reach, plus the few with
    no concepts at all; a big world holds thousands of secrets and a sentence touches a handful.
    """

    def __init__(self, secrets: tuple[Secret, ...]) -> None:
        self.secrets = secrets
        self.always: list[int] = [j for j, sec in enumerate(secrets) if not sec.concepts]
        by_concept: dict[str, list[int]] = {}
        for j, sec in enumerate(secrets):
            for c in sec.concepts:
                for key in {c, *_IMPLIES.get(c, frozenset())}:
                    by_concept.setdefault(key, []).append(j)
        self.by_concept = by_concept
        self.visibilities = frozenset(sec.visibility for sec in secrets)

    def reached(self, concepts: set[str]) -> list[Secret]:
        """The secrets a sentence with ``concepts`` could tell, in their original order."""
        found = set(self.always)
        for c in concepts:
            found.update(self.by_concept.get(c, ()))
        return [self.secrets[j] for j in sorted(found)]


def _secret_index(snap: WorldSnapshot) -> _SecretIndex:
    cached = snap.cache.get("secret_index")
    if isinstance(cached, _SecretIndex):
        return cached
    index = _SecretIndex(read_secrets(snap))
    snap.cache["secret_index"] = index
    return index


def paraphrased_leaks(
    tokens: Sequence[Token],
    mentions: Sequence[Mention],
    sentences: Sequence[tuple[int, int]],
    snap: WorldSnapshot,
    sees: Callable[[str], bool],
) -> list[tuple[str, str, tuple[int, int]]]:
    """(fact key, visibility, sentence char span) for each secret a sentence tells in other words.

    ``sentences`` are token ranges; only facts whose visibility ``sees`` refuses are secrets here.
    """
    index = _secret_index(snap)
    hidden = {vis: not sees(vis) for vis in index.visibilities}
    if not any(hidden.values()):
        return []
    places: dict[str, frozenset[str]] = snap.cache.get("places", {})
    found: list[tuple[str, str, tuple[int, int]]] = []
    previous: list[str] = []
    ordered = sorted(mentions, key=lambda m: m.i)
    at = 0
    for lo, hi in sentences:
        if lo >= hi:
            continue
        while at < len(ordered) and ordered[at].i < lo:
            at += 1
        here = []  # this sentence's mentions, found in one pass over the text
        while at < len(ordered) and ordered[at].i < hi:
            here.append(ordered[at])
            at += 1
        ents = _sentence_anchors(snap, tokens, here, lo, hi, previous)
        previous = [m.id for m in here if m.id]
        raw = _concepts_of(snap, tokens, here, lo, hi)
        concepts: set[str] = set()
        for k, c in raw:
            if any(tokens[q].low in _INDEFINITE for q in range(max(lo, k - 3), k)):
                continue  # "whoever robbed the chest", "someone has been poisoning the well"
            concepts.add(c)
        words = {c for _, c in raw}
        low = " " + " ".join(t.low for t in tokens[lo:hi]) + " "
        for place, heads in places.items():
            if heads & words:
                concepts.add(f"loc:{place}")
        span = (tokens[lo].start, tokens[hi - 1].end)
        for s in index.reached(concepts):
            if not hidden[s.visibility]:
                continue
            present = [a for a in s.anchors if _names(a, ents, words, low)]
            shared = {c for c in s.concepts if c in concepts or _IMPLIES.get(c, frozenset()) & concepts}
            need = len(s.concepts) if s.short else max(2, math.ceil(CONCEPT_SHARE * len(s.concepts)))
            together = len(s.anchors) >= 2 and len(present) == len(s.anchors) and bool(shared)
            subject = bool(s.anchors) and s.anchors[0] in present and len(shared) >= need
            nobody = not s.anchors and len(shared) >= max(3, need)
            if together or subject or nobody:
                found.append((s.key, s.visibility, span))
    return found


def _names(a: _Anchor, ents: set[str], words: set[str], low: str) -> bool:
    """True when the sentence names the anchor: by id, a title word, an item's head noun, or the phrase."""
    if a.key.startswith("name:"):
        return f" {a.key[5:]} " in low
    return a.key in ents or bool(a.titles & words) or (a.head is not None and a.head in words)
