"""Faculties used: ``senses(entity, sight|hearing|speech|movement)`` for a creature whose condition could
take them away.

A verb of the subject's predicate whose lemma (lemminflect) is in the sight class (reads, watches, squints
...), the hearing class (hears, listens, or a reply right after someone else spoke: "answers her just as
softly", "whispers something back"), or the speech class (the lexicon's speech verbs, "reads ... aloud", "in
a low voice"); a bare line of speech right after a voiceless creature's action is theirs. Only creatures
that have a condition able to take the faculty away are read (:func:`_sense_blocked`, once per snapshot), so
the pass costs nothing on a healthy cast. Negated or modal verbs ("hears nothing", "cannot answer", "rather
than looking") make no claim. A voice told sounding ("her voice, when it comes, is low") is speech; words
given by hand or in writing ("in finger-speech", "with a stub of chalk") are not; eyes moved over a thing
("runs his gaze down the slip"), "looks up ... at" and "by eye" are sight, and so are a finger run down a
column of print, colours told apart and someone known by how they look (:mod:`.sight_cues`, which also
reaches the verb behind "and is reading"); words caught or answered that were given voice ("the whispered
question"), turning toward a sound and a start "when" a voice or a bell sounds are hearing; going the length
of a room or across it to somewhere is movement, which a restrained creature has lost. Read by
:mod:`.conditions`; imports :mod:`.predicates` and :mod:`.sight_cues`.
"""

from __future__ import annotations

from itertools import pairwise

from ledger.check.extract.names import Mention
from ledger.check.extract.predicates import (
    _SPOKEN_STRICT,
    SPOKEN,
    _lemmatizer,
    _negated_at,
    _predicate,
    _previous_sentence,
    _speech_acts,
    any_lemma,
    verb_lemma,
)
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.sight_cues import (
    _EYES_LIGHT,
    _RECOGNISE,
    _by_looks,
    _finger_on_print,
    _have_predicate,
    _main_verbs,
    _tactile,
    _tells_colours,
)
from ledger.check.extract.text import Token
from ledger.check.extract.verbs import is_past, verb_class
from ledger.check.snapshot import WorldSnapshot

# --- faculties: verb lemma classes ------------------------------------------------------------------------

SIGHT = frozenset(
    {"read", "watch", "see", "spot", "notice", "glimpse", "squint", "peer", "gaze", "scan", "eye", "glance"}
    | {"ogle", "survey", "behold", "skim", "peruse", "espy", "sight", "pore", "decipher", "proofread"}
    # verbs of examining a thing are done with the eyes unless the text says by touch
    | {"study", "examine", "inspect", "scrutinize", "scrutinise", "observe", "stare"}
)
HEARING = frozenset({"hear", "overhear", "listen", "eavesdrop"})
# cries of the voice without words: a creature whose every sound is taken (silenced) cannot make them
_CRIES = frozenset({"scream", "shriek", "wail", "howl", "screech", "squeal", "ululate", "keen", "yelp"})
# a reply (or a nod to obey) right after someone else spoke to the creature means it heard the words
REPLY = frozenset({"answer", "reply", "respond", "obey", "comply", "nod", "heed"})
# an answer given without the voice, and words passed without sound
_MUTE_MEANS = frozenset(
    {
        "nod",
        "shrug",
        "gesture",
        "sign",
        "signs",
        "shake",
        "note",
        "slate",
        "writing",
        "wave",
        "look",
        "glance",
    }
)
_SILENT_CHANNELS = frozenset(
    {
        "lips",
        "mouth",
        "slate",
        "note",
        "notes",
        "writes",
        "written",
        "wrote",
        "scrawls",
        "scribbles",
        "signs",
        "mouths",
    }
)
# what eyes do when they see ("her eyes follow him"); not "move" or "turn", which blind eyes do too
_EYES_SEE = frozenset(
    {"follow", "track", "scan", "find", "meet", "sweep", "dart", "flick", "settle", "fix", "rest"}
)
_LOUD_AFTER = frozenset({"aloud", "out"})  # "reads the prices out", "reads ... aloud"
# the conditions that could take a faculty away (see ledger.check.judge_meaning.FACULTY_LOST)
_SENSE_CONDITIONS = frozenset(
    {"blinded", "blind", "deafened", "deaf", "silenced", "gagged", "mute", "muted", "unconscious", "asleep"}
    | {"petrified", "paralyzed", "paralysed", "stunned", "incapacitated", "restrained", "grappled"}
)


