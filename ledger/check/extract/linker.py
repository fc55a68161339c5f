"""The entity linker's variants: every way a narrator names a recorded person or item, built from the record.

A narrator rarely repeats a name as recorded. A person recorded as "Captain Ilse Crane" is "Ilse", "Crane",
"Captain Crane" or "Captain Ilse"; "Brother Cassian Morrow" is "Brother Morrow"; "Nour Haddad" is "Mistress
Haddad" or "Old Haddad"; an item recorded as "Caelan's silver circlet" is "the circlet" or "the silver
circlet", and "gold nugget" is also "gold nuggets". Alias lists cannot keep up, so this module derives the
variants from the record's own parts, with closed vocabularies of English (titles and honorifics with their
gender, the age words "old" and "young", gendered person nouns) and noun inflection from ``lemminflect``
(its tables ship in the wheel; nothing is downloaded).

Variants are *weak*: :mod:`.names` indexes them beside the recorded names and aliases, a recorded name always
wins over a derived one, a derived person variant only matches a capitalised word, and a variant several
entities share links only when the scene, a title's gender, an age word or the sentence's own pronoun picks
one (:func:`narrow`); otherwise it links to nothing. Only public names are derived from, so a part of a name
never reveals a hidden record. Pure functions of one entity; :mod:`.names` builds them once per snapshot.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from ledger.check.extract.lexicon import ORDINALS as LEXICON_ORDINALS
from ledger.check.snapshot import Entity, WorldSnapshot

# Honorifics of other tongues, by the pronoun they imply
_FOREIGN_HE = ("don", "signor", "signore", "monsieur", "herr", "senor", "señor", "senhor", "mynheer")
_FOREIGN_SHE = (
    *("donna", "dona", "doña", "signora", "signorina", "mademoiselle", "frau", "fraulein", "fräulein"),
    *("senora", "señora", "senhora", "mevrouw"),
)
# Titles of rank, office and religion that open a recorded name ("Captain Ilse Crane") and the gender they
# imply (None: either). Two-word titles are matched before one-word ones.
TITLES: Mapping[str, str | None] = {
    "mr": "he",
    "mister": "he",
    "sir": "he",
    "lord": "he",
    "brother": "he",
    "father": "he",
    "master": "he",
    "king": "he",
    "prince": "he",
    "duke": "he",
    "baron": "he",
    "count": "he",
    "earl": "he",
    "prior": "he",
    "abbot": "he",
    "friar": "he",
    "sheikh": "he",
    "mrs": "she",
    "miss": "she",
    "ms": "she",
    "madame": "she",
    "madam": "she",
    "mistress": "she",
    "lady": "she",
    "dame": "she",
    "sister": "she",
    "mother": "she",
    "queen": "she",
    "princess": "she",
    "duchess": "she",
    "baroness": "she",
    "countess": "she",
    "abbess": "she",
    "prioress": "she",
    "captain": None,
    "doctor": None,
    "dr": None,
    "sheriff": None,
    "constable": None,
    "sergeant": None,
    "commander": None,
    "general": None,
    "marshal": None,
    "archdruid": None,
    "druid": None,
    "burgomaster": None,
    "mayor": None,
    "magister": None,
    "regent": None,
    "bosun": None,
    "first mate": None,
    "professor": None,
    "judge": None,
    "elder": None,
    "reverend": None,
    "high priest": None,
    "priest": None,
    "chancellor": None,
    "steward": None,
    "warden": None,
    "admiral": None,
    "lieutenant": None,
    "inspector": None,
    # honorifics of other tongues a narrator gives a foreign name ("Donna Celestine Mauvais", "Herr Vogt")
    **dict.fromkeys(_FOREIGN_HE, "he"),
    **dict.fromkeys(_FOREIGN_SHE, "she"),
}
_FOREIGN = (*_FOREIGN_HE, *_FOREIGN_SHE)
# Honorifics a narrator puts before anyone's family or given name, recorded or not ("Miss Kell").
_ADDRESS = ("mr", "mister", "sir", "master", "mrs", "miss", "ms", "madame", "madam", "mistress", "lady")
HONORIFICS: Mapping[str, str | None] = {k: TITLES[k] for k in (*_ADDRESS, *_FOREIGN)}
# Age words before a name: "Old Fisk", "young Miss Varga".
AGES = frozenset({"old", "young"})
# Person nouns after a family name that say the gender: "the young Aelindor lord".
GENDER_NOUNS: Mapping[str, str] = {
    "lord": "he",
    "lady": "she",
    "man": "he",
    "woman": "she",
    "boy": "he",
    "girl": "she",
    "lad": "he",
    "lass": "she",
    "gentleman": "he",
    "fellow": "he",
}
# Ordinals before an item: "his fifth harpoon" says he has had at least five (the lexicon's, to tenth).
ORDINALS: Mapping[str, int] = {w: n for w, n in LEXICON_ORDINALS.items() if n <= 10 and "-" not in w}
# Words that open a noun phrase, so a derived item form after them names the item ("the signet", "his
# only candle", "both vials"); a bare word elsewhere may be anything.
DETERMINERS = frozenset(
    {
        "the",
        "his",
        "her",
        "their",
        "its",
        "my",
        "your",
        "our",
        "this",
        "that",
        "these",
        "those",
        "both",
        "each",
        "every",
        "either",
        "no",
        "only",
        "last",
        "remaining",
        "spare",
        "first",
        "same",
        *ORDINALS,
    }
)
# Head nouns too general to name one person on their own ("the dead-cart man" is not "the man").
_GENERIC_HEADS = frozenset(
    {"man", "woman", "one", "fellow", "boy", "girl", "person", "figure", "lady", "lord", "thing", "creature"}
)
# Words after an item's head that end the name part a narrator shortens ("vial of moonwater", "key to ...").
_ITEM_TAIL = frozenset({"of", "to", "for", "from", "with"})

_WORD = re.compile(r"[A-Za-z][A-Za-z\-]*(?:['’][A-Za-z]+)*")


@lru_cache(maxsize=1)
def _lemma_table() -> Callable[..., Mapping[str, tuple[str, ...]]]:
    """lemminflect's lemma lookup, imported on first use (its tables take a moment to load)."""
    from lemminflect import getAllLemmas

    return cast("Callable[..., Mapping[str, tuple[str, ...]]]", getAllLemmas)


