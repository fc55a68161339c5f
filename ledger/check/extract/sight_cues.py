"""Sight told without a verb of seeing, and the verbs of a predicate behind its auxiliaries.

Read by :mod:`.senses` for a creature whose condition could take its sight away:

- a hand moved along a thing of print ("runs a finger down the column", "traces the figures with her
  thumb"): the eyes follow what the finger points at, unless the sentence makes the writing a thing to feel
  (raised, embossed, carved, braille);
- colours told apart ("picks out the blue thread", "sorts the red beads from the green", "matches the
  ochre to the sample");
- someone recognised by how they look ("knows her by her red coat", "recognises him by his silhouette"),
  not by a voice, a step or a smell;
- eyes that land on a thing ("her gaze falls on the letter").

:func:`_main_verbs` reaches the verb behind an auxiliary joined to a predicate ("has a primer on his knee
and is reading the notation aloud"). Imports :mod:`.predicates`.
"""

from __future__ import annotations

from ledger.check.extract.names import Mention
from ledger.check.extract.predicates import _AUX_LEMMAS, _NEG_BEFORE, _participle, any_lemma, verb_lemma
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import is_finite

# verbs that move a hand along a thing; the hand words that may follow them
_HAND_MOVES = frozenset({"run", "trace", "move", "slide", "drag", "pass", "sweep", "walk", "draw", "skim"})
_HAND_WORDS = frozenset({"finger", "fingers", "fingertip", "fingertips", "thumb", "nail", "forefinger"})
_PATH = frozenset({"down", "along", "across", "over", "under", "up", "through", "beneath", "below"})
# what print is laid out in: a thing of writing read by the eye (a raised or carved one is felt, see below)
_PRINT = frozenset(
    {"column", "columns", "row", "rows", "list", "entry", "entries", "figures", "numbers", "digits"}
    | {"printout", "print", "page", "pages", "ledger", "manifest", "notation", "table", "tally", "register"}
    | {"index", "chart", "map", "schedule", "roster", "readout", "text", "timetable", "logbook", "log"}
    | {"sum", "sums", "accounts", "invoice", "bill", "receipt", "tables", "graph", "dial", "gauge"}
)
# words that make writing a thing to be felt: what a blind reader runs a finger over
_RELIEF = frozenset(
    {"raised", "embossed", "carved", "engraved", "incised", "braille", "bumps", "dots", "notches", "notched"}
    | {"grooves", "grooved", "etched", "punched", "chiselled", "chiseled", "knots", "knotted", "relief"}
    | {"feel", "feels", "feeling", "touch", "texture"}
)
_SKIP = frozenset({"the", "a", "an", "his", "her", "their", "its", "my", "your", "this", "that", "one"})


def _tactile(s: _Sentence) -> bool:
    """True when the sentence makes writing a thing to feel ("the raised letters", "the braille")."""
    return any(t.low in _RELIEF for t in s.tokens[s.a : s.b] if not t.quoted)


def _finger_on_print(lemma: str, nxt: list[str]) -> bool:
    """True for a hand moved along a thing of print: "runs a finger down the column", "traces the
    figures with her thumb" (the hand after the thing), "slides her fingertip along the entries"."""
    if lemma not in _HAND_MOVES:
        return False
    words = [w for w in nxt[:8] if w not in _SKIP]
    if lemma == "trace" and words[:1] and words[0] in _PRINT:
        return True  # "traces the figures": the thing itself is the object
    if not words or words[0] not in _HAND_WORDS or len(words) < 3 or words[1] not in _PATH:
        return False
    # the head noun of the path's object, past one adjective ("down the long column")
    return words[2] in _PRINT or (len(words) > 3 and words[3] in _PRINT and words[2] not in _PATH)


# the basic colour terms and the words for colour itself: told apart, they are seen
_COLOURS = frozenset(
    {"red", "blue", "green", "yellow", "orange", "purple", "violet", "pink", "brown", "grey", "gray"}
    | {"black", "white", "scarlet", "crimson", "azure", "ochre", "indigo", "amber", "teal", "turquoise"}
    | {"colour", "colours", "color", "colors", "hue", "hues", "shade", "shades", "tint", "magenta"}
    | {"vermilion", "emerald", "cobalt", "russet", "lilac", "maroon", "beige", "cyan", "gold", "silver"}
)
# verbs of telling things apart or matching them: with a colour in the object, done by the eye
_TELL_APART = frozenset({"distinguish", "sort", "match", "separate", "tell", "pick", "name", "identify"})


def _tells_colours(lemma: str, nxt: list[str]) -> bool:
    """True for colours told apart (``nxt``: a dozen words after the verb): "picks out the blue thread",
    "sorts the red beads from the green", "names the colour of the sky"; "pick" needs "out" and "tell" needs
    "from" ("tells the red-haired man to wait" tells nothing about colours)."""
    if lemma not in _TELL_APART:
        return False
    phrase = nxt[: nxt.index(",")] if "," in nxt else nxt[:7]
    if _OTHER_SENSE & set(nxt):
        # "tells the red from the white by the smell"; "picks out the red thread ..., rubbing each between
        # finger and thumb": told apart by the nose or the hand, the comma's clause and all
        return False
    if lemma == "pick" and phrase[:1] != ["out"]:
        return False
    if lemma == "tell" and "from" not in phrase:
        return False
    if lemma in ("name", "identify") and not {"colour", "colours", "color", "colors", "hue", "shade"} & set(
        phrase[:3]
    ):
        return False  # "names the blue ship": the colour may be the narrator's, the name known by ear
    return any(w in _COLOURS for w in phrase[:6] if w != "gold" or lemma != "sort")  # "sorts the gold" coins


