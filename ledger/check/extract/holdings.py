"""Item claims: who holds an item and how many, from possessives, pronouns and handling verbs.

``_holdings`` emits ``holds`` with hand-overs ("give:<id>"), acquisitions and counts ("qty=3", "qty>=2") as
details the judge replays in text order; the bundle word list lives here. Which verb governs a thing and
whether it is in hand lives in :mod:`.handling`, an item told lying about or working though destroyed in
:mod:`.item_here`, whose an item is in :mod:`.owners`, what its name counts in :mod:`.item_mentions`,
hand-overs of "it" and letting go in :mod:`.handovers`, an item worked as a tool, drawn from one's own bag
or lying in view by inversion in :mod:`.in_use`, an item taken up as "it" or "them" by a later verb in
:mod:`.item_pronouns`.
"""

from __future__ import annotations

from ledger.check.claims import Modality
from ledger.check.extract.addressee import _vocatives
from ledger.check.extract.counts import _QUALIFIERS, kind_not_item, owed_after
from ledger.check.extract.handling import (
    _AT_A_DISTANCE,
    _CONTACT,
    _LOCATIVE,
    _NOT_HANDLING,
    _NOUN_MARKERS,
    _STEERED,
    _WRITE_IN,
    _giving_verb,
    _handles_owned,
    _handling_verb,
    _intended,
    _landmark,
    _lemma_of,
    _thing_subject,
)
from ledger.check.extract.handovers import _GIVE_VERBS, _handed_it, _kept_in_hand, _sent_to
from ledger.check.extract.in_use import drawn_from, instrument_user, inverted_here
from ledger.check.extract.item_here import (
    _ITEM_HERE,
    _NOT_A_PLACE,
    _PUT_AWAY,
    _item_is_here,
    _lies_lost,
    _manner_adverb,
    _where_it_was,
    _works_though_destroyed,
)
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
from ledger.check.extract.item_worn import worn_by
from ledger.check.extract.lexicon import (
    _BODY_NOUNS,
    _HOLDING,
    _NUMBERS,
    _PRONOUN_POSS,
    VERBS,
)
from ledger.check.extract.linker import ORDINALS, noun_lemma
from ledger.check.extract.names import Mention
from ledger.check.extract.owners import (
    _TRAILING_PREPS,
    _carried_by,
    _holder_also_fits,
    _pronoun_owner,
    _worn_at,
    body_part_of,
    named_owner,
)
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.text import _number
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