@lru_cache(maxsize=1)
def _inflection_table() -> Callable[..., tuple[str, ...]]:
    from lemminflect import getInflection

    return cast("Callable[..., tuple[str, ...]]", getInflection)


@lru_cache(maxsize=50000)
def noun_lemma(word: str) -> str:
    """The singular of a noun (``"nuggets"`` -> ``"nugget"``); the word itself when lemminflect has none."""
    low = word.lower()
    found = _lemma_table()(low, upos="NOUN").get("NOUN", ())
    return found[0] if found else low


@lru_cache(maxsize=50000)
def is_plural(word: str) -> bool:
    """True when ``word`` is a plural noun form ("vials", "nuggets"), by its lemma (or, for a word the
    lexicon lacks, by being the regular plural of its stem: "psalters")."""
    low = word.lower()
    if noun_lemma(low) != low:
        return True
    if not low.endswith("s") or low.endswith(("ss", "us", "is")) or len(low) < 4:
        return False
    return low[:-1] not in ("",) and low in _inflection_table()(low[:-1], tag="NNS")


@lru_cache(maxsize=50000)
def other_number(word: str) -> str | None:
    """The plural of a singular noun or the singular of a plural one ("vial" <-> "vials")."""
    low = word.lower()
    if is_plural(low):
        single = noun_lemma(low)
        return single if single != low else low[:-1]
    forms = _inflection_table()(low, tag="NNS")
    return forms[0].lower() if forms and forms[0].lower() != low else None


@lru_cache(maxsize=50000)
def is_noun(word: str) -> bool:
    """True when lemminflect knows ``word`` as a noun form ("iron", "rope")."""
    return bool(_lemma_table()(word.lower(), upos="NOUN").get("NOUN"))


def is_verb(word: str) -> bool:
    """True when lemminflect knows ``word`` as a verb form too ("bow", "ring"): a noun after a possessive
    that can be a verb may be the act ("straightens from her bow"), not the thing."""
    return bool(_lemma_table()(word.lower(), upos="VERB").get("VERB"))


