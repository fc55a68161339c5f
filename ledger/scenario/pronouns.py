"""Which pronoun a character answers to, read off what a scenario says about them.

The assertion check resolves "she", "his" and "her sister" to the last compatible person, so it needs each
person's pronoun. A file may say it (``pronoun = "she"``); most files written by hand do not, but their
descriptions, titles and epithets do: "A retired smuggler; she keeps the Gull's books", "Mother Ada Jessop",
"the landlady". :func:`pronoun_of` reads those once, when the scenario is loaded, and the ledger keeps the
answer in the character's sheet (``sheet["pronoun"]``), so a live campaign and its file agree.

The words here are closed classes of English (personal pronouns, honorifics, sex-marked nouns of kin and
station), not names: a given name says nothing here, and nothing is guessed from it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

PRONOUNS = ("he", "she", "they", "it")

_PERSONAL = {
    **dict.fromkeys(("she", "her", "hers", "herself"), "she"),
    **dict.fromkeys(("he", "him", "his", "himself"), "he"),
}
# honorifics and titles that come before a name ("Mother Ada", "Sir Tomas", "Lady Serafine")
_TITLES = {
    **dict.fromkeys(
        [
            "mr",
            "mister",
            "sir",
            "lord",
            "brother",
            "father",
            "master",
            "king",
            "prince",
            "duke",
            "baron",
            "count",
            "earl",
            "prior",
            "abbot",
            "friar",
            "sheikh",
            "emperor",
            "sultan",
            "tsar",
            "czar",
            "archduke",
            "marquis",
            "viscount",
            "goodman",
            "grandfather",
            "grandpa",
            "uncle",
            "monsignor",
            "signor",
            "senor",
            "herr",
            "monsieur",
            "don",
            "signore",
            "señor",
            "senhor",
            "mynheer",
        ],
        "he",
    ),
    **dict.fromkeys(
        [
            "mrs",
            "miss",
            "ms",
            "madame",
            "madam",
            "mistress",
            "lady",
            "dame",
            "queen",
            "princess",
            "duchess",
            "baroness",
            "countess",
            "prioress",
            "abbess",
            "sister",
            "mother",
            "goodwife",
            "goody",
            "grandmother",
            "granny",
            "grandma",
            "aunt",
            "auntie",
            "empress",
            "sultana",
            "tsarina",
            "czarina",
            "archduchess",
            "marquise",
            "viscountess",
            "matron",
            "widow",
            "signora",
            "senora",
            "frau",
            "mademoiselle",
            "dona",
            "donna",
            "doña",
            "signorina",
            "senhora",
            "señora",
            "fraulein",
            "fräulein",
            "mevrouw",
        ],
        "she",
    ),
}
# sex-marked nouns of kin, station and person ("the landlady", "a widow", "his son")
_NOUNS = {
    **dict.fromkeys(
        [
            "man",
            "men",
            "boy",
            "lad",
            "gentleman",
            "husband",
            "father",
            "son",
            "brother",
            "uncle",
            "nephew",
            "grandfather",
            "grandson",
            "king",
            "prince",
            "lord",
            "duke",
            "baron",
            "count",
            "earl",
            "monk",
            "friar",
            "abbot",
            "widower",
            "bachelor",
            "fellow",
            "landlord",
            "steward",
            "patriarch",
            "stepfather",
            "stepson",
            "godfather",
            "sire",
        ],
        "he",
    ),
    **dict.fromkeys(
        [
            "woman",
            "women",
            "girl",
            "lass",
            "lady",
            "wife",
            "mother",
            "daughter",
            "sister",
            "aunt",
            "niece",
            "grandmother",
            "granddaughter",
            "queen",
            "princess",
            "duchess",
            "baroness",
            "countess",
            "nun",
            "abbess",
            "prioress",
            "widow",
            "spinster",
            "maiden",
            "matron",
            "landlady",
            "stepmother",
            "stepdaughter",
            "godmother",
            "crone",
            "hag",
            "witch",
            "matriarch",
            "governess",
            "hostess",
            "priestess",
            "sorceress",
            "enchantress",
            "stewardess",
            "heiress",
            "empress",
            "goddess",
            "shepherdess",
            "poetess",
            "patroness",
            "seamstress",
            "actress",
            "waitress",
            "huntress",
            "songstress",
            "temptress",
        ],
        "she",
    ),
}
# a suffix that marks the sex of a station noun ("fishwife", "washerwoman", "ferryman")
_SUFFIXES = (("woman", "she"), ("wife", "she"), ("man", "he"))
_NOT_MARKED = frozenset(
    ["human", "shaman", "talisman", "caiman", "cayman", "ottoman", "german", "roman", "dolman"]
)
_WORD = re.compile(r"[^\W\d_]+")
# where a description's opening noun phrase ends: punctuation, or a relative, preposition or verb-like link
_OPENING_END = re.compile(r"[,;:.!?()]|\s(?:who|whom|whose|that|which|of|with|from|to|in|at|for|and|but)\s")


def _marked(noun: str) -> str | None:
    if noun in _NOUNS:
        return _NOUNS[noun]
    if noun in _NOT_MARKED or len(noun) < 5:
        return None
    return next((p for suffix, p in _SUFFIXES if noun.endswith(suffix)), None)


def _from_text(text: str) -> str | None:
    """The pronoun a description uses for its subject: its first personal pronoun ("Her husband drowned"),
    else a sex-marked noun in its opening phrase ("An old fishwife who ...", not "a keeper who dreams of the
    tide-queen")."""
    low = text.lower()
    found = next((_PERSONAL[w] for w in _WORD.findall(low) if w in _PERSONAL), None)
    if found is not None:
        return found
    opening = _OPENING_END.split(low, maxsplit=1)[0]
    return next((p for w in _WORD.findall(opening) if (p := _marked(w)) is not None), None)


def _from_names(names: Iterable[str]) -> str | None:
    """A title before a name ("Mother Ada Jessop") or a station noun as an epithet ("the landlady")."""
    for name in names:
        words = _WORD.findall(name.lower())
        if not words:
            continue
        if words[0] in _TITLES and len(words) > 1:
            return _TITLES[words[0]]
        if words[0] in ("the", "a", "an", "old", "young") and len(words) > 1:
            found = _marked(words[-1]) or _TITLES.get(words[-1])
            if found is not None:
                return found
    return None


_TIE = re.compile(r"^(?P<who>[^,;:.]+?)\s+(?:is|was)\s+(?P<rest>[^,;:.]+)")


def pronouns_from_ties(
    ties: Iterable[tuple[str, str, str]], names: dict[str, tuple[str, ...]]
) -> dict[str, str]:
    """Pronouns told by relationship reasons, ``(source, target, reason)``: "Eli is Mother Jessop's stepson"
    makes Eli (the one named before "is") a he. ``names`` maps an id to its name and aliases."""
    out: dict[str, str] = {}
    for source, target, reason in ties:
        m = _TIE.match(reason.strip().lower())
        if m is None:
            continue
        head = re.split(r"\s(?:of|and|but|who|whom|whose|that|since|after|before)\s", m.group("rest"))[0]
        marked = next((_NOUNS[w] for w in reversed(_WORD.findall(head)) if w in _NOUNS), None)
        if marked is None:
            continue
        who = set(_WORD.findall(m.group("who")))
        for party in (source, target):
            parts = {w for n in names.get(party, ()) for w in _WORD.findall(n.lower()) if len(w) > 2}
            if who & parts:
                out.setdefault(party, marked)
                break
    return out


def pronoun_of(
    *,
    given: str | None,
    name: str,
    aliases: Iterable[str] = (),
    description: str = "",
    persona: str = "",
    tie: str | None = None,
) -> str | None:
    """The pronoun a character answers to: the file's own ``pronoun`` when it gives one, else what the
    description (then the persona note) says of its subject, else what a relationship's reason says of them
    (``tie``, from :func:`pronouns_from_ties`), else a title or epithet; None when nothing tells (the check
    then lets "he" or "she" stand for anyone, by position)."""
    if given in PRONOUNS:
        return given
    return _from_text(description) or _from_text(persona) or tie or _from_names((name, *aliases))
