"""Item claims: who holds an item and how many, from possessives, pronouns and handling verbs.

``_holdings`` emits ``holds`` with hand-overs ("give:<id>"), acquisitions and counts ("qty=3", "qty>=2") as
details the judge replays in text order; the carrying, bundle and handling word lists live here. Imports
:mod:`.lexicon`, :mod:`.text`, :mod:`.names` and :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.claims import Modality
from ledger.check.extract.counts import _QUALIFIERS, kind_not_item, owed_after
from ledger.check.extract.lexicon import (
    _BODY_NOUNS,
    _HOLDING,
    _NUMBERS,
    _PRONOUN_POSS,
    _SUBJECT_LEAD,
    VERBS,
    _is_past,
)
from ledger.check.extract.linker import ORDINALS, fits_gender, is_noun, is_plural, is_verb, noun_lemma
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.text import Token, _number
from ledger.check.extract.verbs import can_be_past, is_finite, verb_class
from ledger.check.extract.verbs import lemma as lexicon_lemma

_HOLD_VERBS = frozenset(_HOLDING.split())
_GIVE_VERBS = frozenset(
    {"hand", "give", "pass", "toss", "offer", "slide", "throw", "press", "lend", "loan", "entrust", "deliver"}
)
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
        "around",
        "round",
        "about",
        "through",
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
                if words[q + 2 : q + 3] and words[q + 2] in _QUALIFIERS:
                    return None, False  # "only two left with any charge": some of them
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
    | {"ride", "float", "bob", "remain", "perch", "loom", "squat", "tower"}
)
# where a thing may be told to lie after "is": "is at the quay", "are in the cellar"
_HERE_PREPS = frozenset(
    {"at", "in", "on", "by", "beside", "under", "inside", "behind", "against", "near", "upon", "beneath"}
)
# verbs of putting a thing away somewhere, told as its state after "is": "is moored in", "are stowed under"
_PUT_AWAY = frozenset(
    {"moor", "anchor", "beach", "dock", "stow", "store", "hide", "keep", "tie", "lock", "stack", "hang"}
    | {"shelve", "pile", "lodge", "tuck", "bury", "leave", "berth", "tether", "prop", "lay", "set", "put"}
    | {"pin", "nail", "mount", "chain", "wedge", "wrap", "fold", "roll", "pack", "shut"}
)
# what a thing "is in" when it is broken, gone or someone else's: not a place it lies whole
_NOT_A_PLACE = frozenset(
    {"pieces", "ruins", "shards", "splinters", "ashes", "fragments", "bits", "tatters", "halves", "hands"}
    | {"keeping", "possession", "pawn", "hock", "debt", "bottom", "doubt", "question", "danger", "trouble"}
    | {"mind", "memory", "memories", "heart", "thoughts", "dreams", "check", "trust", "store", "vain"}
)


def _item_is_here(s: _Sentence, it: Mention) -> bool:
    """An item opening its clause, then a present-tense verb of lying about ("sits", "gleams", "is on")."""
    c0, _ = s.clause_of(it.i)
    lead = it.i - 1
    if lead >= s.a and s.tokens[lead].low in ("a", "an", "another", "some"):
        return False  # "A horn sounds in the valley": a new thing, not the one recorded
    if lead >= s.a and s.tokens[lead].low in ("the", "a", "an"):
        lead -= 1  # "The rosewood lute hangs on the wall": a name recorded without its article
    first = it.i == c0 or lead < c0 or (lead >= s.a and s.tokens[lead].low in _SUBJECT_LEAD)
    if not first or it.j >= s.b or it.poss:
        return False
    form = s.tokens[it.j].low
    if form in ("is", "are") and it.j + 2 < s.b:
        # "the ferry is lying in the cove", "the almanac is on the lectern"
        nxt, far = s.tokens[it.j + 1].low, s.tokens[it.j + 2]
        if nxt.endswith("ing") and lexicon_lemma(nxt) in _ITEM_HERE:
            return True
        fate = s.snap.fates.get(it.id or "")
        if fate is not None and fate.fate == "sold":
            return False  # a thing sold is somewhere still: "the brooch is in a jeweller's window now"
        rest = {t.low for t in s.tokens[it.j + 2 : min(s.b, it.j + 10)]}
        if _NOT_A_PLACE & rest or any(c.i in range(it.j + 2, it.j + 6) for c in s.creatures()):
            return False  # "is in pieces", "is kept in mind", "is in the hands of a Dover man"
        if lexicon_lemma(nxt) in _PUT_AWAY and nxt != lexicon_lemma(nxt) and far.low in _HERE_PREPS:
            return True  # "the almanac is hidden under the floor", "the horn is hung on the wall"
        return nxt in _HERE_PREPS and not far.quoted and not far.poss
    lemma = VERBS.get(form) or (form[:-1] if form.endswith("s") else "")
    if lemma in _ITEM_HERE and form.endswith("s") and not _is_past(form, lemma):
        return True
    if (
        form in _ITEM_HERE
        and _told_plural(s, it)
        and it.j + 1 < s.b
        and s.tokens[it.j + 1].low in _HERE_PREPS
    ):
        return True  # "the tide tables hang on the wall": a plural's present is the bare form
    return _works_though_destroyed(s, it, form)


# what a destroyed thing's remains may still do: "the horn rusts on the rocks", "the tables burn"
_ENDING = frozenset(
    {"rust", "rot", "crumble", "burn", "smoulder", "smolder", "fall", "break", "shatter", "sink", "melt"}
    | {"decay", "moulder", "char", "splinter", "crack", "collapse", "vanish", "disappear", "blacken", "curl"}
)


def _works_though_destroyed(s: _Sentence, it: Mention, form: str) -> bool:
    """A destroyed or used-up item opening its clause with a present-tense verb of its own ("the old
    foghorn bellows across the bay"): it is told working now. Verbs of decay stay clean ("the horn rusts
    on the rocks"), and a sold or lost thing may go on doing things elsewhere."""
    fate = s.snap.fates.get(it.id or "")
    if fate is None or fate.fate not in ("destroyed", "used up"):
        return False
    base = lexicon_lemma(form) if s.tokens[it.j].text.islower() else None
    if base is None or base == form or not form.endswith("s") or _is_past(form, base):
        return False
    return base not in _ENDING and base not in ("be", "have", "seem", "remain") and is_finite(form, base)


def _holdings(s: _Sentence) -> None:
    """holds(holder, item, qty?) from possessives, pronouns and handling verbs; hand-overs as details."""
    items = [m for m in s.mentions if s.kind(m) == "item" and not m.quoted and not kind_not_item(s, m)]
    if not items:
        return
    _item_claims(s, items)
    _handed_it(s, items)
    _kept_in_hand(s, items)


_NOT_DONE = frozenset(
    {"doesn't", "don't", "didn't", "won't", "never", "cannot", "can't", "wouldn't", "not", "refuses"}
)
_NOT_DONE_PAIRS = frozenset(
    {(w, "not") for w in ("does", "do", "did", "will", "would", "can")}
    | {(w, "to") for w in ("refuses", "refused", "declines", "declined")}
)
# verbs of letting go: told not done, the thing stays in the subject's hands
_LET_GO = frozenset({"lower", "drop", "release", "relinquish", "surrender", "loose", "loosen", "sheathe"})
_LET_GO_PHRASES: tuple[tuple[str, ...], ...] = (
    ("put", "down"),
    ("set", "down"),
    ("lay", "down"),
    ("let", "go", "of"),
    ("give", "up"),
    ("hand", "over"),
    ("put", "away"),
    ("let", "go"),
)


def _kept_in_hand(s: _Sentence, items: list[Mention]) -> None:
    """ "The captain doesn't lower the sextant", "she will not let go of the rope": letting a thing go, told
    not done, tells that the subject still holds it."""
    toks = s.tokens
    creatures = s.creatures()
    for it in items:
        if it.id is None or it.poss:
            continue
        k = it.i - 1
        while k > s.a and (toks[k].low in ("the", "a", "an", "that", "this") or toks[k].low in _PRONOUN_POSS):
            k -= 1
        verb_end = k + 1
        start = next(
            (
                q
                for q, phrase in ((k - len(p) + 1, p) for p in _LET_GO_PHRASES)
                if q > s.a and tuple(lexicon_lemma(t.low) or t.low for t in toks[q:verb_end]) == phrase
            ),
            k if lexicon_lemma(toks[k].low) in _LET_GO else None,
        )
        if start is None:
            continue
        neg = start - 1
        while neg > s.a and toks[neg].low.endswith("ly"):
            neg -= 1
        pair = (toks[neg - 1].low, toks[neg].low)
        if pair[1] in ("not", "to") and pair in _NOT_DONE_PAIRS:
            neg -= 1  # "does not", "refuses to"
        elif toks[neg].low not in _NOT_DONE:
            continue
        subject = next((c for c in reversed(creatures) if c.j <= neg and not c.poss), None)
        if subject is None or subject.id is None:
            continue
        between = [t for t in toks[subject.j : neg] if not t.low.endswith("ly") and t.low not in ("still",)]
        if between:
            continue  # the subject's own verb, right after it: "the captain doesn't lower ..."
        m = s.modality(it)
        mod = Modality(m.in_dialogue, m.hypothetical, m.memory, m.rumour, False)
        s.claim("holds", (subject.id, it.id), subject, mod, "")


def _handed_it(s: _Sentence, items: list[Mention]) -> None:
    """ "... tugs one of her golden tickets from her sleeve and hands it to Pim": a hand-over whose object is
    "it", the last item named before it in the sentence, given by the creature that item's clause opens
    with, to the first creature named after it."""
    toks = s.tokens
    creatures = s.creatures()
    for q in range(s.a + 1, s.b - 1):
        if toks[q].low != "it" or toks[q].quoted:
            continue
        given = VERBS.get(toks[q - 1].low) in _GIVE_VERBS
        # "holds it out to Bryony", "slides it across to Tam": any verb, then "it" sent to someone
        receiver = _sent_to(s, q + 1, creatures)
        if not given and receiver is None:
            continue
        item = next((m for m in reversed(items) if m.j <= q - 1), None)
        if item is None or item.id is None:
            continue
        giver = next((c for c in reversed(creatures) if c.j <= item.i and not c.poss), None)
        to = receiver or next(
            (c for c in creatures if c.i > q and c.id != (giver.id if giver else None)), None
        )
        if receiver is not None and giver is not None and receiver.id == giver.id:
            continue
        if giver is None or giver.id is None or to is None or to.id is None:
            continue
        s.claim("holds", (giver.id, item.id), giver, s.modality(giver), f"give:{to.id}")


_LOCATIVE = frozenset(
    {
        "beside",
        "near",
        "by",
        "under",
        "over",
        "across",
        "against",
        "behind",
        "toward",
        "towards",
        "at",
        "on",
        "onto",
        "upon",
        "past",
        "around",
        "between",
        "beneath",
        "above",
        "below",
        "along",
        "into",
        "in",
        "inside",
        "from",
        "through",
        "among",
        "beyond",
        "alongside",
    }
)


_SOME = frozenset({"some", "few", "several", "most", "half", "many", "each", "any", "none", "both"})


def _partitive(s: _Sentence, q: int) -> int | None:
    """The count of a partitive ending at token ``q`` ("three of", "one of", "some of"): the number it
    names (0 for "some", "few" ...), or None when token ``q`` is no "of" after a count."""
    toks = s.tokens
    if q - 1 < s.a or toks[q].low != "of":
        return None
    w = toks[q - 1].low
    if w.isdigit():
        return int(w)
    if w in _NUMBERS and w not in ("a", "an"):
        return _NUMBERS[w]
    return 0 if w in _SOME else None


# verb classes that do something to a thing without having it in hand (or are read elsewhere)
_NOT_HANDLING = frozenset({"speech", "commitment", "perception", "state", "posture", "motion"})
# verbs of wanting, missing, judging, naming or trading a thing: about it, at a distance, not in hand
_AT_A_DISTANCE = frozenset(
    {"miss", "covet", "seek", "mourn", "desire", "praise", "mention", "describe", "recognise", "recognize"}
    | {"find", "search", "guard", "ignore", "lose", "sell", "buy", "pawn", "forget", "discuss", "consider"}
    | {"name", "blame", "bless", "admire", "envy", "regard", "recall", "picture", "imagine", "demand"}
    | {"refuse", "decline", "appraise", "value", "price", "eye", "point", "indicate", "trade", "steal", "owe"}
    | {"request"}
)


# verbs of going that take the craft or the beast they go in or on as object: "rows the skiff across",
# "rides the grey mare", "sails the lugger out": whoever does it has that thing in hand
_STEERED = frozenset(
    {"row", "sail", "ride", "drive", "steer", "pilot", "pole", "paddle", "scull", "punt", "helm", "launch"}
)


def _giving_verb(s: _Sentence, lo: int, hi: int) -> str | None:
    """The verb of giving that governs the thing at token ``hi``: the nearest verb before it (from ``lo``),
    if that verb gives ("lends Tam his dagger"); a noun ("Cordelia's hands") or another verb in between
    ("slides it into the lock of the reliquary") governs nothing here."""
    toks = s.tokens
    for q in range(hi - 1, lo - 1, -1):
        w = toks[q].low
        if w in _BODY_NOUNS or toks[q - 1].poss or toks[q - 1].low in _PRONOUN_POSS:
            continue
        if w in VERBS or (toks[q].text.islower() and lexicon_lemma(w) is not None and w.endswith("s")):
            base = _lemma_of(w)
            return base if base in _GIVE_VERBS else None
    return None


_CLAUSE_BREAKS = frozenset({",", ";", "and", "but", "while", "as", "when", "until", "—", "–"})


def _thing_subject(s: _Sentence, lo: int, hi: int) -> bool:
    """True when a new clause between tokens ``lo`` and ``hi`` opens with a noun phrase of its own ("..., and
    the light catches", "; the wind tugs at"): the verb before the item then has that thing as its subject,
    not the creature named before the clause break."""
    toks = s.tokens
    for q in range(lo, hi - 2):
        if toks[q].low not in _CLAUSE_BREAKS or toks[q].quoted:
            continue
        r = q + 1
        if toks[r].low not in ("the", "a", "an"):
            continue
        if not (toks[r + 1].text.isalpha() and toks[r + 1].text.islower()):
            continue
        r += 2  # the noun phrase's first word, whatever else it may be ("the light", "the cold wind")
        while r < hi and toks[r].text.isalpha() and toks[r].text.islower() and VERBS.get(toks[r].low) is None:
            r += 1
        if r >= hi or VERBS.get(toks[r].low) is None:
            continue
        if not any(q < c.i < r for c in s.creatures()):
            return True
    return False


# verbs of touching, striking or tending a thing without taking it in hand
_CONTACT = frozenset(
    {"touch", "tap", "brush", "stroke", "pat", "nudge", "kick", "knock", "bump", "poke", "prod", "kiss"}
    | {"caress", "graze", "bless", "follow", "guard", "admire", "lick", "sniff", "step", "tread", "trip"}
)
# verbs of doing (outside the hand table) that need the thing in one's hands: a thing another owns, told
# done to this way, is in the doer's hands ("leans Durgan's greataxe against", "sharpens Mira's knife");
# other verbs of doing may act on it where it is ("fills his cup", "straightens her collar")
_IN_HAND = frozenset(
    {"leaf", "thumb", "flick", "page", "riffle", "rifle", "sharpen", "hone", "clean", "wipe", "oil", "tune"}
    | {"string", "restring", "load", "reload", "cock", "prime", "lean", "prop", "rest", "stand", "shoulder"}
    | {"hoist", "pocket", "sling", "strap", "wrap", "pack", "unpack", "fold", "shuffle", "wield", "lug"}
)
_THROUGH = frozenset({"through", "over"})
# turning a book's pages: "leafs through the almanac" has it in hand ("leans over the chart" does not)
_LEAF_THROUGH = frozenset({"leaf", "thumb", "flick", "page", "riffle", "rifle", "pore", "browse", "skim"})


def _handles_owned(s: _Sentence, subject: Mention, poss: Mention) -> bool:
    """True when the subject's own verb, right after it, takes another's named thing as its object as a verb
    of handling ("Kestrel leans Durgan's greataxe against a tomb", "Hollis leafs through Fenwick's
    spellbook"): the owner is named, the hand is the subject's. Verbs of touching, striking, seeing,
    saying or wanting ("pats Durgan's axe", "eyes Fenwick's book") leave it with its owner."""
    toks = s.tokens
    k = poss.i - 1
    if k > subject.j and toks[k].low in _THROUGH:
        k -= 1  # "leafs through", "pores over"
    if k < subject.j or toks[k].quoted or not toks[k].text.islower():
        return False
    if any(not w.low.endswith("ly") for w in toks[subject.j : k]):
        return False  # only adverbs between the subject and its verb
    form = toks[k].low
    base = _lemma_of(form)
    if base is None or not is_finite(form, base) or base in _CONTACT or base in _AT_A_DISTANCE:
        return False
    return base in _IN_HAND or verb_class(base) == "handling"


def _lemma_of(word: str) -> str | None:
    """A word's verb lemma by the hand table, else by the lexicon."""
    return VERBS.get(word) or lexicon_lemma(word)


def _handling_verb(s: _Sentence, subject: Mention, it: Mention) -> str:
    """A verb the hand table lacks that takes the item as its direct object right after the subject ("Tam
    tunes the rosewood lute", "spreads the sea chart", "sharpens the silver dagger"): the lemma, when the
    lexicon knows it as a finite verb of doing (not of seeing, saying, thinking or going); else ""."""
    toks = s.tokens
    k = it.i - 1
    while k > subject.j and toks[k].low in ("the", "a", "an", "his", "her", "their", "its"):
        k -= 1
    if k - 1 >= subject.j and toks[k].low in _THROUGH:
        k -= 1  # "leafs through the almanac", "pores over the chart"
    if k < subject.j or k >= it.i or toks[k].quoted:
        return ""
    between = [t.low for t in toks[subject.j : k]]
    coordinated = (
        k - 1 > subject.j
        and toks[k - 1].low == "and"
        and not any(m.i >= subject.j and m.i < k for m in s.creatures())
        and not {";", ":", "—", ".", "he", "she", "they", "it", "who", "which", "that", "while", "as"}
        & set(between)
    )
    if not coordinated and any(
        not (w.endswith("ly") or w in ("then", "carefully", "slowly", "quickly")) for w in between
    ):
        return ""  # only adverbs between the subject and its verb, or its own earlier predicate and "and"
    form = toks[k].low
    base = lexicon_lemma(form) if toks[k].text.islower() else None
    if base is None or not is_finite(form, base):
        return ""
    if verb_class(base) in _NOT_HANDLING and base not in _STEERED:
        return ""
    if base in _AT_A_DISTANCE:
        return ""
    return "hold"


def _landmark(s: _Sentence, it: Mention, subject: Mention) -> bool:
    """True when a preposition of place governs the item ("unrolls her sketch beside the siege map", "sets
    the lamp on the ledger"): the item is where the handling happens, not what the subject's verb takes."""
    toks = s.tokens
    k = it.i - 1
    while k > subject.j and toks[k].low in ("the", "a", "an", "this", "that"):
        k -= 1
    if toks[k].low in _THROUGH and _lemma_of(toks[k - 1].low) in _LEAF_THROUGH:
        return False  # "leafs through the almanac": the book is in the hands that leaf it
    return k > subject.j and toks[k].low in _LOCATIVE and not toks[k].quoted


_SENT_PARTICLES = frozenset({"out", "over", "across", "back", "down", "up", "along", "forward"})
_RECEIVING = frozenset(
    {"hand", "hands", "palm", "palms", "lap", "keeping", "care", "grasp", "fingers", "fist"}
)


def _sent_to(s: _Sentence, k: int, creatures: list[Mention]) -> Mention | None:
    """The creature a thing is sent to from token ``k`` on: "[out|over|across] to Bryony", "into Pearl's
    palm", "into her hands"; None when the words there send it to no one."""
    toks = s.tokens
    while k < s.b and toks[k].low in _SENT_PARTICLES:
        k += 1
    if k + 1 >= s.b or toks[k].quoted:
        return None
    prep = toks[k].low
    if prep == "to":
        return next((c for c in creatures if c.i == k + 1 and not c.poss), None)
    if prep in ("into", "onto", "in"):
        owner = next((c for c in creatures if c.i == k + 1 and c.poss), None)
        if owner is not None and owner.j < s.b and toks[owner.j].low in _RECEIVING:
            return owner
    return None


def _item_claims(s: _Sentence, items: list[Mention]) -> None:
    toks = s.tokens
    creatures = s.creatures()
    for it in items:
        iid = it.id
        assert iid is not None
        if _modifier_noun(s, it):
            continue  # "drawing out a harpoon iron on the anvil": an iron, not one of the harpoons
        holder: Mention | None = None
        qlo = it.i
        # Mira's silver dagger / Greyrock's last three arrows
        k = it.i - 1
        while k >= s.a and (
            toks[k].low in _NUMBERS
            or toks[k].low in ORDINALS
            or toks[k].low.isdigit()
            or toks[k].low
            in (
                "last",
                "remaining",
                "only",
                "final",
                "trusty",
                "old",
                "own",
                "spare",
                "prized",
                "precious",
                "both",
            )
        ):
            k -= 1
        if _participle(toks, k, s.a):
            k -= 1  # "Fenwick's confiscated spellbook", "her battered lantern"
        if k - 1 >= s.a and toks[k].low == "of" and toks[k - 1].low in _BUNDLES:
            k -= 2  # "Lorcan's bundle of torches"
        poss = next((c for c in creatures if c.j - 1 == k and c.poss), None)
        pronoun = k >= s.a and toks[k].low in _PRONOUN_POSS
        owner_pronoun: Mention | None = None
        if pronoun:
            # "her cashbox": the pronoun's own referent, by gender, the clause's subject first
            owner_pronoun = _pronoun_owner(s, toks[k].low, k, creatures)
            if owner_pronoun is None:
                continue
        if (poss is not None or pronoun) and _act_noun(s, it, k):
            continue  # "straightens from her bow": the act, not the moonwood bow
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
        if len(before) >= 2 and _lemma_of(toks[before[-1].i - 1].low) in _GIVE_VERBS:
            if toks[it.i - 1].low in ("a", "an", "some"):
                continue  # "hands Venn a waterskin": some waterskin, not the one the record names
            before = before[:-1]  # "Tamsin gives Mira the iron key": Mira is given to, Tamsin gives
        if before:
            subject = before[-1]
            between = [t.low for t in toks[subject.j : it.i]]
            verb_lemma = next(
                (VERBS.get(w) or "hold" for w in reversed(between) if w in VERBS or w in ("has", "have")), ""
            )
            given = _giving_verb(s, subject.j, it.i)
            if given is not None and verb_lemma not in _GIVE_VERBS:
                verb_lemma = given  # "lends Tam his dagger": a verb of giving the hand table lacks
            if verb_lemma and _thing_subject(s, subject.j, it.i):
                # "Morna stands by the door, and the light catches the torc": the verb is the light's
                subject, verb_lemma = None, ""
        if subject is not None and verb_lemma not in _HOLD_VERBS | _GIVE_VERBS | _ACQUIRE_VERBS:
            verb_lemma = _handling_verb(s, subject, it) or verb_lemma
        if pronoun and owner_pronoun is not None:
            verb_lemma = verb_lemma if before and owner_pronoun is before[-1] else ""
            subject = owner_pronoun
        carrier = _carried_by(s, it, creatures) if not pronoun else None
        if carrier is not None and (subject is None or carrier.id != subject.id) and poss is None:
            subject, verb_lemma = carrier, ""  # "the gate pass is buttoned inside his doublet"
        if carrier is not None:
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
                and _worn_at(s, x.i - 1, x.j)
            ),
            None,
        )
        giver = subject if subject is not None and not subject.poss else owner_pronoun
        sent = _sent_to(s, it.j, creatures) if giver is not None else None
        if sent is not None and giver is not None and sent.id != giver.id:
            # "counts one of her forty doubloons into Pearl's palm", "holds the chart out to Bryony": the
            # item goes from the one who handles it to the one it is sent to, replayed from here on
            s.claim("holds", (giver.id or "", iid), giver, s.modality(giver), f"give:{sent.id}")
            continue
        if (
            poss is not None
            and subject is not None
            and subject.id != poss.id
            and (verb_lemma in _HOLD_VERBS or _handles_owned(s, subject, poss))
            and not any(t.text == "," for t in toks[subject.j : poss.i])
        ):
            # "Oren twirls Tamsin's iron key on his finger": the owner is named, the hand is the subject's
            holder, qlo = subject, poss.j
        elif poss is not None:
            holder, qlo = poss, poss.j
        elif worn is not None and not (subject is not None and verb_lemma in _GIVE_VERBS):
            holder, qlo = worn, it.i
        elif subject is not None and subject.i == subject.j == it.i:
            holder, qlo = subject, k + 1
        elif (
            subject is not None
            and (pronoun or verb_lemma in _HOLD_VERBS | _GIVE_VERBS | _ACQUIRE_VERBS)
            and (pronoun or not _landmark(s, it, subject))
        ):
            holder, qlo = subject, subject.j
        if holder is None and subject is None and not pronoun and _item_is_here(s, it):
            # "The poisoned chalice sits on a velvet cushion": the item is told to exist somewhere now
            s.claim("holds", ("*somewhere*", iid), it, s.modality(it), "exists")
            continue
        if holder is None or holder.id is None or _holder_also_fits(s, holder, iid):
            continue
        # the count words stand right before the item ("his three arrows"), not anywhere since the holder
        # ("He lays two of his coins down and the rest of his coins stay in the purse")
        qlo = max(qlo, k)
        qty, exact = _number(toks, qlo, it.i)
        if qty is not None and it.j < s.b and toks[it.j].low in ("left", "remaining", "apiece"):
            # "three arrows left": all there are now; "three cells left that hold a charge": some of them
            exact = not (it.j + 1 < s.b and toks[it.j + 1].low in _QUALIFIERS)
        if qty is None:
            qty, exact = _count_after(s, it.j)
        plural = _told_plural(s, it)
        if qty is None and exact and not plural:
            qty = 1
        if (qty is not None and poss is not None) or (pronoun and carrier is None):
            # "his three arrows" is all he has; "three arrows in his hand" may be some of them
            exact = exact or qty is not None
        part = _partitive(s, (poss.i if poss is not None else k) - 1)
        if part is not None:
            # "three of his silver coins": some of a stack, at least that many; "one of his two toffee
            # apples": the number after the owner is the whole stack, told exactly
            total, _ = _number(toks, k + 1, it.i)
            qty, exact = (total, True) if total is not None else (part, False)
        at_least = _ordinal(toks, qlo, it.i)
        if qty is None and at_least is not None:
            qty, exact = at_least, False  # "his fifth harpoon": at least five
        elif qty is None and plural and not _named_plural(s, iid):
            qty, exact = 2, False  # "Wren's gold nuggets" of a single nugget
        mod = s.modality(holder)
        at_item = s.modality(it)
        if (
            at_item.hypothetical
            or at_item.rumour
            or s.future_or_asked(it)
            or owed_after(s, it.j)
            or _intended(s, it)
        ):
            # "asks when he'll see his two shares": the item lies in a question or a future, whoever owns it;
            # "her twenty shillings are still owed": a sum owed or to come, not a purse held
            mod = Modality(mod.in_dialogue, True, mod.memory, mod.rumour or at_item.rumour, mod.negated)
        if "sold" in s.narr or "pawned" in s.narr or "lost" in s.narr.split():
            mod = Modality(mod.in_dialogue, mod.hypothetical, True, mod.rumour, mod.negated)
        detail = ""
        if verb_lemma in _GIVE_VERBS and holder is subject:
            to = next((c for c in creatures if c.i > it.j and c.id != holder.id), None) or next(
                # "gives Mira the iron key": the one given to stands between the verb and the thing
                (c for c in creatures if holder.j < c.i < it.i and not c.poss and c.id != holder.id),
                None,
            )
            detail = f"give:{to.id}" if to is not None and to.id else "give:*"  # "*": to someone unnamed
        elif verb_lemma in _ACQUIRE_VERBS and holder is subject and poss is None:
            detail = "" if "out" in (toks[it.i - 1].low, toks[it.i - 2].low) else "acquire"  # "takes out" own
        if qty is not None:
            detail = (detail + ";" if detail else "") + (f"qty={qty}" if exact else f"qty>={qty}")
        s.claim("holds", (holder.id, iid), holder, mod, detail)


