"""Reported speech: how a PC's words are told by the offline narrator, never quoted.

A player's words are data, and the channel is the game's voice. The player's opening verb becomes the PC's
action ("ask Old Wei what the ship carries" -> "asks Old Wei what the ship carries"; "tell Old Wei the pier
will be empty" -> "tells Old Wei that the pier will be empty"), and only a short question, topic or "that"
clause of the first sentence is kept, cleaned of markup and control characters. Anything else is told as the
bare act of speaking.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from bot.text import clean_text

# --- reported speech ------------------------------------------------------------------------------------
#
# A player's words are data, and the channel is the game's voice: a fake transcript marker, a mention or a
# markdown block typed into /act must never be posted as typed. The offline narrator reports speech in its
# own words: the player's opening verb becomes the PC's action ("ask Old Wei what the ship carries" -> "asks
# Old Wei what the ship carries"), and only a short question or topic clause of the first sentence is kept,
# cleaned of markup and control characters. Anything else is told as the bare act of speaking.

# Discord mentions, channel and emoji tags, @everyone/@here, links.
_MENTIONS = re.compile(r"<(?:@[!&]?|#|a?:\w+:)\d*>|@\w+|\b(?:https?|ftp)://\S+|\bwww\.\S+", re.I)
# Characters with a meaning in markdown or as quotes; removed, never escaped (an escaped mark is still shown).
_MARKUP = re.compile(r"[*_~`|>#<\[\]{}()\\\"“”„«»=+^$]")
# Where the first sentence (or clause) ends: sentence punctuation, a line break, a dash, an ellipsis.
_SENTENCE_END = re.compile(r"[.!?;:\n\r…]|\s[-–—]+\s|--")
_LEADING_SUBJECT = re.compile(
    r"^(?:(?:i|we)(?:'ll| will| want to| try to| would like to)?|let me|to)\s+", re.I
)

#: Opening verb (as the player types it) -> (the PC's verb, the word before the listener, the bare act).
_SPEECH_VERBS: dict[str, tuple[str, str, str]] = {
    "ask": ("asks", "", "asks {target} a question"),
    "enquire": ("asks", "", "asks {target} a question"),
    "inquire": ("asks", "", "asks {target} a question"),
    "question": ("questions", "", "questions {target}"),
    "interrogate": ("questions", "", "questions {target}"),
    "tell": ("tells", "", "speaks to {target}"),
    "say": ("speaks", "to", "speaks to {target}"),
    "speak": ("speaks", "to", "speaks to {target}"),
    "talk": ("talks", "to", "talks to {target}"),
    "chat": ("chats", "with", "chats with {target}"),
    "whisper": ("whispers", "to", "whispers to {target}"),
    "shout": ("shouts", "at", "shouts at {target}"),
    "call": ("calls out", "to", "calls out to {target}"),
    "greet": ("greets", "", "greets {target}"),
    "thank": ("thanks", "", "thanks {target}"),
    "warn": ("warns", "", "warns {target}"),
    "remind": ("reminds", "", "reminds {target}"),
    "explain": ("explains", "to", "explains something to {target}"),
    "beg": ("begs", "", "pleads with {target}"),
    "plead": ("pleads", "with", "pleads with {target}"),
    "persuade": ("tries to persuade", "", "tries to persuade {target}"),
    "convince": ("tries to convince", "", "tries to convince {target}"),
    "reason": ("reasons", "with", "reasons with {target}"),
    "negotiate": ("negotiates", "with", "negotiates with {target}"),
    "haggle": ("haggles", "with", "haggles with {target}"),
    "bargain": ("bargains", "with", "bargains with {target}"),
    "threaten": ("threatens", "", "threatens {target}"),
    "intimidate": ("tries to intimidate", "", "tries to intimidate {target}"),
    "lie": ("lies", "to", "lies to {target}"),
    "deceive": ("tries to deceive", "", "tries to deceive {target}"),
    "bluff": ("bluffs", "", "bluffs {target}"),
    "flatter": ("flatters", "", "flatters {target}"),
    "reassure": ("reassures", "", "reassures {target}"),
    "apologise": ("apologises", "to", "apologises to {target}"),
    "apologize": ("apologises", "to", "apologises to {target}"),
    "confront": ("confronts", "", "confronts {target}"),
    "accuse": ("accuses", "", "accuses {target}"),
    "promise": ("makes a promise", "to", "makes a promise to {target}"),
}
#: Clause openers kept after a verb: a question ("what the ship carries") or a topic ("about the ship").
_QUESTION_WORDS = frozenset(
    {"what", "where", "who", "whom", "whose", "why", "how", "when", "whether", "if", "which"}
)
_ASKING = frozenset({"asks", "questions"})
_TOPIC_WORDS = frozenset({"about"})
#: A kept clause ends at the first of these (what follows may be a second instruction, not the question).
_CLAUSE_BREAKS = frozenset({"and", "but", "then", "or", "so", "because", "while", "also", "plus"})
#: Words that mean one thing in the player's mouth and another in the narrator's: the clause is not kept.
_PERSONAL = frozenset(
    {
        "i",
        "i'm",
        "i'll",
        "i've",
        "me",
        "my",
        "mine",
        "myself",
        "we",
        "us",
        "our",
        "ours",
        "you",
        "your",
        "yours",
        "you're",
        "yourself",
        "ignore",
        "instruction",
        "instructions",
        "system",
        "prompt",
        "narrator",
        "transcript",
        "gm",
    }
)
_MAX_CLAUSE_WORDS = 12
#: Words allowed between the verb and the clause (the listener, named any way the player likes).
_MAX_LISTENER_WORDS = 5


def clean_player_text(text: str) -> str:
    """The first sentence of ``text`` as plain words: no escapes, control characters, markup or mentions."""
    text = unicodedata.normalize("NFKC", clean_text(text))  # the table's own escape and control filter
    text = _SENTENCE_END.split(text, maxsplit=1)[0]
    text = "".join(" " if unicodedata.category(char)[0] in ("C", "Z") else char for char in text)
    text = _MARKUP.sub(" ", _MENTIONS.sub(" ", text))
    words = [word.strip("'‘’,-") for word in text.split()]
    return " ".join(word for word in words if word)


def reported_speech(text: str, target: str | None, speaker: str | None = None) -> str:
    """How a PC's speech is told: the predicate after the speaker's name, e.g. "asks Old Wei what ...".

    ``text`` is the player's submission. The player's opening verb becomes the action; only a question or
    "about" clause of its first sentence is kept (at most :data:`_MAX_CLAUSE_WORDS` words, cut before any
    "and ..." that may carry a second instruction). Anything unrecognised is told as the bare act of speaking,
    so no markup, mention, escape or fake transcript line typed by a player is ever posted. With ``speaker``
    (the PC's name) the player's "I", "my", "we" and "you" are told in the third person ("what he wants for
    the favour Greyrock owes him"); without it a clause with such words is not kept.
    """
    listener = target or ""
    plain = clean_player_text(text)
    question = text.strip().split("\n", 1)[0].rstrip().endswith("?")
    plain = _LEADING_SUBJECT.sub("", plain)
    words = plain.split()
    verb = words[0].casefold() if words else ""
    if verb.endswith("s") and verb[:-1] in _SPEECH_VERBS:
        verb = verb[:-1]  # "asks" typed as the PC's own action
    spec = _SPEECH_VERBS.get(verb)
    if spec is None:
        if question:
            return f"asks {listener} a question" if listener else "asks a question"
        return f"speaks to {listener}" if listener else "speaks up"
    told, preposition, bare = spec
    clause = _kept_clause(words[1:], asking=told in _ASKING, speaker=speaker, listener=target)
    if clause is None and verb in _TELLING and listener:
        that = _that_clause(words[1:], listener, speaker)
        if that is not None:
            return f"{told} {listener} that {that}"
    if not listener:
        if clause is not None:
            return f"{told} {clause}"
        return "asks a question" if told in _ASKING else "speaks up"
    if clause is None:
        return bare.format(target=listener)
    to = f"{preposition} " if preposition else ""
    return f"{told} {to}{listener} {clause}"


def _kept_clause(
    rest: Sequence[str], *, asking: bool, speaker: str | None = None, listener: str | None = None
) -> str | None:
    """The question or topic clause after the verb and the listener, or None when none is safe to keep."""
    openers = _TOPIC_WORDS | (_QUESTION_WORDS | {"for"} if asking else frozenset())
    lowered = [word.casefold() for word in rest]
    start = next((i for i, word in enumerate(lowered) if word in openers), None)
    if start is None or start > _MAX_LISTENER_WORDS:
        return None
    clause: list[str] = []
    for word, low in zip(rest[start:], lowered[start:], strict=True):
        if clause and low in _CLAUSE_BREAKS:
            break
        clause.append(word)
    if len(clause) < 2 or len(clause) > _MAX_CLAUSE_WORDS:
        return None
    if speaker:
        told = third_person(clause, speaker, listener)
        if told is None:
            return None
        clause = told
    if any(word.casefold().strip("'’") in _PERSONAL for word in clause):
        return None
    if not all(re.fullmatch(r"[\w'’-]{1,30}", word) for word in clause):
        return None
    return " ".join(clause)


#: Verbs whose message may be reported as "tells Old Wei that ...".
_TELLING = frozenset({"tell", "warn", "remind", "reassure", "promise", "assure", "inform"})
_SPEECH_VERBS.setdefault("assure", ("assures", "", "reassures {target}"))
_SPEECH_VERBS.setdefault("inform", ("informs", "", "speaks to {target}"))
#: The party's own "we" becomes the narrator's "the party" when a verb of intent follows it.
_WE_MODALS = frozenset({"will", "shall", "can", "must", "should", "would", "could", "need", "have", "are"})
_LISTENER_PRONOUNS = frozenset({"him", "her", "them"})
#: What is left of a link once the first sentence is cut at its colon.
_LINKISH = frozenset({"http", "https", "ftp", "www", "link"})


def _that_clause(rest: Sequence[str], listener: str, speaker: str | None = None) -> str | None:
    """The message after "tell <listener>" as a "that" clause, or None when it cannot be kept safely.

    The listener must be named first (by full name, last word or a pronoun) so nothing of it is mistaken for
    the message; "we will" becomes "the party will"; anything personal, too short or too long is refused.
    """
    lowered = [word.casefold() for word in rest]
    name = listener.casefold().split()
    skip = 0
    for candidate in (name, name[-1:], ["the", *name[-1:]]):
        if candidate and lowered[: len(candidate)] == candidate:
            skip = len(candidate)
            break
    if not skip and lowered[:1] and lowered[0] in _LISTENER_PRONOUNS:
        skip = 1
    if not skip:
        return None
    words = list(rest[skip:])
    if words and words[0].casefold() == "that":
        words = words[1:]
    clause: list[str] = []
    for index, word in enumerate(words):
        low = word.casefold()
        if clause and low in _CLAUSE_BREAKS:
            break
        following = words[index + 1].casefold() if index + 1 < len(words) else ""
        if low in ("we", "we'll") and (low == "we'll" or following in _WE_MODALS):
            clause.extend(["the", "party"] + (["will"] if low == "we'll" else []))
            continue
        if low in ("us", "ourselves"):
            clause.extend(["the", "party"])
            continue
        if low == "our":
            clause.extend(["the", "party's"])
            continue
        clause.append(word)
    if len(clause) < 3 or len(clause) > _MAX_CLAUSE_WORDS + 2:
        return None
    if speaker:
        told = third_person(clause, speaker, listener)
        if told is None:
            return None
        clause = told
    lowered_clause = [word.casefold().strip("'’") for word in clause]
    if any(word in _PERSONAL or word in _SPEECH_VERBS or word in _LINKISH for word in lowered_clause):
        return None
    if not all(re.fullmatch(r"[\w'’-]{1,30}", word) for word in clause):
        return None
    return " ".join(clause)


_MODALS = frozenset(
    {"will", "would", "can", "could", "should", "shall", "must", "might", "may", "did", "didn't"}
)
_IRREGULAR = {"am": "is", "are": "is", "have": "has", "do": "does", "don't": "does not", "was": "was"}
_I_FORMS = {
    "i'm": ["{who}", "is"],
    "i've": ["{who}", "has"],
    "i'll": ["{who}", "will"],
    "i'd": ["{who}", "would"],
}


def _third(verb: str) -> str:
    """The third-person form of a verb after "I" or "you": owe -> owes, carry -> carries, am -> is."""
    low = verb.casefold()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _MODALS or low.endswith("ed") or not low.isalpha():
        return verb
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def third_person(words: Sequence[str], speaker: str, listener: str | None) -> list[str] | None:
    """The player's words told by the narrator: "I owe" -> "Greyrock owes", "your ship" -> "Old Wei's ship".

    None when a word cannot be turned safely (a "you" with no listener).
    """
    out: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        low = word.casefold().replace("’", "'")
        following = words[index + 1] if index + 1 < len(words) else ""
        if low in _I_FORMS:
            out.extend(part.format(who=speaker) for part in _I_FORMS[low])
        elif low in ("i", "you") and following:
            who = speaker if low == "i" else listener
            if who is None:
                return None
            out.extend([who, _third(following)])
            index += 1
        elif low in ("me", "myself"):
            out.append(speaker)
        elif low == "my":
            out.append(f"{speaker}'s")
        elif low in ("your", "yours"):
            if listener is None:
                return None
            out.append(f"{listener}'s")
        elif low in ("you", "yourself"):
            if listener is None:
                return None
            out.append(listener)
        elif low in ("we", "us", "ourselves"):
            out.extend(["the", "party"])
        elif low in ("our", "ours"):
            out.extend(["the", "party's"])
        else:
            out.append(word)
        index += 1
    return " ".join(out).split()