def _senses_blocked(e_conditions: frozenset[str]) -> bool:
    return bool(e_conditions & _SENSE_CONDITIONS)


def _bare_quote_speaker(s: _Sentence, ante: str | None) -> str | None:
    """The creature a bare line of speech belongs to: a sentence that is only a quotation, with no verb of
    saying, right after a sentence whose subject is ``ante`` ('Bron grins. "Tuesday."'), unless the words
    were written, signed or mouthed ("slides a note across", "mouths", "on her slate")."""
    if ante is None:
        return None
    toks = s.tokens[s.a : s.b]
    words = [t for t in toks if t.text.isalnum()]
    if not words or any(not t.quoted for t in words):
        return None
    lo = _previous_sentence(s)
    if lo >= s.a:
        return None
    before = s.ex.tokens[lo : s.a]
    if not before or before[-1].quoted or any(t.quoted for t in before):
        return None  # the sentence before must be the narrator's: an action, not more dialogue
    if any(
        t.low in _SILENT_CHANNELS or t.low in _MUTE_MEANS or t.low in _WRITTEN or t.text == ":"
        for t in before
    ):
        return None  # "unfolds the letter. 'Meet me at dawn.'": the words on the page
    e = s.snap.entities.get(ante)
    # only a creature whose voice alone is gone: a senseless one's neighbour is the likelier speaker
    return ante if e is not None and e.conditions & _VOICELESS else None


_VOICELESS = frozenset({"silenced", "gagged", "mute", "muted"})
# things that carry written words: a quotation after them may be what they say
_WRITTEN = frozenset(
    {"letter", "note", "page", "paper", "sign", "placard", "inscription", "scroll", "writing", "card"}
    | {"message", "notice", "ledger", "book", "map", "parchment", "banner", "label", "reads", "read"}
)


def _sense_blocked(snap: WorldSnapshot) -> frozenset[str]:
    """The creatures with a condition that can take a sense away, built once per snapshot."""
    cached = snap.cache.get("meaning-sense-blocked")
    if isinstance(cached, frozenset):
        return cached
    found = frozenset(e.id for e in snap.entities.values() if e.conditions and _senses_blocked(e.conditions))
    snap.cache["meaning-sense-blocked"] = found
    return found