def _item_claims(s: _Sentence, items: list[Mention]) -> None:
    toks = s.tokens
    creatures = s.creatures()
    calls = _vocatives(s)
    for it in items:
        iid = it.id
        assert iid is not None
        if _modifier_noun(s, it):
            continue  # "drawing out a harpoon iron on the anvil": an iron, not one of the harpoons
        if _some_measure_of(s, it) or _other_of_phrase(s, it):
            continue  # "weighs a basket of cacao for a weeping woman": some cacao, not the recorded stacks
        if _part_of_wreck(s, it) or _where_it_was(s, it):
            continue  # "his hand goes to the nail, where the sextant used to hang": no longer there
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
        if (poss is not None or pronoun) and body_part_of(s, k, it.i, it.j):
            continue  # "His chest lifts and falls" of "the pay chest": his body, not the item
        owner_pronoun: Mention | None = None
        if pronoun:
            # "her cashbox": the pronoun's own referent, by gender, the clause's subject first
            owner_pronoun = _pronoun_owner(s, toks[k].low, k, creatures)
            if owner_pronoun is None:
                continue
        if (poss is not None or pronoun) and _act_noun(s, it, k):
            continue  # "straightens from her bow": the act, not the moonwood bow
        if (poss is not None or owner_pronoun is not None) and _own_common_thing(
            s, it, poss or owner_pronoun, k
        ):
            continue  # "Okoro stands with her notebook out": her own notebook, not the one recorded
        if (poss is not None or owner_pronoun is not None) and _lies_lost(s, it):
            continue  # "Hask's sextant lies lost beneath forty fathoms": told where it lies, not held
        if poss is not None and named_owner(s, iid, poss.id):
            poss = None  # "Earl's badge" of "Earl Pruitt's badge": whose it is, not who holds it now
        named = owner_pronoun is not None and named_owner(s, iid, owner_pronoun.id)
        verb_lemma = ""
        subject = None
        grasped = False
        # "Oriel, your hand goes to your throat": a PC called by name is addressed, not the subject
        before = [c for c in creatures if c.j <= it.i and not c.poss and not any(c is v for v in calls)]
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
                if w in _GRASP_PREPS and _hand_of(s, subject):
                    verb_lemma = "" if _told_absent(s) else "hold"  # "Gudrun's hand closes around the ring"
                    grasped = True
                    break
                if w not in VERBS and w not in ("has", "have"):
                    continue
                if w in _BODY_NOUNS and q == subject.j and subject.poss:
                    # "Bram's hand goes to the shelf, where the lamp sits": his hand on it, no hand-over;
                    # "Gudrun's hand goes to her belt: the ring is gone" finds nothing there
                    verb_lemma = "" if _told_absent(s) else "hold"
                    break
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
            if named and not (before and before[-1].id == owner_pronoun.id):
                continue  # "found Earl's badge, and his keys": his by name, in nobody's hand told
            subject = owner_pronoun
        carrier = _carried_by(s, it, creatures) if not pronoun else None
        if carrier is not None and (subject is None or carrier.id != subject.id) and poss is None:
            subject, verb_lemma = carrier, ""  # "the gate pass is buttoned inside his doublet"
        yours = _carried_yours(s, it) if poss is not None and subject is None else None
        if yours is not None and poss is not None and yours.id != poss.id:
            carrier = subject = yours  # "Reyes's keycard is inside your jacket": Reyes's, in your keeping
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
            and (verb_lemma in _HOLD_VERBS or _handles_owned(s, subject, poss) or subject is yours)
            and not any(t.text == "," for t in toks[subject.j : poss.i])
        ):
            # "Oren twirls Tamsin's iron key on his finger": the owner is named, the hand is the subject's
            holder, qlo = subject, poss.j
        elif poss is not None:
            holder, qlo = poss, poss.j
            near = worn_by(s, it)
            if near is not None and near.id != poss.id:
                holder = near  # "Harcourt's jade case lies on the zinc by your elbow": in your reach
        elif worn is not None and not (subject is not None and verb_lemma in _GIVE_VERBS):
            holder, qlo = worn, it.i
        elif subject is not None and subject.i == subject.j == it.i:
            holder, qlo = subject, k + 1
        elif (
            subject is not None
            and (pronoun or verb_lemma in _HOLD_VERBS | _GIVE_VERBS | _ACQUIRE_VERBS)
            and (pronoun or grasped or not _landmark(s, it, subject))
        ):
            holder, qlo = subject, subject.j
        found = (
            subject is not None
            and holder in (None, subject)
            and poss is None
            and not pronoun
            and _found_now(s, subject, it)
        )
        if found and subject is not None:
            holder, qlo = subject, subject.j  # "Bram fishes the lost sextant out of the cistern"
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
        if found:
            # "Bram fishes the lost sextant out of the cistern": a find told now, replayed from here on
            here = s.modality(holder)
            mod = Modality(mod.in_dialogue, mod.hypothetical, here.memory, mod.rumour, mod.negated)
            detail = "acquire;found"
        elif verb_lemma in _GIVE_VERBS and holder is subject:
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


def _some_measure_of(s: _Sentence, it: Mention) -> bool:
    """True when a stuff the record keeps in stacks is told by an indefinite measure of it ("a basket of
    cacao", "a cup of wine", "some jars of salve"): some of that stuff, which need not come from any stack
    the record counts. A measure with a count or an owner ("three sacks of his flour") is not this."""
    toks = s.tokens
    i = it.i
    if i - 3 < s.a or toks[i - 1].low != "of" or toks[i - 3].low not in ("a", "an", "some", "another"):
        return False
    return (
        toks[i - 2].text.islower() and toks[i - 2].low.isalpha() and len(s.snap.holders_of(it.id or "")) > 1
    )


def _of_words(words: list[str]) -> set[str]:
    """The content words of an "of" phrase, up to the first word of punctuation or clause."""
    out: set[str] = set()
    for w in words[:5]:
        if not w.isalpha() or w in ("and", "with", "that", "which", "who", "hung", "as"):
            break
        if len(w) > 2 and w not in ("the", "his", "her", "their", "its"):
            out.add(noun_lemma(w))
    return out