# verbs of meaning to do something: what follows their "to" is a plan, not done yet
_INTEND = frozenset(
    {"decide", "want", "mean", "plan", "intend", "hope", "wish", "resolve", "choose", "promise", "refuse"}
    | {"long", "yearn", "need", "offer", "threaten", "agree", "vow", "swear", "dare", "itch", "ache"}
)


def _intended(s: _Sentence, it: Mention) -> bool:
    """True when the item is the object of an infinitive after a verb of meaning to ("decides to open the
    reliquary", "wants to borrow her lute"): the handling is intended, not told done."""
    toks = s.tokens
    k = it.i - 1
    while k > s.a and (toks[k].low in ("the", "a", "an", "this", "that") or toks[k].low in _PRONOUN_POSS):
        k -= 1
    if k - 2 < s.a or toks[k - 1].low != "to" or toks[k].quoted:
        return False
    base = lexicon_lemma(toks[k].low)
    return base is not None and base == toks[k].low and _lemma_of(toks[k - 2].low) in _INTEND


def _participle(toks: list[Token], k: int, a: int) -> bool:
    """True when token ``k`` is a past participle used as an adjective right after a possessive ("Fenwick's
    confiscated spellbook", "his dented helm"): a lower-case "-ed" or "-en" word the lexicon reads as a
    verb form, after a name's "'s" or a possessive pronoun."""
    if k - 1 < a:
        return False
    w = toks[k]
    if not (w.text.isalpha() and w.text.islower() and w.low.endswith(("ed", "en"))):
        return False
    if lexicon_lemma(w.low) is None or is_noun(w.low):
        return False
    return toks[k - 1].poss or toks[k - 1].low in _PRONOUN_POSS