def _faculties(s: _Sentence, eid: str, m: Mention) -> list[tuple[str, str]]:
    """The faculties the predicate of subject ``m`` uses: (faculty, verb)."""
    toks = s.tokens
    out: list[tuple[str, str]] = []
    heard_speech: bool | None = None
    eyes = m.poss and m.j < s.b and toks[m.j].low in ("eyes", "eye", "gaze")
    # "stares sightlessly", "gazes into the fire she cannot see": the sentence says the eyes see nothing
    unseeing = any(t.low in _UNSEEING for t in toks[s.a : s.b] if not t.quoted) or _cannot_see(s)
    predicate = _main_verbs(s, _predicate(s, m) or _have_predicate(s, m))
    # "Her voice is gone, stolen by the charm": one verb telling the voice gone tells the whole predicate
    voice = m.poss and m.j < s.b and toks[m.j].low == "voice"
    # "Her voice was the finest in the choir, before the charm": what the voice was, before it was taken
    voice = voice and not (any(w in ("was", "were") for _, w in _forms(s, predicate)) and _said_before(s))
    voice = voice and all(
        _voice_sounds(lemma, [toks[q].low for q in range(k + 1, min(s.b, k + 8))]) for k, lemma in predicate
    )
    for k, lemma in predicate:
        if _negated_at(s, k) or _before_now(s, k, lemma):
            continue
        nxt = [toks[q].low for q in range(k + 1, min(s.b, k + 8))]
        if voice:
            out.append(("speech", f"voice {toks[k].low}"))  # "Her voice, when it comes, is low and sure"
            voice = False
        if _moves_gaze(lemma, nxt) and not unseeing:
            out.append(("sight", f"{toks[k].low} {nxt[0]} {nxt[1]}"))  # "runs his gaze down the slip"
        if lemma == "look" and _looks_at(nxt):
            out.append(("sight", toks[k].low))  # "looks up, very deliberately, at the captain"
        if eyes and (lemma in _EYES_SEE or (lemma in _EYES_LIGHT and nxt[:1] in (["on"], ["upon"]))):
            out.append(("sight", f"eyes {toks[k].low}"))  # "Quill's eyes follow Nyx across the ward"
        if not unseeing and not _tactile(s) and _finger_on_print(lemma, nxt):
            out.append(("sight", f"{toks[k].low} {' '.join(nxt[:4])}"))  # "runs a finger down the column"
        if not unseeing and _tells_colours(lemma, [toks[q].low for q in range(k + 1, min(s.b, k + 15))]):
            out.append(("sight", f"{toks[k].low} {' '.join(nxt[:3])}"))  # "picks out the blue thread"
        # "reads the runes with her fingertips", "reads his lips"; not "reads the letter, his lips moving"
        phrase = nxt[: nxt.index(",")] if "," in nxt else nxt
        if (_by_eye(phrase) or (lemma in _RECOGNISE and _by_looks(lemma, phrase))) and not unseeing:
            out.append(("sight", f"{toks[k].low} by eye"))  # "judges the brushwork by eye"
        if _traverses(lemma, nxt):
            out.append(("movement", f"{toks[k].low} {' '.join(nxt[:3])}"))  # "paces the length of the hall"
        by_touch = bool({"fingers", "fingertips", "touch", "braille", "lips"} & set(phrase))
        # "notices the draught", "reads the room by sound and smell": a percept of another sense
        objects = [w for w in phrase[:5] if w not in _DETERMINERS][:2]  # the object noun, after its article
        by_touch = by_touch or bool(_OTHER_PERCEPTS & {any_lemma(w) for w in objects})
        by_touch = by_touch or (lemma == "read" and bool(_READ_NOT_SEEN & set(phrase[:3])))
        # "deciphers the code by ear", "sorts them by feel"
        by_touch = by_touch or any(w == "by" and n in _BY_OTHER_SENSE for w, n in pairwise(phrase))
        # not "reads the runes with her fingertips", "sees to the lamps", "sees the future in the smoke"
        if lemma in SIGHT and not by_touch and not unseeing and not (lemma == "see" and _inner_sight(phrase)):
            out.append(("sight", toks[k].low))
        if (lemma == "look" and nxt[:1] == ["at"]) or (lemma == "catch" and nxt[:1] == ["sight"]):
            out.append(("sight", toks[k].low))
        if lemma not in SPOKEN and _at_a_sound(lemma, nxt):
            out.append(("hearing", toks[k].low))  # "turns at the sound of his name", "jumps at the bang"
        # not "catching one word in three off his lips": words read, not heard
        caught = lemma == "catch" and not _SILENT_CHANNELS & set(phrase)
        if caught and (_caught_words(phrase) or _voiced(phrase)):
            out.append(("hearing", toks[k].low))  # "catches every word", "catches the murmured reply"
        if lemma in _STARTLED and _when_sounding(s, k, eid):
            out.append(("hearing", toks[k].low))  # "turns when Ash calls his name"
        to_whom = "to" in nxt[:7] and not {"himself", "herself", "themselves", "itself"} & set(nxt)
        if lemma == "read" and (_LOUD_AFTER & set(nxt) or to_whom):
            out.append(("speech", toks[k].low))
        if lemma == "follow" and "eyes" in nxt:
            out.append(("sight", "follows with the eyes"))
        # "hears from his sister by letter", "hears of the fire": news come to him, by any means
        if lemma in HEARING and not (lemma == "hear" and nxt[:1] in (["from"], ["of"], ["about"], ["tell"])):
            out.append(("hearing", toks[k].low))
        # "answers with a nod", "replies on her slate", "answers the question in the Choir's finger-speech"
        mute_means = bool(_MUTE_MEANS & set(nxt[:5])) or _by_hand(s, k)
        if not mute_means and (
            lemma in SPOKEN
            or (lemma == "pipe" and "up" in nxt[:1])
            or (lemma in ("tell", "say") or ("voice" in nxt[:6] and lemma in _SPOKEN_STRICT))
        ):
            out.append(("speech", toks[k].low))
        if lemma in _CRIES and not _by_hand(s, k):
            out.append(("voice", toks[k].low))  # "screams", "wails": a sound of the voice, not words
        if lemma in REPLY or (lemma in SPOKEN and ("back" in nxt[:3] or "reply" in nxt[:3])):
            lo = _previous_sentence(s, 2)
            # words read off the lips or a slate are not heard
            silent = any(t.low in _SILENT_CHANNELS for t in s.ex.tokens[lo : s.b] if not t.quoted)
            if lemma in REPLY and _voiced(phrase) and not silent and not _by_hand(s, k):
                out.append(("hearing", toks[k].low))  # "answers the whispered question": asked aloud
            if heard_speech is None:
                heard_speech = not silent and _speech_acts(s, lo, k, eid)
            if heard_speech:
                out.append(("hearing", toks[k].low))
    return out