@lru_cache(maxsize=50000)
def is_common_word(word: str) -> bool:
    """True when ``word`` (lower-case) is an English noun, verb or adjective lemminflect knows: a name that
    is also a word ("Dusk", "Wren") is not a name when it opens a sentence."""
    low = word.lower()
    table = _lemma_table()
    return any(table(low, upos=pos).get(pos) for pos in ("NOUN", "VERB", "ADJ", "ADV"))


# English words that join a name to an epithet or a place: "Ulf the Tall", "Tom of Ely", "Anna from the Mill"
_EPITHET_JOINS = frozenset({"the", "of", "and", "from", "in", "on", "at", "with", "by", "upon", "a", "an"})


@dataclass(frozen=True, slots=True)
class PersonParts:
    """A person's recorded name split into title, given name and family name (lower-case words)."""

    title: str | None
    given: str | None
    family: str | None
    gender: str | None  # "he" | "she" | None (from the pronoun, else the title)


def _words(phrase: str) -> list[str]:
    return [m.group(0) for m in _WORD.finditer(phrase)]


def person_parts(e: Entity) -> PersonParts | None:
    """The parts of a creature's proper name, or None for a descriptive name ("the ghost of Sir Reginald")."""
    if e.kind not in ("pc", "npc", "monster"):
        return None
    words = _words(e.name)
    if not words or not words[0][:1].isupper():
        return None
    proper: list[str] = []
    for n, w in enumerate(words):
        if not w[:1].isupper():
            # a particle inside one name ("Ono no Sukemasa", "Piet van Dorn") is no part a narrator uses
            # alone; an English word that makes an epithet ("Ulf the Tall", "Tom of Ely") ends the name
            if w.lower() in _EPITHET_JOINS or n + 1 >= len(words) or not words[n + 1][:1].isupper():
                break
            continue
        proper.append(w)
    lows = [w.lower() for w in proper]
    alias_heads = {
        " ".join(_words(a.name)[1:]).lower() for a in e.aliases if a.name.lower().startswith("the ")
    }
    title: str | None = None
    for size in (2, 1):
        head = " ".join(lows[:size])
        if len(lows) > size and (head in TITLES or head in alias_heads):
            title = head
            lows = lows[size:]
            break
    if title is None:
        size = _office_title(lows)
        if size:
            title = " ".join(lows[:size])
            lows = lows[size:]
    gender = e.pronoun if e.pronoun in ("he", "she") else (TITLES.get(title) if title else None)
    if not lows:
        return PersonParts(title, None, None, gender)
    given = lows[0]
    family = lows[-1] if len(lows) > 1 else None
    return PersonParts(title, given, family, gender)


def _office_title(lows: list[str]) -> int:
    """How many leading words of a name are an office no title list holds ("Riding Officer Silas Roe",
    "Chief Engineer Basil Grout"): English words ending in a noun, then a given name that is no English word
    and a family name. 0 when there is none ("Black Tom Harrow": Tom is a word, so no office is told)."""
    for size in (2, 1):
        rest = lows[size:]
        if (
            len(rest) >= 2
            and all(is_common_word(w) for w in lows[:size])
            and is_noun(lows[size - 1])
            and not is_common_word(rest[0])
        ):
            return size
    return 0


# Titles that say an office, so "the sheriff" names the one record with that title; kin words, honorifics and
# words with other common senses ("the count", "the general", "the elder") do not.
_OFFICE_TITLES = (
    frozenset(TITLES)
    - set(_ADDRESS)
    - set(_FOREIGN)
    - {
        "lord",
        "brother",
        "father",
        "dame",
        "sister",
        "mother",
        "count",
        "general",
        "elder",
        "judge",
        "dr",
    }
)


def title_variants(e: Entity) -> set[tuple[str, ...]]:
    """ "the sheriff" for "Sheriff Hob Tanner", "the riding officer" and "the officer" for "Riding Officer
    Silas Roe": the office a recorded name opens with, as a role noun after "the"."""
    parts = person_parts(e)
    if parts is None or parts.title is None or (parts.given is None and parts.family is None):
        return set()
    words = tuple(parts.title.split())
    if parts.title not in _OFFICE_TITLES and parts.title in TITLES:
        return set()
    out = {("the", *words)}
    if len(words) > 1 and words[-1] not in _GENERIC_HEADS and is_noun(words[-1]):
        out.add(("the", words[-1]))
    return out