def _holder_also_fits(s: _Sentence, holder: Mention, iid: str) -> bool:
    """True when the holder is a pronoun's referent carried over from an earlier sentence ("She taps her
    staff") and the item's recorded holder, named earlier in the narration, fits that pronoun as well: the
    pronoun may be theirs, so the text does not say the item changed hands."""
    if holder.i != holder.j and s.tokens[holder.i].low not in ("he", "she", "they", "it"):
        return False  # a name, or a possessive resolved to someone named in this very sentence
    me = s.snap.entities.get(holder.id or "")
    held = s.snap.holders_of(iid)
    if me is None or not held or holder.id in held:
        return False
    fits = {h for h in held if (e := s.snap.entities.get(h)) is not None and fits_gender(e, me.pronoun)}
    return bool(fits) and any(m.id in fits for m in s.ex.between(0, holder.i))


_PREPOSITIONS = _TRAILING_PREPS | {
    "to",
    "toward",
    "towards",
    "with",
    "by",
    "for",
    "of",
    "at",
    "past",
    "around",
}
_POSS_GENDER = {"his": "he", "her": "she", "their": "they", "its": "it"}


def _fits(s: _Sentence, eid: str | None, word: str) -> bool:
    """ "his" is a man (or a creature of unknown pronoun that is no monster), "her" a woman, "their" one
    recorded as they, "its" a creature recorded as it or a monster of unknown pronoun."""
    e = s.snap.entities.get(eid or "")
    if e is None:
        return False
    want = _POSS_GENDER[word]
    if e.pronoun is not None:
        return e.pronoun == want
    return (e.kind == "monster") == (want == "it") and want != "they"