# verbs that move the eyes over a thing to take it in ("runs his gaze down the page", "sweeps her eyes
# across the crowd"); not "turns" or "lifts", which blind eyes do too
_GAZE_MOVES = frozenset({"run", "sweep", "cast", "drag", "pass", "rake", "train"})
_POSSESSIVE = frozenset({"his", "her", "their", "its", "my", "your"})
_UNSEEING_EYES = frozenset(
    {"blind", "clouded", "milky", "sightless", "unseeing", "dead", "empty", "bandaged"}
)
# a voice that is not there: what "is" or a verb of failing tells of it ("her voice is gone", "fails her")
_VOICE_GONE = frozenset(
    {"gone", "lost", "silent", "silenced", "stolen", "mute", "muted", "dead", "useless", "absent", "nothing"}
    | {"locked", "trapped", "sealed", "bound", "no", "not", "never", "barely", "only"}
)
_VOICE_FAILS = frozenset(
    {"fail", "die", "desert", "leave", "abandon", "vanish", "go", "dry", "stick", "refuse"}
)


def _voice_sounds(lemma: str, nxt: list[str]) -> bool:
    """True when the predicate of "her voice" tells it sounding ("comes", "cracks on the bridge", "is
    startlingly low"), not failing ("fails her", "is gone", "dies in her throat")."""
    if lemma in _VOICE_FAILS or lemma in _AUX_VOICE or lemma in _TAKEN:
        return lemma == "be" and not (_VOICE_GONE & set(nxt[:3])) and nxt[:1] != ["a"]
    return True


_AUX_VOICE = frozenset({"be", "have", "do", "seem", "remain", "stay", "feel"})
# a voice taken away by someone ("stolen by the charm", "bound by the oath")
_TAKEN = frozenset(
    {"steal", "take", "rob", "bind", "seal", "lock", "choke", "smother", "strangle", "silence"}
)


def _moves_gaze(lemma: str, nxt: list[str]) -> bool:
    """True for a verb moving the eyes over a thing ("runs his gaze down the slip"), unless the words say
    the eyes are blind ("runs his clouded eyes over the room")."""
    if lemma not in _GAZE_MOVES or len(nxt) < 2 or nxt[0] not in _POSSESSIVE:
        return False
    at = next((n for n, w in enumerate(nxt[1:4], 1) if w in ("gaze", "eyes", "eye")), None)
    return at is not None and not _UNSEEING_EYES & set(nxt[1:at])


# words that place a past verb before the scene ("murmured an hour ago", "was the finest, before the charm")
_BACK_THEN = frozenset({"ago", "formerly", "yesterday", "used"})
_NOW_AUX = frozenset({"has", "have", "is", "are", "am", "be", "been", "being", "gets", "get", "just"})


