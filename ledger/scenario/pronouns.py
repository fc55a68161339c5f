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


# --- reading a description --------------------------------------------------------------------------------
# A description speaks of its creature in three ways, ranked: a gendered title among its names ("Miss Kell",
# "Brother Anselm"); a noun of kin or station that describes the creature itself ("Josiah's daughter", "a
# widow", "the old priestess", "his wife"); a pronoun that refers to it ("she keeps the books", "her hands").
# A higher rank outranks a lower one; two readings of one rank that disagree leave the pronoun unknown.

_TOKEN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*|['’]s\b|\d+|[,;:.!?()—–]")
_CLAUSE_END = frozenset({".", "!", "?"})
_SEGMENT_END = frozenset({";", ":", "(", ")", "—", "–"})
_DETERMINERS = frozenset({"a", "an", "the", "this", "that", "one"})
_POSS_PRONOUNS = {"his": "he", "her": "she", "their": None, "its": None}
# where a noun phrase ends: a relative word, a preposition, a conjunction
_PHRASE_END = frozenset(
    {"who", "whom", "whose", "that", "which", "of", "with", "from", "to", "in", "at", "for", "and", "but"}
    | {"on", "by", "since", "after", "before", "until", "near", "under", "over", "as", "than", "like", "or"}
)
# words a noun-phrase fragment (an apposition) opens with: "a widow since the flood", "once a nun"
_FRAGMENT_OPENERS = frozenset({"a", "an", "once", "formerly", "now", "later", "still"})
# prepositions of place and the like before a capitalised word: a place, not a person ("from Leningrad")
_PLACE_PREPS = frozenset(
    {"at", "in", "on", "from", "to", "into", "near", "of", "across", "beyond", "under", "over", "by"}
    | {"round", "around", "through", "toward", "towards", "onto", "past", "off", "outside", "inside"}
)
_COPULAS = frozenset({"is", "was", "'s", "’s"})
_NOBODY = ""  # what :meth:`_Reading._other` answers for a word that names no other person
# words opening a subordinate clause: whoever it names is gone at its end ("since Wilf retired, ... she")
_SUBORDINATORS = frozenset({"since", "when", "after", "before", "until", "because", "while", "though"})
_SUBORDINATORS |= {"although", "if", "unless", "whenever", "once"}


def _plain(word: str) -> str:
    return word.replace("’", "'")


def _gender_of_noun(word: str) -> str | None:
    """The sex a noun of kin, station or person marks ("widow", "herb-woman", "sons"); None when unmarked."""
    last = word.rsplit("-", 1)[-1]
    found = _marked(last) or _marked(word)
    if found is None and last.endswith("s") and len(last) > 3:
        found = _NOUNS.get(last[:-1]) or _NOUNS.get(last[:-2] if last.endswith("es") else "")
    return found


def _verb_like(word: str) -> bool:
    """A word only a verb could be here ("drowned", "keeps", "is"), read with lemminflect's lexicon."""
    from lemminflect import getAllLemmas

    tags = getAllLemmas(word)
    return "AUX" in tags or "VERB" in tags


def _verb_only(word: str) -> bool:
    from lemminflect import getAllLemmas

    tags = getAllLemmas(word)
    return ("AUX" in tags or "VERB" in tags) and "NOUN" not in tags and "ADJ" not in tags


def _sentences(text: str) -> list[list[str]]:
    """The description's sentences as tokens (words keep their case; "'s" stands alone)."""
    out: list[list[str]] = [[]]
    for tok in _TOKEN.findall(text):
        out[-1].append(tok)
        if tok in _CLAUSE_END:
            out.append([])
    return [s for s in out if s]


def _split(toks: list[str], marks: frozenset[str]) -> list[list[str]]:
    out: list[list[str]] = [[]]
    for tok in toks:
        if tok in marks:
            out.append([])
        else:
            out[-1].append(tok)
    return [s for s in out if s]


class _Reading:
    """The evidence one text gives: nouns describing the creature, and pronoun votes, one a sentence."""

    def __init__(self, own: frozenset[str]) -> None:
        self.own = own  # the creature's own name words, lower case
        self.nouns: set[str] = set()
        self.votes: set[str] = set()

    def phrase(self, words: list[str], *, chain: bool) -> None:
        """A noun phrase that may describe the creature: its head noun after the last possessor ("Josiah's
        daughter", "his wife", "a fisherman's widow"); a possessed head followed by a verb is someone else
        doing something ("Her husband drowned"), and a phrase that is a clause describes nobody."""
        if not words:
            return
        low = [_plain(w.lower()) for w in words]
        if low[0] in ("he", "she", "they", "it", "i", "we", "you") or low[0] in self.own:
            return  # a clause with its own subject: "she married a widower", "Hester is thirty-four"
        opener = low[0] in _DETERMINERS or low[0] in _POSS_PRONOUNS or low[0] in _FRAGMENT_OPENERS
        if not opener and not chain:
            return
        end = next((k for k, w in enumerate(low) if k > 0 and w in _PHRASE_END), len(low))
        start = max((k + 1 for k, w in enumerate(low[:end]) if w == "'s" or w in _POSS_PRONOUNS), default=0)
        possessed = start > 0
        for k in range(start, end):
            gender = _gender_of_noun(low[k])
            if gender is None:
                if low[k] not in _DETERMINERS and _verb_only(low[k]) and not low[k].endswith("ed"):
                    return  # "Runs the mill": a clause, not a noun phrase
                continue
            after = low[k + 1] if k + 1 < len(low) else ""
            if possessed and after and after not in _PHRASE_END and _verb_like(after):
                return  # "Her husband drowned", "His wife keeps the inn": someone else's clause
            self.nouns.add(gender)
            return

    def copula(self, words: list[str]) -> None:
        """ "Cordelia is Josiah's daughter", "Is a widow": the noun after a copula whose subject is the
        creature's own name (or none)."""
        low = [_plain(w.lower()) for w in words]
        k = 0
        while k < len(low) and low[k] in self.own:
            k += 1
        if k < len(low) and low[k] in _COPULAS and (k > 0 or words[0][:1].isupper()):
            rest = low[k + 1 :]
            while rest and rest[0] in ("once", "now", "still", "also", "the", "a", "an"):
                rest = rest[1:]
            self.phrase(["a", *rest], chain=True)

    def sentence(self, toks: list[str], others_before: list[str | None]) -> list[str | None]:
        """One pronoun vote for the sentence: its first personal pronoun that no one else named before it
        in the sentence (or a gendered person in the sentence before) could stand for. Returns the
        gendered people this sentence names besides the creature, for the next sentence."""
        others: list[str | None] = list(others_before)
        mine: list[str | None] = []
        voted = False
        first = True
        lasting = len(others)  # people named in a subordinate clause are forgotten at its end
        sub = False
        for n, tok in enumerate(toks):
            low = _plain(tok.lower())
            prev = _plain(toks[n - 1].lower()) if n > 0 else ""
            nxt = toks[n + 1] if n + 1 < len(toks) else ""
            if tok == "," or tok in _SEGMENT_END:
                del others[lasting:]
                sub = False
            elif low in _SUBORDINATORS:
                sub = True
            if low in _PERSONAL and (first or not tok[:1].isupper()):
                gender = _PERSONAL[low]
                if not voted and not any(o is None or o == gender for o in others):
                    self.votes.add(gender)
                    voted = True
            elif tok[:1].isalpha():
                other = self._other(toks, n, low, prev, nxt, first)
                if other != _NOBODY:
                    others.append(other)
                    mine.append(other)
                    lasting = lasting if sub else len(others)
            if tok not in _SEGMENT_END and tok != ",":
                first = False
        return [g for g in mine if g is not None]

    def _other(self, toks: list[str], n: int, low: str, prev: str, nxt: str, first: bool) -> str | None:
        """Someone other than the creature named at token ``n`` (their gender, None when not told), or
        ``_NOBODY``: a possessor ("Josiah's", "the fisherman's"), a titled or bare name in mid-sentence ("the
        late Captain Marsh", "reads Dickens"), a gendered person the creature is not ("her husband")."""
        tok = toks[n]
        poss = _plain(nxt) == "'s"
        if low in self.own or low in _PERSONAL:
            return _NOBODY
        if not tok[:1].isupper():
            gender = _gender_of_noun(low) or _TITLES.get(low)
            # "the fisherman's daughter", "her husband": a gendered person the creature is not
            return gender if gender is not None and (poss or prev in _POSS_PRONOUNS) else _NOBODY
        if n > 0 and toks[n - 1][:1].isupper() and toks[n - 1] not in _SEGMENT_END:
            return _NOBODY  # the rest of a name already counted
        if prev in _DETERMINERS or prev in _POSS_PRONOUNS:
            return _NOBODY  # "the Salty Gull", "the Party"
        if poss:
            return _TITLES.get(low)  # "Josiah's daughter"
        if first or prev in _PLACE_PREPS:
            return _NOBODY  # "from Leningrad"
        if nxt and nxt[:1].islower():
            from lemminflect import getAllLemmas

            if "NOUN" in getAllLemmas(nxt.lower()):
                return _NOBODY  # "a Massufa guide": a word of kind, not a person
        return _TITLES.get(low)  # "the late Captain Marsh", "reads Dickens aloud"


def _read(text: str, own: frozenset[str]) -> _Reading:
    reading = _Reading(own)
    others: list[str | None] = []
    for si, toks in enumerate(_sentences(text)):
        for gi, seg in enumerate(_split(toks, _SEGMENT_END | _CLAUSE_END)):
            if si == 0 and gi == 0:
                # the description's opening and the appositions chained to it: "The cook, Stepan's younger
                # sister, who ...", "The trapeze artiste, a Cornish fisherman's daughter who ..."
                for ci, chunk in enumerate(_split(seg, frozenset({","}))):
                    head = _plain(chunk[0].lower())
                    if ci > 0 and not (
                        head in _DETERMINERS
                        or head in _FRAGMENT_OPENERS
                        or (len(chunk) > 1 and _plain(chunk[1]) == "'s")
                        or len(chunk) <= 2
                    ):
                        break
                    reading.phrase(chunk, chain=ci == 0)
            else:
                reading.phrase(seg, chain=False)
            reading.copula(seg)
        others = reading.sentence(toks, others)
    return reading


def _one(found: set[str]) -> str | None:
    return next(iter(found)) if len(found) == 1 else None


def _from_text(text: str, own: frozenset[str] = frozenset()) -> str | None:
    """The pronoun a description tells of its subject: a noun describing the creature itself ("Josiah's
    daughter, who has taken up his red coat"), else the pronouns that refer to it; None when they disagree."""
    reading = _read(text, own)
    if reading.nouns:
        return _one(reading.nouns)
    return _one(reading.votes)


def _title_of(names: Iterable[str]) -> str | None:
    """A gendered title before a name ("Mother Ada Jessop", "Herr Vogt", "old Lady Fenn"); None when none,
    or when two names disagree."""
    found: set[str] = set()
    for name in names:
        words = _WORD.findall(name.lower())
        while len(words) > 2 and words[0] in ("the", "old", "young", "great"):
            words = words[1:]
        if len(words) > 1 and words[0] in _TITLES and words[1] not in _NOUNS:
            found.add(_TITLES[words[0]])
    return _one(found)


def _from_names(names: Iterable[str]) -> str | None:
    """A station noun as an epithet ("the landlady", "the old ferryman")."""
    found: set[str] = set()
    for name in names:
        words = _WORD.findall(name.lower())
        if words and words[0] in ("the", "a", "an", "old", "young") and len(words) > 1:
            gender = _marked(words[-1]) or _TITLES.get(words[-1])
            if gender is not None:
                found.add(gender)
    return _one(found)


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
    """The pronoun a character answers to: the file's own ``pronoun`` when it gives one; else a gendered
    title among its names ("Miss Hargreave"); else a noun of kin or station describing it (in the
    description, the persona note, an epithet, or a relationship's reason: ``tie``, from
    :func:`pronouns_from_ties`); else the pronouns of the description and persona that refer to it. A rank
    whose readings disagree tells nothing; None when nothing tells (the check then lets "he" or "she" stand
    for anyone, by position)."""
    if given in PRONOUNS:
        return given
    names = (name, *aliases)
    title = _title_of(names)
    if title is not None:
        return title
    own = frozenset(w for n in names for w in _WORD.findall(n.lower()) if len(w) > 2 and w not in _TITLES)
    readings = [_read(text, own) for text in (description, persona) if text]
    nouns = {g for r in readings for g in r.nouns}
    epithet = _from_names(names)
    nouns |= {g for g in (epithet, tie) if g is not None}
    if nouns:
        return _one(nouns)
    return _one({g for r in readings for g in r.votes})