_CLAUSE_OPENERS = frozenset(
    {",", ";", "and", "but", "as", "while", "when", "then", "—", "–", "because", "though", "until", "where"}
)


def _pronoun_owner(s: _Sentence, word: str, k: int, creatures: list[Mention]) -> Mention | None:
    """Who "his"/"her"/"their"/"its" at token ``k`` is: among the creatures named before it in the sentence
    that fit the pronoun, the nearest one that opens a clause (a subject: "as Ser Gault raises his shield"),
    else the sentence's first creature if it fits, else the nearest fitting one; with none, the previous
    sentence's subject when it fits. None when nobody fits."""
    toks = s.tokens
    opener = toks[s.a].low
    if (
        opener in ("he", "she")
        and _POSS_GENDER.get(word) == opener
        and not any(c.i == s.a for c in creatures)
    ):
        # "She sits through Marta's application, turning the signet on her finger": the sentence's own
        # subject, a pronoun the linker could not resolve, owns it, not someone named after it
        ante = s.ex.antecedent.get(s.a)
        return Mention((ante,), k, k, False, False, "public") if ante and _fits(s, ante, word) else None
    fitting = [c for c in creatures if c.i < k and _fits(s, c.id, word)]
    relative = _relative_antecedent(s, k, fitting)
    if relative is not None:
        return relative
    if fitting:
        subjects = [c for c in fitting if c.i == s.a or toks[c.i - 1].low in _CLAUSE_OPENERS]
        if subjects:
            return subjects[-1]
        first = creatures[0] if creatures else None
        if first is not None and first in fitting:
            return first
        return fitting[-1]
    ante = s.ex.antecedent.get(s.a)
    if ante is not None and _fits(s, ante, word) and not any(c.i < k for c in creatures if not c.poss):
        return Mention((ante,), k, k, False, False, "public")
    return None