def _before_now(s: _Sentence, k: int, lemma: str) -> bool:
    """True when the verb at ``k`` tells the past, not the scene: a past form in a narration told in the
    present tense, or a past form with a word that places it back then in the sentence."""
    word = s.tokens[k].low
    if not is_past(word, lemma) and word not in ("was", "were"):
        return False
    prev = s.tokens[k - 1] if k > s.a else None
    if prev is not None and (prev.text.lower().endswith(("'s", "’s", "'ve", "’ve")) or prev.low in _NOW_AUX):
        return False  # "she's heard it", "has heard", "is heard": the present perfect or a passive, now
    return s.ex.present_tense or any(t.low in _BACK_THEN for t in s.tokens[s.a : s.b] if not t.quoted)


def _forms(s: _Sentence, predicate: list[tuple[int, str]]) -> list[tuple[int, str]]:
    return [(k, s.tokens[k].low) for k, _ in predicate]


def _said_before(s: _Sentence) -> bool:
    """True when the sentence sets what it tells before something ("before the charm", "before the fever")."""
    toks = s.tokens
    return any(
        toks[q].low == "before" and q + 1 < s.b and toks[q + 1].low in ("the", "his", "her", "their")
        for q in range(s.a, s.b)
    )


def _by_eye(phrase: list[str]) -> bool:
    """True when the clause names the eyes as its means: "judges the brushwork by eye", "by sight"."""
    return any(w == "by" and nxt in ("eye", "sight", "eyesight") for w, nxt in pairwise(phrase))


# what follows a verb to make it a way across a space: "the length of the hall", "up and down the deck",
# "back and forth across the yard"; a restrained creature cannot go the length of anything
_SPANS = (
    ("the", "length", "of"),
    ("the", "width", "of"),
    ("up", "and", "down", "the"),
    ("from", "end", "to"),
)
_TO_AND_FRO = frozenset({"across", "along", "through"})


def _traverses(lemma: str, nxt: list[str]) -> bool:
    """True when a verb of doing (not of speaking, seeing or handling a thing) takes a way across a space
    ("paces the length of the hall", "stalks up and down the deck", "walks back and forth across the
    yard"), or "crosses" a space to somewhere ("crosses the room to the window")."""
    if verb_class(lemma) not in ("act", "motion"):
        return False
    if any(tuple(nxt[: len(span)]) == span for span in _SPANS):
        return True
    if nxt[:3] in (["back", "and", "forth"], ["to", "and", "fro"]) and len(nxt) > 3 and nxt[3] in _TO_AND_FRO:
        return True
    return lemma == "cross" and nxt[:1] == ["the"] and len(nxt) > 3 and nxt[2] in ("to", "toward", "towards")


def _looks_at(nxt: list[str]) -> bool:
    """True when "looks" reaches "at" past a particle and adverbs: "looks up at", "looks up, very
    deliberately, at the captain"; not "looks away" or "looks up" alone."""
    for w in nxt[:6]:
        if w == "at":
            return True
        if w in ("up", "down", "over", "across", "round", "around", "back", ",") or _adverb(w):
            continue
        return False
    return False


def _adverb(word: str) -> bool:
    """True for an adverb by the lexicon ("slowly", "very", "quite"), whatever its ending."""
    return word.isalpha() and "ADV" in _lemmatizer()(word)


# the means of words given without the voice, after a preposition of means: the hands and fingers, and
# verbs of writing and signing by lemma ("in finger-speech", "with a stub of chalk", "by signing")
_HANDS = frozenset({"hand", "hands", "finger", "fingers", "fingertip", "fingertips"})
_WRITTEN_MEANS = frozenset(
    {"write", "sign", "gesture", "chalk", "scrawl", "scribble", "mime", "pencil", "pen"}
)
_MEANS_LEAD = frozenset({"in", "with", "by", "on", "through", "using", "via"})