def person_variants(e: Entity) -> set[tuple[str, ...]]:
    """Keys (lower-case word tuples) a narrator may call ``e`` by, beyond its recorded names."""
    parts = person_parts(e)
    if parts is None:
        return set()
    out: set[tuple[str, ...]] = set()
    title = tuple(parts.title.split()) if parts.title else ()
    for name in (parts.given, parts.family):
        if name:
            out.add((name,))
            if title:
                out.add((*title, name))
    if parts.given and parts.family:
        out.add((parts.given, parts.family))
    return out


def alias_title_variants(e: Entity) -> set[tuple[str, ...]]:
    """ "Doc Okafor" for "Nadia Okafor" known as "Doc Nadia": a public alias that puts a word before one part
    of the recorded name ("Doc Nadia", "Mayor Okafor", "Uncle Benny") gives that word as a title the
    narrator may put before the other part too ("Black Tom" Harrow is also "Black Harrow": the pair is as
    particular as the alias), and so does a role alias of one noun ("the doc" Nadia Okafor is "Doc Okafor").
    Not an age word ("Old Tom"), which :func:`narrow` reads before any name, nor a general person noun ("the
    woman")."""
    parts = person_parts(e)
    if parts is None or parts.given is None or parts.family is None:
        return set()
    own = {parts.given, parts.family}
    out: set[tuple[str, ...]] = set()
    for a in e.aliases:
        words = _words(a.name)
        if a.visibility != "public" or len(words) != 2:
            continue
        lead, rest = (w.lower() for w in words)
        if lead == "the" and rest not in _GENERIC_HEADS and rest not in own and rest not in AGES:
            # a role alias of one noun is a title too: "the doc" is "Doc Okafor", "the mayor" "Mayor Okafor"
            out |= {(rest, part) for part in own}
            continue
        if not all(w[:1].isupper() for w in words) or rest not in own or lead in own or lead in AGES:
            continue
        out |= {(lead, part) for part in own}
    return out


@lru_cache(maxsize=1)
def _age_degrees() -> Mapping[str, str]:
    """The comparative and superlative of the age words ("elder", "older", "youngest" ...) -> the age word,
    from lemminflect's inflection tables."""
    from lemminflect import getAllInflections

    return {
        form: age
        for age in AGES
        for tag in ("JJR", "JJS")
        for form in cast("Mapping[str, tuple[str, ...]]", getAllInflections(age)).get(tag, ())
    }


def age_degree(word: str) -> str | None:
    """ "old" for "elder", "older", "eldest"; "young" for "younger", "youngest"; None for any other word.
    A compared age picks one of several who share a name ("the elder Tachibana")."""
    return _age_degrees().get(word)


def role_variants(e: Entity) -> set[tuple[str, ...]]:
    """ "the factor" for "the salt factor", "the captain" for "the captain of the gate": an alias's head."""
    if e.kind not in ("pc", "npc", "monster"):
        return set()
    out: set[tuple[str, ...]] = set()
    for a in e.names():
        words = [w.lower() for w in _words(a.name)]
        if len(words) < 3 or words[0] != "the" or a.visibility != "public":
            continue
        body = words[1:]
        cut = next((k for k, w in enumerate(body) if w in _ITEM_TAIL), len(body))
        head = body[cut - 1] if cut else ""
        if head and head not in _GENERIC_HEADS and "-" not in head and (cut > 1 or cut < len(body)):
            out.add(("the", head))
    return out


def _owner_cut(words: list[str]) -> tuple[list[str], str | None]:
    """Drop a leading owner possessive: "Silas Kell's claim deed" -> (["claim", "deed"], "kell"); a
    possessive later in the name stays ("key to the bear's chain")."""
    for k, w in enumerate(words[:3]):
        if w.endswith(("'s", "’s")) or (w.endswith(("s'", "s’")) and k < len(words) - 1):
            if not all(x[:1].isupper() for x in words[: k + 1]):
                return words, None
            owner = w.rstrip("'’").removesuffix("'s").removesuffix("’s").lower()
            return words[k + 1 :], owner
    return words, None