# what may stand before a noun modifying the next noun: an article, a possessive, a partitive's "of" ("a heel
# of barley bread", "her harpoon iron")
_MODIFIED_AFTER = frozenset({"a", "an", "the", "of", "some"}) | _PRONOUN_POSS | {"my", "your", "our"}
_MODIFIED_ENDS = frozenset({"on", "in", "at", "from", "into", "onto", "with", "by", "under", "over", "to"})


def _modifier_noun(s: _Sentence, it: Mention) -> bool:
    """True when a one-word item name after an article, a possessive or "of" modifies the noun right after it
    ("a harpoon iron on the anvil", "the bell rope.", "a heel of barley bread into her hand"): that next
    word is a lower-case singular noun that is no past verb form (so "the bell rang" stays the bell) and
    ends its phrase (a preposition or a mark after it)."""
    toks = s.tokens
    if it.j - it.i != 1 or it.j + 1 >= s.b or it.i == s.a or toks[it.i - 1].low not in _MODIFIED_AFTER:
        return False
    nxt, after = toks[it.j], toks[it.j + 1]
    if nxt.quoted or not nxt.text.isalpha() or not nxt.text.islower() or nxt.low.endswith("s"):
        return False
    if noun_lemma(nxt.low) != nxt.low or not is_noun(nxt.low) or can_be_past(nxt.low):
        return False
    return after.low in _MODIFIED_ENDS or after.text in (",", ".", ";", "!", "?")