def _by_hand(s: _Sentence, k: int) -> bool:
    """True when the clause after the verb at ``k`` gives its words a means other than the voice: a
    preposition of means, then within its phrase a hand or finger (the parts of a compound counted:
    "finger-speech", "hand-talk") or a verb of writing or signing."""
    toks = s.tokens
    lead = False
    for q in range(k + 1, min(s.b, k + 12)):
        t = toks[q]
        if t.quoted or t.text in (",", ";", ".", ":", "!", "?"):
            break
        if t.low in _MEANS_LEAD:
            lead = True
            continue
        if not lead:
            continue
        parts = t.low.split("-")
        if len(parts) > 1 and _HANDS & set(parts):
            return True  # "finger-speech", "hand-talk": a way of talking with the hands
        if any(
            p in _SILENT_CHANNELS or any_lemma(p) in _WRITTEN_MEANS or verb_lemma(p) in _WRITTEN_MEANS
            for p in parts
        ):
            return True
        nxt = toks[q + 1].low if q + 1 < s.b else "."
        if t.low in _HANDS and nxt not in _PLACED:
            return True  # "talks with her hands"; not "says, with a hand on her arm"
    return False


# after a hand, a preposition that places it: the hand is where it rests, not how words are given
_PLACED = frozenset({"on", "over", "upon", "in", "around", "round", "at", "to", "against", "across", "under"})


# what "sees" takes when it means foresight or understanding, not the eyes ("sees the future", "sees the
# sense in it", "sees fit", "sees through the lie", "sees that the plan is mad")
_INNER_SEEN = frozenset(
    {"future", "futures", "vision", "visions", "sense", "point", "truth", "reason", "fit", "omen", "omens"}
    | {
        "portent",
        "portents",
        "dream",
        "dreams",
        "meaning",
        "through",
        "what",
        "how",
        "why",
        "that",
        "whether",
    }
    | {"if", "mind's", "mind", "fate", "fates", "destiny", "wisdom", "merit", "use", "to"}
    | {"past", "spirit", "spirits", "soul", "heart", "ghost", "ghosts", "beyond", "clearly"}
)
# the noun of a sound heard: a creature that starts, turns or wakes "at" or "to" it heard it
_SOUND_NOUNS = frozenset(
    {"sound", "noise", "crack", "bang", "clang", "clatter", "knock", "knocking", "cry", "shout", "voice"}
    | {"creak", "footstep", "laughter", "music", "singing", "rattle", "roar", "scream", "whisper", "crash"}
    | {"thud", "howl", "barking", "gunshot", "clamour", "clamor", "din", "racket", "commotion", "uproar"}
    | {"tolling", "chime", "ringing", "shriek", "yelp", "squeal", "hiss", "snap", "slam", "bellow"}
)
# what ears catch ("catches every word", "catches his name", "catches snatches of the song")
_CAUGHT = frozenset(
    {"word", "words", "whisper", "whispers", "name", "remark", "question", "conversation", "snatches"}
    | {"murmur", "tune", "song", "sound", "answer", "reply", "gist", "drift"}
)
_DETERMINERS = frozenset({"the", "a", "an", "his", "her", "their", "its", "every", "each", "some", "that"})


# words that tell eyes seeing nothing ("stares sightlessly", "peers blindly about", "her blind eyes")
_UNSEEING = frozenset(
    {"sightlessly", "blindly", "blankly", "unseeingly", "unseeing", "sightless", "vacantly"}
)
# percepts of the other senses: what is noticed or studied without the eyes ("notices the draught")
_OTHER_PERCEPTS = frozenset(
    {"draught", "draft", "smell", "scent", "perfume", "odour", "odor", "stink", "stench", "reek", "sound"}
    | {"noise", "cold", "chill", "warmth", "heat", "breeze", "silence", "tremor", "vibration", "taste"}
    | {"footstep", "voice", "hush", "ear", "feel", "texture", "weight", "breath", "creak", "whisper"}
)
_BY_OTHER_SENSE = frozenset({"ear", "ears", "sound", "touch", "feel", "smell", "scent", "taste", "hand"})
# what "reads" takes in the sense of judging, not of reading with the eyes ("reads the room", "the mood")
_READ_NOT_SEEN = frozenset({"room", "mood", "crowd", "situation", "silence", "air", "wind", "weather"})