def item_variants(e: Entity) -> dict[tuple[str, ...], bool]:
    """Keys a narrator may call item ``e`` by -> whether that form is plural: the name and aliases without
    the owner's possessive, their shorter tails down to the head noun ("silver pocket watch", "pocket watch",
    "watch"), and each with the head noun in the other number ("gold nugget" / "gold nuggets")."""
    if e.kind != "item":
        return {}
    out: dict[tuple[str, ...], bool] = {}
    for a in e.names():
        if a.visibility != "public":
            continue
        words = _words(a.name)
        if words and words[0].lower() in ("the", "a", "an"):
            words = words[1:]
        words, _ = _owner_cut(words)
        if not words:
            continue
        low = [w.lower() for w in words]
        cut = next((k for k, w in enumerate(low) if w in _ITEM_TAIL and k > 0), len(low))
        fronts = [low[:cut]]
        # a partial name: a hyphenated modifier by its first part ("silver-chased pistols" is also "silver
        # pistols"), and one inner modifier left out ("silver pocket watch" is also "silver watch")
        if any("-" in w for w in low[: cut - 1]):
            fronts.append(
                [w.split("-")[0] if "-" in w and n < cut - 1 else w for n, w in enumerate(low[:cut])]
            )
        if cut >= 3:
            fronts += [low[:n] + low[n + 1 : cut] for n in range(1, cut - 1)]
        tail = low[cut:]
        for front in fronts:
            for k in range(len(front)):
                stem = front[k:]
                head = stem[-1]
                forms = [head]
                other = other_number(head) if head.isalpha() else None
                if other:
                    forms.append(other)
                for form in forms:
                    out.setdefault((*stem[:-1], form, *tail), is_plural(form))
                    if tail and k == len(front) - 1:
                        out.setdefault((*stem[:-1], form), is_plural(form))
    return out


def owner_of(e: Entity, snapshot: WorldSnapshot) -> str | None:
    """The creature an item's name says it belongs to ("Orsolya's cashbox" -> Orsolya), if one is unique."""
    words = _words(e.name)
    _, owner = _owner_cut(words[1:] if words and words[0].lower() == "the" else words)
    if owner is None:
        return None
    found = [
        c.id
        for c in snapshot.entities.values()
        if c.kind in ("pc", "npc", "monster")
        and any(owner in (w.lower() for w in _words(n.name)) for n in c.names())
    ]
    return found[0] if len(found) == 1 else None


def gender_of(e: Entity) -> str | None:
    """ "he" or "she" for a creature: a gendered title its public recorded names open with ("Miss
    Hargreave", "Herr Vogt") before the pronoun, which may have been read off a description that names
    someone else first ("Josiah's daughter, who has taken up his red coat"); None when neither tells."""
    for a in e.names():
        words = [w.lower() for w in _words(a.name)]
        if a.visibility == "public" and len(words) > 1 and TITLES.get(words[0]) in ("he", "she"):
            return TITLES[words[0]]
    return e.pronoun if e.pronoun in ("he", "she") else None


def fits_gender(e: Entity | None, gender: str | None) -> bool:
    """True when ``e`` may be called by a word implying ``gender`` ("he"/"she"; None fits anyone)."""
    if gender is None or e is None:
        return True
    if (told := gender_of(e)) is not None:
        return told == gender
    return e.pronoun not in ("they", "it")


def narrow(
    ids: Iterable[str],
    snapshot: WorldSnapshot,
    *,
    gender: str | None = None,
    age: str | None = None,
    present_first: bool = True,
) -> tuple[str, ...]:
    """The candidates a derived variant may still name: those fitting a title's or noun's ``gender``, an age
    word ("young" is never a titled elder or one recorded as old), and, when several remain, those in the
    scene. Returns every survivor (more than one means the mention stays ambiguous)."""
    ents = snapshot.entities
    cands = [i for i in ids if fits_gender(ents.get(i), gender)]
    if age is not None:
        aged = [i for i in cands if _age_fits(ents.get(i), age)]
        cands = aged or cands
    if present_first and len(cands) > 1:
        here = [i for i in cands if i in snapshot.scene.present]
        cands = here or cands
    return tuple(cands)


def _age_fits(e: Entity | None, age: str) -> bool:
    if e is None:
        return False
    said = " ".join(a.name.lower() for a in e.names())
    other = "young" if age == "old" else "old"
    if re.search(rf"\b{other}\b", said):
        return False
    if age == "young":
        parts = person_parts(e)
        return not (parts is not None and parts.title)
    return True