def _relative_antecedent(s: _Sentence, k: int, fitting: list[Mention]) -> Mention | None:
    """ "... to Ume, who is sitting by the stove with her snowshoes": a possessive pronoun inside a relative
    clause is the clause's antecedent's, the name right before ", who", when it fits the pronoun."""
    toks = s.tokens
    for q in range(k - 1, s.a + 1, -1):
        low = toks[q].low
        if toks[q].quoted or low in (";", ".", ":", "—") or toks[q].text in (";", ":", "—"):
            return None
        if low in ("who", "whom") and toks[q - 1].text == ",":
            return next((c for c in fitting if c.j == q - 1 and not c.poss), None)
    return None


_ACT_LEAD = frozenset({"from", "after", "mid", "into", "during", "before", "of"})


def _act_noun(s: _Sentence, it: Mention, k: int) -> bool:
    """A one-word item name after a possessive that is also a verb ("her bow"), read as the act when a
    preposition leads it ("straightens from her bow") or it is told left or held in the air ("Ilyra's bow
    is left hanging"), not the thing."""
    toks = s.tokens
    if it.j - it.i != 1 or k != it.i - 1 or not is_verb(toks[it.i].low):
        return False
    lead = toks[k - 1].low if k - 1 >= s.a else ""
    if lead in _ACT_LEAD:
        return True
    after = [t.low for t in toks[it.j : min(s.b, it.j + 2)]]
    return len(after) == 2 and after[0] in ("is", "was") and after[1].endswith(("ed", "eft", "ung"))