def _cannot_see(s: _Sentence) -> bool:
    """True when the sentence says someone cannot see ("the fire she cannot see", "no longer sees")."""
    toks = s.tokens
    for k in range(s.a + 1, s.b):
        if verb_lemma(toks[k].low) == "see" and not toks[k].quoted:
            before = {toks[q].low for q in range(max(s.a, k - 3), k)}
            if before & {"cannot", "can't", "not", "never", "longer", "unable"}:
                return True
    return False


def _inner_sight(phrase: list[str]) -> bool:
    """True when "see" is followed by what it means to foresee or understand, not to look at."""
    if phrase[:1] and phrase[0] in _INNER_SEEN:
        return True  # "sees that ...", "sees to the lamps", "sees fit"
    head = [w for w in phrase[:4] if w not in _DETERMINERS]
    return bool(head) and (head[0] in _INNER_SEEN or (len(head) > 1 and head[1] in _INNER_SEEN))


def _at_a_sound(lemma: str, nxt: list[str]) -> bool:
    """ "at the sound of", "to the clang of the bell", "up at the noise", "toward the voice", "cocks his head
    at the knock": "at", "to" or "toward" (after the head or ears moved, or a particle), a determiner or two,
    an adjective at most, then a noun of sound; after a verb of a start or a turn ("jumps at the bell",
    "turns at his name") also a thing that sounds or words, which other verbs may only look at."""
    q = 2 if nxt[:1] and nxt[0] in _POSSESSIVE and nxt[1:2] and nxt[1] in _HEAD_PARTS else 0
    q += 1 if q < len(nxt) and nxt[q] in ("up", "round", "around", "back", "awake", "along", "about") else 0
    if q >= len(nxt) or nxt[q] not in ("at", "to", "toward", "towards"):
        return False
    infinitive = (
        bool(nxt[q + 1 : q + 2]) and nxt[q + 1] not in _DETERMINERS and not nxt[q + 1].endswith("ing")
    )
    if nxt[q] == "to" and infinitive:
        return False  # "tries to scream": an infinitive, not a sound come to
    rest = [w for w in nxt[q + 1 : q + 6] if w not in _DETERMINERS]
    for n, w in enumerate(rest[:2]):
        if w in _SOUND_NOUNS or any_lemma(w) in _SOUND_NOUNS:
            after = rest[n + 1] if n + 1 < len(rest) else "."
            # "the singing girl": a form in -ing before a noun is its adjective, not the sound
            return not w.endswith("ing") or after in ("of", ",", ".", "and", "from", "in", ";")
        after = rest[n + 1] if n + 1 < len(rest) else "."
        if lemma in _REACTS and nxt[q] == "at" and any_lemma(w) in _SOUNDERS and not after.isalpha():
            return True  # "jumps at the bell.", not "turns to the bell tower"
    return False


# verbs of a start or a turn, which a sound made "when" it comes sets off
# (not "looks up" or "stops", which a deaf creature does on seeing a mouth move)
_STARTLED = frozenset({"jump", "start", "flinch", "turn", "whirl", "spin", "stiffen", "jerk", "wake"})
_HEAD_PARTS = frozenset({"head", "ears", "ear", "face", "chin"})  # "cocks his head at", "pricks her ears to"
# verbs of a start or a turn of the head: "at" a thing that sounds, it is the sound they react to
_REACTS = _STARTLED | {"wince", "cock", "lift", "prick", "perk", "startle", "straighten", "bristle", "whip"}
# things that sound, and words: a start at them is at their sound ("jumps at the bell", "turns at his name")
_SOUNDERS = frozenset({"bell", "whistle", "horn", "siren", "gong", "drum", "alarm", "name", "question"})
_SOUNDERS |= {"word", "call", "shot", "thunder", "explosion", "screech", "peal", "trumpet", "bugle", "chime"}


# what a speaker says they heard just now: a short object closing the clause ("I heard that.", "I can hear
# you", "I heard every word"); "I heard you were ill" or "I heard it from the miller" is hearsay
_HEARD_NOW = frozenset({"that", "it", "you", "this", "him", "her", "them", "everything", "all"})
_HEARD_WORDS = frozenset({"every", "each", "word", "words", "whisper", "all", "of", "it", "that"})
_NOT_HEARD = frozenset({"not", "never", "cannot", "can't", "couldn't", "didn't", "don't", "won't", "barely"})
_FIRST_PERSON_HELP = frozenset({"can", "could", "just", "did", "do", "have", "'ve", "still", "all"})


