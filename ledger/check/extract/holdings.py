"""Item claims: who holds an item and how many, from possessives, pronouns and handling verbs.

``_holdings`` emits ``holds`` with hand-overs ("give:<id>"), acquisitions and counts ("qty=3", "qty>=2") as
details the judge replays in text order; the bundle and handling word lists live here, and an item
told lying about or working though destroyed. Whose an item is lives in :mod:`.owners`, what its name counts
in :mod:`.item_mentions`, hand-overs of "it" and letting go in :mod:`.handovers`, an item worked as a tool,
drawn from one's own bag or lying in view by inversion in :mod:`.in_use`, an item taken up as "it" or
"them" by a later verb in :mod:`.item_pronouns`, all five imported here with :mod:`.lexicon`, :mod:`.text`,
:mod:`.names` and :mod:`.sentence`.
"""

from __future__ import annotations

from itertools import pairwise

from ledger.check.claims import Modality
from ledger.check.extract.counts import _QUALIFIERS, kind_not_item, owed_after
from ledger.check.extract.handovers import _GIVE_VERBS, _handed_it, _kept_in_hand, _sent_to
from ledger.check.extract.in_use import drawn_from, instrument_user, inverted_here
from ledger.check.extract.item_mentions import (
    _act_noun,
    _count_after,
    _modifier_noun,
    _named_plural,
    _ordinal,
    _participle,
    _partitive,
    _told_plural,
)
from ledger.check.extract.item_pronouns import pronoun_objects, pronoun_subjects
from ledger.check.extract.lexicon import (
    _BODY_NOUNS,
    _HOLDING,
    _NUMBERS,
    _PRONOUN_POSS,
    _SUBJECT_LEAD,
    VERBS,
    _is_past,
)
from ledger.check.extract.linker import ORDINALS
from ledger.check.extract.names import Mention
from ledger.check.extract.owners import (
    _TRAILING_PREPS,
    _carried_by,
    _holder_also_fits,
    _pronoun_owner,
    _worn_at,
)
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.text import Token, _number
from ledger.check.extract.verbs import is_finite, verb_class
from ledger.check.extract.verbs import lemma as lexicon_lemma