def _other_of_phrase(s: _Sentence, it: Mention) -> bool:
    """True when the item's description tells what it is of ("A crown of living thorn") and the text names
    its head word of something else entirely ("his crown of bare blackthorn antlers"): another thing of the
    kind, not the recorded one."""
    toks = s.tokens
    e = s.snap.entities.get(it.id or "")
    if e is None or it.j - it.i != 1 or it.j + 1 >= s.b or toks[it.j].low != "of":
        return False
    head = toks[it.i].low
    desc = [w.strip(".,;:!?\"'()").lower() for w in e.description.split()]
    at = next((n for n in range(len(desc) - 1) if desc[n] == head and desc[n + 1] == "of"), None)
    if at is None:
        return False
    told = _of_words([t.low for t in toks[it.j + 1 : s.b] if not t.text[:1].isupper()])
    recorded = _of_words(desc[at + 2 :]) | {noun_lemma(w.lower()) for a in e.names() for w in a.name.split()}
    return bool(told) and not told & recorded


_GRASP_PREPS = frozenset({"around", "round", "about"})
_HANDS = frozenset({"hand", "hands", "fingers", "fist", "palm", "grip"})


def _hand_of(s: _Sentence, subject: Mention) -> bool:
    """True when the subject is a creature's hand ("Gudrun's hand", "her fingers")."""
    return subject.poss and subject.j < s.b and s.tokens[subject.j].low in _HANDS


_ABSENT = frozenset({"gone", "missing", "empty", "nothing", "no", "not", "never"})


def _told_absent(s: _Sentence) -> bool:
    """True when the sentence tells something not there ("is gone", "finds nothing", "isn't there")."""
    return any(
        not t.quoted and (t.low in _ABSENT or t.low.replace("’", "'").endswith("n't"))
        for t in s.tokens[s.a : s.b]
    )


# where a thing carried on the addressed PC lies: "in your pocket", "inside your jacket", "at your belt";
# not the places a threat is held to ("at your throat", "against your back")
_IN_YOURS = frozenset({"in", "inside", "within"})
_AT_YOURS = frozenset({"belt", "hip", "waist", "finger", "wrist", "thumb", "sash"})


def _carried_yours(s: _Sentence, it: Mention) -> Mention | None:
    """The addressed PC, as a mention at "your", when the thing is told lying in their clothes or pack
    right after its verb of being or lying ("Reyes's keycard is inside your jacket", "Mira's ring sits on
    your finger"): it is in that PC's keeping, whoever it is named for."""
    from ledger.check.extract.addressee import addressee_of
    from ledger.check.extract.item_here import _ITEM_HERE

    toks = s.tokens
    v = it.j
    while v < s.b and toks[v].low in ("still", "now", "safe", "safely", "snug", "tucked"):
        v += 1
    if v + 3 >= s.b or toks[v].quoted:
        return None
    if toks[v].low not in ("is", "are") and lexicon_lemma(toks[v].low) not in _ITEM_HERE:
        return None
    p = v + 1
    if toks[p].low in ("tucked", "hidden", "stowed", "folded", "buttoned", "safe", "snug", "still"):
        p += 1
    if p + 2 > s.b or toks[p + 1].low != "your" or toks[p + 1].quoted:
        return None
    place = toks[p + 2].low if p + 2 < s.b else ""
    carried = (toks[p].low in _IN_YOURS and _worn_at(s, p, p + 2)) or (
        toks[p].low in ("at", "on", "around") and place in _AT_YOURS
    )
    pc = addressee_of(s, p + 1) if carried else None
    return Mention((pc,), p + 1, p + 2, False, False, "public") if pc else None


# where a lost thing is brought up from: "fishes the sextant out of the cistern", "drags it up from the mud"
_OUT_FROM = frozenset({"out", "up", "from", "back"})
_OWN_SOURCE = frozenset({"own", *_PRONOUN_POSS, "my", "your", "our"})