_OTHER_SENSE = frozenset(
    {"smell", "scent", "taste", "feel", "touch", "sound", "weight", "texture", "nose", "sniffing", "rubbing"}
    | {"fingertips", "fingertip", "thumb", "feeling", "stiffened", "stiffness"}
)
# verbs of knowing someone again; "by" then a look (not a voice or a step) makes it sight
_RECOGNISE = frozenset({"recognise", "recognize", "know", "identify", "spot"})
_LOOKS = frozenset(
    {"face", "features", "silhouette", "outline", "shape", "coat", "cloak", "hat", "uniform", "livery"}
    | {"badge", "crest", "tattoo", "scar", "hair", "beard", "appearance", "clothes", "dress", "insignia"}
    | {"markings", "colours", "colors", "banner", "lantern", "smile", "eyes", "build", "figure", "profile"}
)


# what is only ever known by the eye: "recognises the handwriting", "knows the livery"
_SEEN_ONLY = frozenset({"handwriting", "signature", "script", "writing", "livery", "insignia", "crest"})
_SEEN_ONLY |= {"tattoo", "silhouette", "face", "features", "colours", "colors", "flag", "banner", "hand"}


def _by_looks(lemma: str, phrase: list[str]) -> bool:
    """True when "by" introduces how someone looks ("knows her by her red coat", "by his silhouette"), or
    the thing recognised there and then is one only the eye knows ("recognises the handwriting at once");
    "knows the face" may be knowledge from long ago."""
    head = [w for w in phrase[:3] if w not in _SKIP]
    if lemma != "know" and head[:1] and head[0] in _SEEN_ONLY and (head[0] != "hand" or "writing" in phrase):
        return True
    if "by" not in phrase[:6]:
        return False
    at = phrase.index("by")
    head = [w for w in phrase[at + 1 : at + 5] if w not in _SKIP]
    return bool(head) and (head[0] in _LOOKS or head[0] in _COLOURS or any_lemma(head[0]) in _LOOKS)


# what eyes do "on" a thing when they see it ("her gaze falls on the letter", "his eyes linger on her")
_EYES_LIGHT = frozenset({"fall", "land", "linger", "light", "alight", "stop", "catch"})


_HAVE_BE = frozenset({"has", "have", "had", "is", "are", "was", "were"})
_BREAK = frozenset({";", "—", "–", ":", "but", "while", "though", "although", "whereas", "he", "she", "they"})


def _have_predicate(s: _Sentence, m: Mention) -> list[tuple[int, str]]:
    """The predicate of a subject whose verb is a bare "has" or "is" ("Marit has a primer on her knee and is
    reading ..."), which :func:`_predicate` leaves: that verb, then each finite verb or auxiliary joined to it
    by "and" or a comma, up to a clause break or another creature."""
    toks = s.tokens
    if m.poss or m.j >= s.b or toks[m.j].low not in _HAVE_BE:
        return []
    out = [(m.j, "have" if toks[m.j].low.startswith("ha") else "be")]
    for k in range(m.j + 1, min(s.b, m.j + 25)):
        t = toks[k]
        if t.quoted or t.low in _BREAK or any(x.i == k and s.kind(x) in _CREATURES for x in s.mentions):
            break
        if toks[k - 1].low not in ("and", ",") or not t.text.isalpha() or not t.text.islower():
            continue
        lemma = verb_lemma(t.low)
        if lemma is not None and (t.low in _HAVE_BE or (t.low != lemma and is_finite(t.low, lemma))):
            out.append((k, lemma))
    return out


_CREATURES = frozenset({"pc", "npc", "monster"})


def _main_verbs(s: _Sentence, predicate: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The predicate with an auxiliary joined after its first verb replaced by its main verb: "has a primer
    on his knee and is reading the notation aloud" gives "read" (an -ing form after "be", a participle after
    "have"); "is still" or "is Ash's" keep the auxiliary."""
    toks = s.tokens
    out: list[tuple[int, str]] = []
    for n, (k, lemma) in enumerate(predicate):
        if n == 0 or lemma not in ("be", "have"):
            out.append((k, lemma))
            continue
        q = k + 1
        while q < s.b and (toks[q].low in _NEG_BEFORE or toks[q].low in ("still", "now", "just", "already")):
            q += 1
        if q < s.b and toks[q].low.endswith("ly") and verb_lemma(toks[q].low) is None:
            q += 1
        word = toks[q].low if q < s.b and not toks[q].quoted and toks[q].text.islower() else ""
        main = verb_lemma(word) if word else None
        ing = word.endswith("ing")
        if main is None or main in _AUX_LEMMAS or not _participle(word, main) or (lemma == "be") != ing:
            out.append((k, lemma))
            continue
        out.append((q, main))
    return out