_HOLD_VERBS = frozenset(_HOLDING.split())
_ACQUIRE_VERBS = frozenset(
    {"pick", "take", "grab", "snatch", "seize", "buy", "receive", "accept", "catch", "find"}
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
    # "The battered radio crackles": up to two words describing the thing after its article; told so, it
    # is read only working, not lying about (a wreck described "shattered" may lie anywhere)
    described = 0
    while (
        described < 2
        and lead - 1 >= s.a
        and s.tokens[it.i].low not in _NOUN_MARKERS  # "the counter the brass bell": the name has its own
        and _describing(s.tokens[lead])
    ):
        lead, described = lead - 1, described + 1
    if described and s.tokens[lead].low not in ("the", "your", "my", "our"):
        lead, described = it.i - 1, 0
    if lead >= s.a and s.tokens[lead].low in ("a", "an", "another", "some"):
        return False  # "A horn sounds in the valley": a new thing, not the one recorded
    if lead >= s.a and s.tokens[lead].low in ("the", "a", "an", "your", "my", "our"):
        # "The rosewood lute hangs on the wall": a name recorded without its article; "Your sled stands
        # against the wall": the one addressed (or the party) told owning it still
        lead -= 1
    first = it.i == c0 or lead < c0 or (lead >= s.a and s.tokens[lead].low in _SUBJECT_LEAD)
    if not first and lead > s.a and s.tokens[s.a].low in _HERE_PREPS | {"over", "above", "below"}:
        # "Over the door the brass bell sways": a fronted place with no comma, no verb and no one in it
        words = s.tokens[s.a : lead + 1]
        first = (
            lead - s.a <= 5
            # a verb's word after an article is its noun: "Behind the counter the old radio coughs"
            and not any(
                (t.low in VERBS and p.low not in _NOUN_MARKERS) or t.text in (",", ";") or t.quoted
                for p, t in pairwise(words)
            )
            and not any(s.a <= c.i <= lead for c in s.creatures())
        )
    if not first or it.j >= s.b or it.poss:
        return False
    j = it.j
    while j + 1 < s.b and (s.tokens[j].low in _BEFORE_VERB or _manner_adverb(s.tokens[j].low)):
        j += 1  # "the lamp still hangs from her awning", "the bell quietly sways"
    if j > it.j and s.tokens[j].low in ("is", "are"):
        j = it.j  # "the lamp still is ..." reads as before, from the item
    form = s.tokens[j].low
    if described:
        here = lexicon_lemma(form) in _ITEM_HERE | _PUT_AWAY
        return not here and _works_though_destroyed(s, it, form, j)
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
    after = s.tokens[j + 1 : min(s.b, j + 9)]
    if _NOT_A_PLACE & {t.low for t in after}:
        return False  # "the bell lies in pieces", "rests at the bottom of the canal", "rings in her memory"
    fate = s.snap.fates.get(it.id or "")
    if (
        fate is not None
        and fate.fate == "sold"
        and any(t.poss or t.low.endswith(("'s", "’s")) for t in [*after, *s.tokens[s.a : it.i]])
    ):
        return False  # "the kettle hangs in a tinker's stall": a thing sold is someone else's, there
    lemma = VERBS.get(form) or (form[:-1] if form.endswith("s") else "")
    if lemma in _ITEM_HERE and form.endswith("s") and not _is_past(form, lemma):
        return True
    if form in _ITEM_HERE and _told_plural(s, it) and j + 1 < s.b and s.tokens[j + 1].low in _HERE_PREPS:
        return True  # "the tide tables hang on the wall": a plural's present is the bare form
    return _works_though_destroyed(s, it, form, j)


def _describing(t: Token) -> bool:
    """A lower-case word that may describe a thing between its article and its name ("battered", "station"):
    no preposition, conjunction, determiner, pronoun, number or possessive."""
    return (
        t.text.isalpha()
        and t.text.islower()
        and not t.quoted
        and not t.poss
        and t.low not in _PREPOSITIONS | _CLAUSE_BREAKS | _NOUN_MARKERS | _LOCATIVE
        and t.low not in _NUMBERS
        and t.low not in ("this", "that", "these", "those", "some", "any", "no", "every", "each", "it")
    )


# adverbs that may stand between a thing and its verb: "the lamp still hangs", "the horn now sounds"
_BEFORE_VERB = frozenset({"still", "now", "yet", "even", "already", "always", "also", "just", "again", "too"})


def _manner_adverb(word: str) -> bool:
    """True for an -ly adverb of manner ("quietly", "gently"), not an -ly adjective ("holy", "early")."""
    return word.endswith("ly") and len(word) > 5 and lexicon_lemma(word) is None and word[-3] not in "aeiou"


# what a destroyed thing's remains may still do: "the horn rusts on the rocks", "the tables burn"
_ENDING = frozenset(
    {"rust", "rot", "crumble", "burn", "smoulder", "smolder", "fall", "break", "shatter", "sink", "melt"}
    | {"decay", "moulder", "char", "splinter", "crack", "collapse", "vanish", "disappear", "blacken", "curl"}
)


def _works_though_destroyed(s: _Sentence, it: Mention, form: str, j: int) -> bool:
    """A destroyed or used-up item opening its clause with a present-tense verb of its own ("the old
    foghorn bellows across the bay"): it is told working now. Verbs of decay stay clean ("the horn rusts
    on the rocks"), and a sold or lost thing may go on doing things elsewhere."""
    fate = s.snap.fates.get(it.id or "")
    if fate is None or fate.fate not in ("destroyed", "used up"):
        return False
    base = lexicon_lemma(form) if s.tokens[j].text.islower() else None
    if base is None or base == form or not form.endswith("s") or _is_past(form, base):
        return False
    return base not in _ENDING and base not in ("be", "have", "seem", "remain") and is_finite(form, base)


def _holdings(s: _Sentence) -> None:
    """holds(holder, item, qty?) from possessives, pronouns and handling verbs; hand-overs as details."""
    items = [m for m in s.mentions if s.kind(m) == "item" and not m.quoted and not kind_not_item(s, m)]
    if items:
        _item_claims(s, items)
        _items_in_use(s, items)
    if any(t.low in ("it", "them") for t in s.tokens[s.a : s.b]):
        _pronoun_claims(s, items)
    if items:
        _handed_it(s, items)
        _kept_in_hand(s, items)


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
    | {"board"}
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
        if toks[q - 1].low in _NOUN_MARKERS:
            return None  # "waves away your offer of a draught", "into the lock of": a noun governs it
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


# verbs of writing in a thing, which may lie on a desk while it is done: "signs the log", "initials the
# manifest"; whoever writes in it need not hold it
_WRITE_IN = frozenset(
    {"sign", "countersign", "initial", "endorse", "annotate", "inscribe", "stamp", "witness", "notarise"}
    | {"notarize", "autograph", "amend", "update"}
)
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
# phrasal verbs of working a device, their particle before the thing: "switches on the radio"
_OPERATE = frozenset(
    {
        "switch",
        "turn",
        "power",
        "fire",
        "boot",
        "start",
        "crank",
        "rev",
        "key",
        "flick",
        "click",
        "wind",
        "warm",
    }
)
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
    k = _before_determiners(s, it.i - 1, subject.j, ("the", "a", "an", "his", "her", "their", "its"))
    if k - 1 >= subject.j and toks[k].low in _THROUGH:
        k -= 1  # "leafs through the almanac", "pores over the chart"
    elif k - 1 >= subject.j and toks[k].low in ("on", "off", "up") and _lemma_of(toks[k - 1].low) in _OPERATE:
        k -= 1  # "switches on the radio", "cranks up the generator": a device worked by hand
    boarded = k - 1 >= subject.j and toks[k].low == "aboard"
    if boarded:
        k -= 1  # "steps aboard the Grey Heron", "clambers aboard the skiff": the craft is taken out
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
    if (
        verb_class(base) in _NOT_HANDLING
        and base not in _STEERED
        and not (boarded and verb_class(base) == "motion")
    ):
        return ""
    if base in _AT_A_DISTANCE or base in _WRITE_IN:
        return ""
    if (boarded or base == "board") and s.snap.holders_of(it.id or ""):
        return ""  # "climbs aboard the captain's skiff": a passenger on a craft someone holds, not its keeper
    return "hold"


# contractions read as possessives that own nothing: "it's", "that's", "there's"
_NOT_OWNERS = frozenset({"it", "he", "she", "that", "there", "here", "what", "who", "where", "this", "let"})


def _before_determiners(s: _Sentence, k: int, lo: int, dets: tuple[str, ...]) -> int:
    """The token before the determiners ending at token ``k`` (down to ``lo``): articles, possessive
    pronouns and the possessive of a thing that is no creature ("the town's ledger", "the palace's great
    lute"), which owns nothing in hand and so leaves the verb before it governing the item."""
    toks = s.tokens
    while k > lo:
        if toks[k].low in dets:
            k -= 1
        elif (
            toks[k].poss
            and not toks[k].quoted
            and toks[k].low not in _NOT_OWNERS
            and not any(c.i <= k < c.j for c in s.creatures())
        ):
            k -= 1  # "the town's": the article before it is stepped over next
        else:
            break
    return k


def _landmark(s: _Sentence, it: Mention, subject: Mention) -> bool:
    """True when a preposition of place governs the item ("unrolls her sketch beside the siege map", "sets
    the lamp on the ledger"): the item is where the handling happens, not what the subject's verb takes."""
    toks = s.tokens
    k = _before_determiners(s, it.i - 1, subject.j, ("the", "a", "an", "this", "that"))
    if toks[k].low in _THROUGH and _lemma_of(toks[k - 1].low) in _LEAF_THROUGH:
        return False  # "leafs through the almanac": the book is in the hands that leaf it
    if toks[k].low in ("on", "off", "up") and _lemma_of(toks[k - 1].low) in _OPERATE:
        return False  # "switches on the radio": the particle of a device worked, no place
    return k > subject.j and toks[k].low in _LOCATIVE and not toks[k].quoted


def _item_claims(s: _Sentence, items: list[Mention]) -> None:
    toks = s.tokens
    creatures = s.creatures()
    for it in items:
        iid = it.id
        assert iid is not None
        if _modifier_noun(s, it):
            continue  # "drawing out a harpoon iron on the anvil": an iron, not one of the harpoons
        if _part_of_wreck(s, it):
            continue
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
            # a verb word after a determiner is a noun ("waves away your offer of a draught", "slides it
            # into the lock of the reliquary"): it, not a verb before it, governs the thing; a hand or
            # fingers on it still tell the subject's touch
            verb_lemma = ""
            for q in range(it.i - 1, subject.j - 1, -1):
                w = toks[q].low
                if w not in VERBS and w not in ("has", "have"):
                    continue
                if q > subject.j and toks[q - 1].low in _NOUN_MARKERS and w not in _BODY_NOUNS:
                    break
                verb_lemma = VERBS.get(w) or "hold"
                break
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
        mod = _held_modality(s, holder, it)
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


def _pronoun_claims(s: _Sentence, items: list[Mention]) -> None:
    """Items taken up as "it" or "them" by a later verb (:mod:`.item_pronouns`): the verb is judged as one
    naming the thing would be. A verb of doing holds it, one of taking acquires it, one of giving hands it
    on (unless the hand-over pass reads it from a thing named in this sentence); verbs of saying, seeing,
    going, wanting, touching or writing in it say nothing of whose hands it is in. A destroyed or used-up
    thing told working as the subject "it" is told to exist ("It crackles into life")."""
    creatures = s.creatures()
    for po in pronoun_objects(s):
        iid, holder, base = po.it.id or "", po.subject, po.verb
        if holder.id is None or _holder_also_fits(s, holder, iid):
            continue
        if base in _AT_A_DISTANCE | _WRITE_IN | _CONTACT or verb_class(base) == "perception":
            continue  # "Yusra unrolls the permit and Nadia reads it aloud": read where it is held
        sent = _sent_to(s, po.it.j, creatures)
        detail = ""
        if base in _GIVE_VERBS or sent is not None:
            if any(m.j <= po.it.i for m in items):
                continue  # "... and hands it to Pim": the hand-over pass reads it
            to = sent or next((c for c in creatures if c.i > po.it.j and c.id != holder.id), None)
            if to is None or to.id is None or to.id == holder.id:
                continue
            detail = f"give:{to.id}"
        elif base in _ACQUIRE_VERBS or (base == "pick" and po.it.j < s.b and s.tokens[po.it.j].low == "up"):
            detail = "acquire"
        elif base not in _HOLD_VERBS and verb_class(base) in _NOT_HANDLING and base not in _STEERED:
            continue
        qty, exact = (po.qty, po.exact) if po.qty is not None else _count_after(s, po.it.j)
        if qty is not None and po.it.plural:
            # "stows all five of them", "stows them in his pack, all five of them"
            detail = (detail + ";" if detail else "") + (f"qty={qty}" if exact else f"qty>={qty}")
        s.claim("holds", (holder.id, iid), holder, _held_modality(s, holder, po.it), detail)
    for it, v in pronoun_subjects(s):
        # "Bram glances at the old radio. It crackles into life": a destroyed thing told working as "it";
        # one lying about ("It lies in pieces", "It sits in the corner") may be its wreck
        form = s.tokens[v].low
        if lexicon_lemma(form) in _ITEM_HERE | _PUT_AWAY or _NOT_A_PLACE & {
            t.low for t in s.tokens[v + 1 : min(s.b, v + 9)]
        }:
            continue
        if _works_though_destroyed(s, it, form, v):
            s.claim("holds", ("*somewhere*", it.id or ""), it, s.modality(it), "exists")


def _held_modality(s: _Sentence, holder: Mention, it: Mention) -> Modality:
    """The modality of "``holder`` has ``it``": the holder's, made hypothetical when the item lies in a
    question, a future, a plan or a debt, and memory when the sentence tells a sale or a loss."""
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
    return mod


def _part_of_wreck(s: _Sentence, it: Mention) -> bool:
    """True when a destroyed item's own possessive names a part of it ("grips the radio's smashed casing",
    "the lute's snapped neck"): the wreck is handled, not the working thing."""
    fate = s.snap.fates.get(it.id or "")
    return it.poss and fate is not None and fate.fate == "destroyed"


def _items_in_use(s: _Sentence, items: list[Mention]) -> None:
    """Items the hand table left unclaimed, told in use (:mod:`.in_use`): worked as a tool or drawn from
    someone's own bag (``holds`` by that one), or lying in view by locative inversion (``exists``; a thing
    sold may lie in view anywhere, so only a lost, destroyed or used-up one is refuted)."""
    claimed = {c.args[1] for c in s.ex.claims if c.kind == "holds" and c.span == s.span}
    for it in items:
        if it.id is None or it.id in claimed or _modifier_noun(s, it) or _part_of_wreck(s, it):
            continue
        user = instrument_user(s, it) or drawn_from(s, it)
        if user is not None and user.id is not None:
            if not _holder_also_fits(s, user, it.id):
                s.claim("holds", (user.id, it.id), user, _held_modality(s, user, it), "")
            continue
        fate = s.snap.fates.get(it.id)
        if fate is not None and fate.fate != "sold" and inverted_here(s, it):
            s.claim("holds", ("*somewhere*", it.id), it, s.modality(it), "exists")


# words after which a verb form is a noun ("your offer", "the pass", "a toss")
_NOUN_MARKERS = frozenset({"the", "a", "an", "his", "her", "their", "its", "my", "your", "our"})


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