def _head(s: _Sentence, it: Mention) -> str:
    """The head noun of an item mention: the word before "of"/"to", else the last word."""
    words = [t.low for t in s.tokens[it.i : it.j]]
    cut = next((n for n, w in enumerate(words) if w in ("of", "to") and n > 0), len(words))
    return words[cut - 1]


def _told_plural(s: _Sentence, it: Mention) -> bool:
    return it.plural or is_plural(_head(s, it))


def _named_plural(s: _Sentence, iid: str) -> bool:
    """True when the item's recorded name is itself plural ("lockpicks", "moon pearls")."""
    e = s.snap.entities.get(iid)
    if e is None:
        return True
    words = [w.lower() for w in e.name.replace("'s", "").split()]
    cut = next((n for n, w in enumerate(words) if w in ("of", "to") and n > 0), len(words))
    return bool(words) and is_plural(words[cut - 1].strip(".,"))


def _ordinal(toks: list[Token], lo: int, hi: int) -> int | None:
    """ "his second vial": an ordinal before the item says at least that many."""
    for t in toks[lo:hi]:
        if t.low in ORDINALS:
            return ORDINALS[t.low]
    return None


_WORN_ON = frozenset(
    {
        "thumb",
        "finger",
        "wrist",
        "neck",
        "brow",
        "head",
        "doublet",
        "vest",
        "jerkin",
        "apron",
        "robe",
        "robes",
        "shirt",
        "tunic",
        "collar",
        "chest",
        "breast",
        "hair",
        "lapel",
        "hat",
        "cap",
        "belt",
        "fingers",
        "wrists",
    }
)