def _found_now(s: _Sentence, holder: Mention, it: Mention) -> bool:
    """True when the subject's own verb brings a lost thing (recorded lost, held by no one) into its hands
    now, the thing its object: a verb of finding ("recovers the lost sextant"), or a verb of handling with
    the thing brought out of or up from a place that is not the finder's own bag ("fishes the lost sextant
    out of the cistern"; "out of her own satchel" draws a thing she had)."""
    from ledger.check.extract.item_scene import _RECOVER  # here: item_scene imports this module

    fate = s.snap.fates.get(it.id or "")
    if fate is None or fate.fate != "lost" or s.snap.holders_of(it.id or "") or holder.poss:
        return False
    toks = s.tokens
    verb = holder.j
    while verb < it.i and _manner_adverb(toks[verb].low):
        verb += 1
    if verb >= it.i or toks[verb].quoted or not toks[verb].text.islower():
        return False
    form = toks[verb].low
    base = _lemma_of(form)
    if base is None or base == form or not is_finite(form, base) or it.i - verb > 4:
        return False
    if any(not (w.text.isalpha() and w.text.islower()) or w.low in _LOCATIVE for w in toks[verb + 1 : it.i]):
        return False  # only the thing's article and words describing it between the verb and the thing
    if base in _RECOVER:
        return True
    if verb_class(base) in _NOT_HANDLING or base in _AT_A_DISTANCE | _CONTACT | _WRITE_IN:
        return False
    q = it.j
    while q < min(s.b, it.j + 3) and toks[q].low in _OUT_FROM:
        q += 1
    if q == it.j or q >= s.b or (toks[q - 1].low not in ("from", "out") and toks[q].low != "of"):
        return False
    if toks[q].low == "of":
        q += 1
    return q < s.b and toks[q].low not in _OWN_SOURCE and not toks[q].poss


def _own_common_thing(s: _Sentence, it: Mention, owner: Mention | None, k: int) -> bool:
    """True when a possessive names a thing by a bare common noun ("her notebook", "his knife"), the item's
    recorded name is that noun alone (or with its holder's name: "Wilf's notebook"), the owner is not among
    its holders and none of them is in the scene: the owner's own notebook, not the one recorded. A
    distinctive name (several words, a proper name), a word describing the thing, or the recorded thing's
    holder in the scene (the one lute in the camp) links it still."""
    e = s.snap.entities.get(it.id or "")
    held = s.snap.holders_of(it.id or "")
    if e is None or owner is None or not held or owner.id in held or it.j - it.i != 1:
        return False
    scene = s.snap.scene
    if not s.tokens[it.i].text.islower() or any(
        h in scene.present or (scene.location is not None and h == scene.location) for h in held
    ):
        return False  # the recorded one is here: in the hands of one in the scene, or lying here
    if any(t.low != "own" for t in s.tokens[k + 1 : it.i]):
        return False  # "her battered notebook": described, maybe the recorded one
    words = e.name.split()
    if words and words[0].lower() in ("the", "a", "an"):
        words = words[1:]
    if len(words) == 2 and words[0].endswith(("'s", "’s")):
        words = words[1:]  # "Wilf's notebook": a holder's name and the common noun
    if len(words) != 1 or not words[0].islower():
        return False
    word = s.tokens[it.i].low
    return word == words[0] or noun_lemma(word) == noun_lemma(words[0])


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
    mine = [c for c in s.ex.claims if c.kind == "holds" and c.span == s.span]
    claimed = {c.args[1] for c in mine}
    held = {c.args[1] for c in mine if c.args[0] != "*somewhere*"}
    for it in items:
        if it.id is None or it.id in held or _modifier_noun(s, it) or _part_of_wreck(s, it):
            continue
        # "On her wrist the arm-ring glints": told lying there by the hand table, and worn by her
        user = None if it.id in claimed else instrument_user(s, it) or drawn_from(s, it)
        user = user or worn_by(s, it)
        if user is not None and user.id is not None:
            if not _holder_also_fits(s, user, it.id):
                s.claim("holds", (user.id, it.id), user, _held_modality(s, user, it), "")
            continue
        fate = s.snap.fates.get(it.id)
        if it.id not in claimed and fate is not None and fate.fate != "sold" and inverted_here(s, it):
            s.claim("holds", ("*somewhere*", it.id), it, s.modality(it), "exists")