_WORDS_SPOKEN = frozenset(
    {"say", "call", "whisper", "mutter", "murmur", "talk", "mumble", "snigger", "laugh", "giggle"}
)


def says_heard(tokens: list[Token]) -> str | None:
    """The hearing verb of a line of speech in which the speaker says they heard what was just said: "I
    heard that," "I can hear you perfectly well," "I heard every word." Not negated ("I didn't hear"), not
    a question, not hearsay ("I heard you were ill", "I heard it from Tam"): the object must close the
    clause. ``tokens`` are one quotation's words."""
    words = [t.low for t in tokens]
    if "?" in words:
        return None
    for k, w in enumerate(words):
        if verb_lemma(w) not in ("hear", "overhear"):
            continue
        before = words[max(0, k - 3) : k]
        at = max((q for q, b in enumerate(before) if b in ("i", "i've")), default=None)
        if at is None or _NOT_HEARD & set(before):
            continue
        if any(b not in _FIRST_PERSON_HELP for b in before[at + 1 :]):
            continue  # "I think they heard it": someone else heard
        rest = words[k + 1 : k + 6]
        # "I heard what you said", "I heard what he called me": the words just spoken
        if rest[:1] == ["what"] and len(rest) > 2 and verb_lemma(rest[2]) in _WORDS_SPOKEN:
            return w
        if not rest or rest[0] not in _HEARD_NOW | _HEARD_WORDS:
            continue
        n = 0
        while n < len(rest) and rest[n] in _HEARD_NOW | _HEARD_WORDS:
            n += 1
        after = rest[n] if n < len(rest) else "."
        if verb_lemma(after) in _WORDS_SPOKEN and after.endswith("ing"):
            return w  # "I heard you muttering"
        if after in (",", ".", "!", ";", '"', "\u201d", "perfectly", "well", "clearly", "plainly", "fine"):
            return w
    return None


def _voiced(phrase: list[str]) -> bool:
    """True when the object is words given voice: a participle of a verb of speaking before a noun ("the
    whispered question", "a murmured warning", "the shouted order")."""
    head = [w for w in phrase[:4] if w not in _DETERMINERS]
    return (
        len(head) > 1
        and head[0].endswith("ed")
        and verb_lemma(head[0]) in SPOKEN
        and head[1].isalpha()
        and bool(_lemmatizer()(head[1]).get("NOUN"))
    )


# verbs of a sound that cannot be felt through the floor: a voice, a bell, a whistle
_SOUNDING = frozenset({"ring", "chime", "whistle", "creak", "squeak", "click", "toll", "hoot", "sing"})


def _when_sounding(s: _Sentence, k: int, eid: str) -> bool:
    """True when "when" right after the verb at ``k`` opens a clause whose verb (within five words) makes a
    sound that only ears take in: someone speaking ("turns when Ash calls his name"), a bell ringing; not the
    creature's own words ("stops when he speaks")."""
    toks = s.tokens
    if k + 1 >= s.b or toks[k + 1].low != "when":
        return False
    for q in range(k + 2, min(s.b, k + 8)):
        t = toks[q]
        if t.quoted or t.text in (",", ";", ".", ":"):
            return False
        lemma = verb_lemma(t.low)
        if lemma is not None and t.text.islower() and (lemma in _SOUNDING or lemma in _SPOKEN_STRICT):
            e = s.snap.entities.get(eid)
            own = any(m.id == eid and m.j == q for m in s.mentions)
            return not own and toks[q - 1].low != (e.pronoun if e else None)  # not "stops when he speaks"
    return False


def _caught_words(phrase: list[str]) -> bool:
    """True when "catch" takes words or a sound as its object: "catches every word of the quarrel"."""
    head = [w for w in phrase[:4] if w not in _DETERMINERS and w not in ("of", "one", "few", "last")]
    return bool(head) and head[0] in _CAUGHT