# places a thing is worn "at", "around" or "on", but lodged "in" as a wound ("an arrow in its throat")
_WORN_AT = frozenset({"throat", "ear", "ears", "ankle", "ankles", "waist", "bosom", "temple"})
_LODGED = frozenset({"in", "into", "inside", "within", "through"})
_THRUST_THROUGH = frozenset({"belt", "sash", "girdle", "baldric", "buttonhole"})


def _worn_at(s: _Sentence, prep: int, place: int) -> bool:
    """True when the place at token ``place`` carries a thing after the preposition at ``prep``."""
    low = s.tokens[place].low
    if s.tokens[prep].low == "through":
        return low in _THRUST_THROUGH  # "thrust through his sash", not "an arrow through his shoulder"
    if low in _WORN_AT:
        return s.tokens[prep].low not in _LODGED
    return low in _CARRIED_IN or low in _BODY_NOUNS or low in _WORN_ON


def _verb_or_particle(word: str) -> bool:
    """A verb form or a particle after one ("weighs", "down"): what an item subject does to a pocket."""
    return word in ("down", "up", "in", "out") or (
        word not in _PRONOUN_POSS and word not in _CONJUNCTIONS and lexicon_lemma(word) is not None
    )


# words that open a clause, never the item's own verb ("past the lanterns while her fingers find ...")
_CONJUNCTIONS = frozenset({"while", "as", "when", "whenever", "since", "though", "until", "before", "after"})


def _carried_by(s: _Sentence, it: Mention, creatures: list[Mention]) -> Mention | None:
    """ "the dagger at his hip", "turns the astrolabe in her hennaed hands", "settles the circlet on her
    brow": a preposition, a possessive pronoun, at most two words, then a place on the body or the clothes;
    the pronoun's referent carries the item."""
    toks = s.tokens
    end = min(s.b, it.j + 8)
    for q in range(it.j, end - 2):
        if toks[q + 1].low not in _PRONOUN_POSS:
            continue
        # "at his hip", or the item's own verb right before ("the compass weighs down her coat pocket")
        led = toks[q].low in _TRAILING_PREPS or (
            q <= it.j + 1
            and it.j < s.b
            and _verb_or_particle(toks[it.j].low)
            and _verb_or_particle(toks[q].low)
        )
        if not led:
            continue
        for r in range(q + 2, min(end, q + 5)):
            if _worn_at(s, q, r):
                return _pronoun_owner(s, toks[q + 1].low, q + 1, creatures)
            if not toks[r].text.isalpha():
                break
        return None
    return None
