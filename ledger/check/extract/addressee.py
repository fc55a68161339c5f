"""Who "you" is: the player character a second-person word of the narration speaks to.

A game master writes to the players: "the amulet at your throat, Fanta", "Your purse hangs light, Musa:
three coins at most", "She is your elder sister". :func:`addressees` reads which PC each narrative "you" /
"your" means: a PC called by name in the same sentence (a vocative: ", Fanta," / ", Tomasz." / "Musa:" /
"Idder, you ..."), else the one last called so earlier in the narration (a game master keeps talking to
the PC called across paragraphs, until another is called), else the only PC the scene has (when the
narration calls no other PC by name), else nobody. A plural "you" ("you both", "the two of
you", "each of you") is nobody, and so is any "you" in a sentence that calls two PCs. Quoted words are left
alone: there "you" is the speaker's addressee, not the player.

:func:`_addressed_claims` then reads the sentence again with each such word standing for its PC (like a
name: "your" as "Fanta's"), through the holdings, kinship and health passes only, and keeps what they
claim of that PC: what the PC holds and how many ("your seven cryo cores", "the amulet at your throat"),
whose kin they are ("she is your elder sister"), their health. Never acts, presence or choices: "you see",
"you feel" is the GM's register, and a PC doing what the player did not submit is judged elsewhere.
A holding or a state is not kept when the sentence remembers, wishes, supposes or tells the thing handed to
"you" (the record need not have the hand-over yet); a question put to the PC called asserts nothing.
:func:`_kin_of_you` turns "your uncle" into the uncle's mention, as "her uncle" is (:mod:`.kin_phrases`);
:func:`addressee_of` answers, for a pass that meets a "you" of its own, whom it means. Imports :mod:`.names`,
:mod:`.sentence`, :mod:`.speakers` and :mod:`.text`, and when it reads, :mod:`.holdings`, :mod:`.relations`,
:mod:`.kin_phrases`, :mod:`.conditions`, :mod:`.owners` and :mod:`.handovers`; run by :mod:`.pipeline`.
"""

from __future__ import annotations

from ledger.check.claims import Claim, Modality
from ledger.check.extract.names import Extraction, Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.speakers import addressed
from ledger.check.extract.text import Token, _number
from ledger.check.snapshot import WorldSnapshot

_YOU = frozenset({"you", "you're", "you've", "you'd", "you'll", "yourself"})
_YOUR = frozenset({"your"})
_SECOND = _YOU | _YOUR | {"yours", "yourselves", "y'all"}
# a plural "you": "you both", "you two", "you all"; "both of you", "each of you", "the two of you"
_PLURAL_AFTER = frozenset({"both", "two", "three", "four", "five", "all", "together", "yourselves"})
# ("one of you", "any of you": some one of the party, not told which)
_PLURAL_BEFORE = frozenset({"both", "each", "all", "either", "neither", "two", "three", "four", "five"})
_PLURAL_BEFORE |= {"one", "any", "none", "some", "most", "many"}
_PLURAL_WORDS = frozenset({"yourselves", "y'all"})
# what closes a vocative name: the sentence's end, a colon, a semicolon, a dash, a comma
_CLOSERS = frozenset({".", "!", "?", ":", ";", "—", "–", ","})
# words joining a second call to the first: "Dace, the rain soaks your collar, and Oriel, your lamp ..."
_JOINS = frozenset({"and", "but", "while", "then", "now"})
# what may stand before a vocative name inside a sentence
_OPENERS = frozenset({",", ":", ";", "—", "–"})
# claim kinds the second-person reading may add: what is held, how many, kin, health
_KEPT = frozenset({"holds", "kinship", "health", "condition_gone"})


def _second(t: Token) -> bool:
    return not t.quoted and t.low.replace("’", "'") in _SECOND


def _plural_at(toks: list[Token], k: int, a: int, b: int) -> bool:
    """True when the second-person word at ``k`` is plural: "you both", "both of you", "the two of you"."""
    low = toks[k].low.replace("’", "'")
    if low in _PLURAL_WORDS:
        return True
    if low == "you" and k + 1 < b and toks[k + 1].low in _PLURAL_AFTER and not toks[k + 1].quoted:
        return True
    return low == "you" and k - 2 >= a and toks[k - 1].low == "of" and toks[k - 2].low in _PLURAL_BEFORE


def _vocatives(s: _Sentence) -> list[Mention]:
    """The PCs the sentence calls by name, in order: a PC's name set off as a call, not a subject: opening
    the sentence before a clause of its own ("Idder, you lie ..."), or after a comma (or a colon) with a
    second-person word in the words before it since the last mark ("the amulet at your throat, Fanta,"),
    closed by the sentence's end, a colon, a semicolon, a dash or a comma not followed by its own verb."""
    toks = s.tokens
    found: list[Mention] = []
    for m in s.mentions:
        if m.id is None or m.poss or m.quoted or s.kind(m) not in ("pc", "npc", "monster"):
            continue
        if m.j >= s.b or toks[m.j].text not in _CLOSERS or toks[m.j].quoted:
            continue
        if addressed(toks, m, s.a, s.b):
            found.append(m)
            continue
        joined = m.i - 1 > s.a and toks[m.i - 1].low in _JOINS and toks[m.i - 2].text == ","
        if (m.i == s.a or joined) and toks[m.j].text == "," and _you_opens(s, m.j + 1):
            # "Fanta, at your shoulder, the weigher ...", "..., and Musa, your purse ...": the words after
            # the call say "you" before anything else
            if s.verb_after(m) is None:
                found.append(m)
            continue
        if m.i <= s.a or toks[m.i - 1].text not in _OPENERS or toks[m.i - 1].quoted:
            continue
        q = m.i - 2
        told = False
        while q >= s.a and toks[q].text not in _OPENERS and not toks[q].quoted:
            told = told or _second(toks[q])
            q -= 1
        if m.j == s.b - 1 and toks[m.j].text in (".", "!", "?"):
            # the sentence closes on the call: "Haska, your sister, sets down her ladle, Oriel."
            told = told or any(_second(toks[x]) for x in range(s.a, m.i))
        if not told:
            continue  # "the healer, Fanta, kneels": a name in apposition, not a call
        if toks[m.j].text == "," and s.verb_after(m) is not None:
            continue  # ", Fanta, draws her knife": the subject of her own verb
        found.append(m)
    return found


def _you_opens(s: _Sentence, lo: int) -> bool:
    """True when a second-person word stands in the clause after a call, before the next comma."""
    for k in range(lo, min(s.b, lo + 6)):
        t = s.tokens[k]
        if t.quoted or t.text in _CLOSERS:
            return False
        if _second(t):
            return True
    return False


def addressees(
    ex: Extraction, snap: WorldSnapshot, text: str, sentences: list[tuple[int, int]]
) -> dict[int, str]:
    """Token index of each narrative "you"/"your" -> the PC it means; words that mean nobody are left out."""
    toks = ex.tokens
    if not any(_second(t) for t in toks):
        return {}
    pcs: set[str] | None = snap.cache.get("pc-ids")
    if pcs is None:  # once per snapshot, not once per narration: a world holds thousands of entities
        pcs = snap.cache["pc-ids"] = {e.id for e in snap.entities.values() if e.kind == "pc"}
    if not pcs:
        return {}
    called: list[tuple[int, list[str]]] = []  # (sentence start, PCs it calls)
    plural: list[bool] = []
    for a, b in sentences:
        s = _Sentence(ex, snap, text, a, b)
        # one who is no PC called by name ("Haska, the lamp at your hip"): that sentence's "you" is theirs
        called.append((a, [m.id if s.kind(m) == "pc" else "" for m in _vocatives(s) if m.id]))
        plural.append(any(_second(toks[k]) and _plural_at(toks, k, a, b) for k in range(a, b)))
    everyone = {p for _, vs in called for p in vs if p}
    here = [p for p in snap.scene.present if p in pcs]
    only = here[0] if len(here) == 1 and everyone <= {here[0]} else None
    out: dict[int, str] = {}
    snap.cache["addressees"] = (ex, out)  # read by :func:`addressee_of`
    last: str | None = None  # the PC last called, in this paragraph or an earlier one
    plural_since = False  # a plural "you" since that call
    for n, (a, b) in enumerate(sentences):
        vs = called[n][1]
        if plural[n]:
            plural_since = True
            continue  # "the two of you": every "you" of the sentence is the party
        distinct = set(vs)
        if len(distinct) > 1:
            last, plural_since = None, False
            continue  # two PCs called in one sentence: whose "your" is whose is not told
        if distinct == {""}:
            continue  # someone not a player called: "you" is not the player here
        if distinct:
            who: str | None = vs[0]
            last, plural_since = vs[0], False
        elif last is not None and not plural_since:
            who = last
        elif plural_since:
            who = None
        else:
            who = only
        if who is None:
            continue
        for k in range(a, b):
            if _second(toks[k]):
                out[k] = who
    return out


def addressee_of(s: _Sentence, k: int) -> str | None:
    """The PC the narrative second-person word at token ``k`` means (None: nobody, or not such a word), as
    :func:`addressees` read it for this extraction; for passes that meet a "you" of their own."""
    found = s.snap.cache.get("addressees")
    if found is None or found[0] is not s.ex:
        return None
    you: dict[int, str] = found[1]
    return you.get(k)


def _kin_of_you(ex: Extraction, snap: WorldSnapshot, you: dict[int, str]) -> None:
    """ "she asks after your uncle": "your" and a kinship term name the one relative the records tie to the
    PC meant by that term, as "Fanta's uncle" does (:func:`.kin_phrases._kin_phrases`); the phrase becomes
    that relative's mention."""
    if not snap.edges:
        return
    yours = [k for k, _ in sorted(you.items()) if ex.tokens[k].low in _YOUR]
    if not yours:
        return
    from ledger.check.extract.kin_phrases import _kin_phrases

    toks = ex.tokens
    covered = {q for m in ex.mentions for q in range(m.i, m.j)}
    stand_ins = [Mention((you[k],), k, k + 1, True, False, "public") for k in yours if k not in covered]
    if not stand_ins:
        return
    named = _kin_phrases(sorted([*ex.mentions, *stand_ins], key=lambda m: m.i), toks, snap)
    added = [
        m
        for m in named
        if any(m.i == x.i for x in stand_ins) and m.j > m.i + 1 and not any(m is x for x in stand_ins)
    ]
    if added:
        ex.mentions = sorted([*ex.mentions, *added], key=lambda m: (m.i, m.j))


def _addressed_claims(s: _Sentence, you: dict[int, str]) -> None:
    """Read the sentence again with each second-person word standing for the PC it means, through the
    holdings, kinship and health passes, and keep what they claim of that PC through those words (not
    through a "his" or "her" the passes would resolve to the stand-in) and did not claim before."""
    toks = s.tokens
    covered = {q for m in s.mentions for q in range(m.i, m.j)}
    stand_ins = [
        Mention((who,), k, k + 1, toks[k].low in _YOUR, False, "public")
        for k, who in you.items()
        if s.a <= k < s.b and k not in covered and toks[k].low.replace("’", "'") in _YOU | _YOUR
    ]
    if not stand_ins:
        return
    from ledger.check.extract.conditions import _conditions
    from ledger.check.extract.holdings import _holdings
    from ledger.check.extract.relations import _kinship

    again = _Sentence(s.ex, s.snap, s.text, s.a, s.b)
    # the PC called by name is no party to what the sentence tells ("She is your elder sister, Oriel":
    # not "Magda's daughter, Lark"); the stand-ins are
    calls = _vocatives(again)
    kept = [m for m in again.mentions if not any(m is c for c in calls)]
    again.mentions = sorted([*kept, *stand_ins], key=lambda m: (m.i, m.j))
    claims = s.ex.claims
    before = len(claims)
    _asked_of(s, calls, claims)
    had = {(c.kind, c.args, c.detail, c.span) for c in claims[max(0, before - 200) :]}
    _holdings(again)
    _kinship(again)
    _conditions(again)
    n_passes = len(claims)
    _carried_after_colon(again, stand_ins)
    _had_by_you(again, stand_ins)
    new = claims[before:]
    del claims[before:]
    _negated_through_you(claims, new, {m.id for m in calls if m.id}, s.span)
    for n, c in enumerate(new):
        key = (c.kind, c.args, c.detail, c.span)
        if c.kind not in _KEPT or key in had:
            continue
        mine = before + n >= n_passes  # told by the colon reading itself
        if not mine and not _through_you(again, c, stand_ins):
            continue
        if c.kind != "kinship" and _told_otherwise(again, stand_ins):
            continue
        if c.kind == "holds" and not calls and _another_you_holds(s, c.args, set(you.values())):
            continue  # "under your fiddle", no PC called here: the other PC addressed, who has it, fits too
        had.add(key)
        mod = c.modality
        if c.kind == "kinship":
            # a kinship does not end: "she is your elder sister, who carried you back when you were small"
            mod = Modality(mod.in_dialogue, mod.hypothetical, False, mod.rumour, mod.negated)
        claims.append(Claim(c.kind, c.args, c.text, c.span, mod, c.detail))
    _asked_of(s, calls, claims)  # and what the reading through "you" adds is asked as well


def _another_you_holds(s: _Sentence, args: tuple[str, ...], addressed: set[str]) -> bool:
    """True when a "your" carried over from an earlier call could mean another PC the narration addresses
    as "you", and that PC holds the thing: the text does not say it changed hands."""
    held = s.snap.holders_of(args[1]) if len(args) > 1 else {}
    return args[0] not in held and any(p in held for p in addressed - {args[0]})


def _asked_of(s: _Sentence, calls: list[Mention], claims: list[Claim]) -> None:
    """ "Oriel, do you still have the compass?": a question put to the PC called (the call, then a word a
    question opens on, a question mark at the end) asserts nothing; the sentence's claims are suppositions."""
    from ledger.check.extract.sentence import _QUESTION_OPENERS

    toks = s.tokens
    last = toks[s.b - 1]
    opener = next((m for m in calls if m.i == s.a), None)
    if opener is None or last.text != "?" or last.quoted or opener.j + 1 >= s.b:
        return
    if toks[opener.j + 1].low not in _QUESTION_OPENERS or toks[opener.j + 1].quoted:
        return
    for n, c in enumerate(claims):
        if c.span == s.span and not c.modality.hypothetical:
            m = c.modality
            mod = Modality(m.in_dialogue, True, m.memory, m.rumour, m.negated)
            claims[n] = Claim(c.kind, c.args, c.text, c.span, mod, c.detail)


def _negated_through_you(
    claims: list[Claim], again: list[Claim], called: set[str], span: tuple[int, int]
) -> None:
    """ "Oriel, you have no compass now": the first reading took the call for the subject and read the
    modality there; read through "you", the same claim of the PC called is negated (or supposed, or
    remembered), and that reading stands."""
    if not called:
        return
    by_key = {(c.kind, c.args, c.detail): c.modality for c in again if c.span == span}
    for n, c in enumerate(claims):
        if c.span != span or c.kind != "holds" or c.args[0] not in called:
            continue
        mod = by_key.get((c.kind, c.args, c.detail))
        if mod is not None and mod != c.modality and (mod.negated or mod.hypothetical or mod.memory):
            claims[n] = Claim(c.kind, c.args, c.text, c.span, mod, c.detail)


# words that make a holding or a state told to "you" something other than now: remembered, lost, wished,
# supposed ("you reach for the compass at your throat before you remember the flood took it", "the lamp at
# your hip would help, if ...")
_OTHERWISE = frozenset(
    {"lost", "gone", "missing", "stolen", "once", "longer", "anymore", "used", "would", "could", "might"}
    | {"if", "unless", "wish", "wishes", "wished", "imagine", "imagines", "pretend", "dream", "should"}
)


def _told_otherwise(s: _Sentence, stand_ins: list[Mention]) -> bool:
    """True when the sentence's words keep what it tells of "you" from being told as now: a word of memory,
    loss, wishing or supposing anywhere in its narration, or a thing given to "you" in it ("the lamp Dace
    lent you this morning": the hand-over is told, so the record need not have it yet)."""
    from ledger.check.extract.handovers import _GIVE_VERBS
    from ledger.check.extract.lexicon import _MEMORY
    from ledger.check.extract.verbs import lemma

    toks = s.tokens
    words = [t.low for t in toks[s.a : s.b] if not t.quoted]
    if _OTHERWISE & set(words) or _MEMORY & set(words):
        return True
    at = {p.i for p in stand_ins if not p.poss}
    return any(q - 1 >= s.a and lemma(toks[q - 1].low) in _GIVE_VERBS for q in at)


# verbs of having a thing on one: "you carry", "you still have", "you wear"
_HAVING = frozenset({"hold", "carry", "clutch", "grip", "wear", "cradle", "keep", "own"})
_HAVE = frozenset({"have", "has", "had", "you've"})
_THIRD = frozenset({"he", "she", "him", "his", "her", "hers", "they", "them", "their", "it", "its"})


def _through_you(s: _Sentence, c: Claim, stand_ins: list[Mention]) -> bool:
    """True when the claim of the PC comes through a second-person word the way a name would give it:
    "your seven cryo cores" (no one else the clause's subject), "the amulet at your throat", "you carry the
    lamp"; "she is your elder sister", "you are her son"; "you are feverish" (no third-person pronoun the
    passes could have resolved to the stand-in)."""
    toks = s.tokens
    pc = next((p.ids[0] for p in stand_ins if p.ids[0] in c.args), None)
    if pc is None:
        return False
    mine = [p for p in stand_ins if p.ids[0] == pc]
    if c.kind == "holds":
        if c.args[0] != pc or "give:" in c.detail or "acquire" in c.detail:
            return False  # "you hand Mira the key": a PC's act, not a holding told to the player
        items = [m for m in s.mentions if m.id == c.args[1] and not m.quoted]
        return any(_holds_through(s, p, it) for p in mine for it in items)
    if c.kind == "kinship":
        term = c.detail.split()[-1] if c.detail else ""
        if c.args[1] == pc:  # "your [elder] sister"
            return any(
                p.poss and any(toks[q].low == term for q in range(p.j, min(s.b, p.j + 3))) for p in mine
            )
        return any(
            not p.poss and p.j < s.b and toks[p.j].low in ("are", "were") for p in mine
        )  # "you are Hamid's son"
    # health: said of "you" with no third-person pronoun in the sentence the passes could have misread
    return not any(t.low in _THIRD and not t.quoted for t in toks[s.a : s.b])


def _holds_through(s: _Sentence, p: Mention, it: Mention) -> bool:
    """Whether the stand-in ``p`` makes its PC the holder of the item mention ``it``."""
    from ledger.check.extract.lexicon import _NUMBERS
    from ledger.check.extract.owners import _TRAILING_PREPS, _worn_at
    from ledger.check.extract.verbs import lemma

    toks = s.tokens
    c0, _ = s.clause_of(it.i)
    others = [
        m
        for m in s.mentions
        if m.id not in (None, p.ids[0])
        and not m.poss
        and not m.quoted
        and c0 <= m.i < it.i
        and s.kind(m) in ("pc", "npc", "monster")
    ]
    if p.poss and p.j <= it.i <= p.j + 3:
        # "your seven cryo cores", "your battered lantern": yours, and in your hands unless the clause has
        # someone else doing something with it ("She has your spectrometer on her knees")
        between = toks[p.j : it.i]
        if any(t.poss or not (t.text.islower() or t.low in _NUMBERS or t.low.isdigit()) for t in between):
            # "your father's ring" is the father's
            return False
        return not others and not any(t.low in _THIRD and not t.quoted for t in toks[c0 : it.i])
    if p.poss and it.j < p.i <= it.j + 4 and _drawn_from_yours(s, p):
        return True  # "you dig the key out of your jeans pocket": it was in your keeping
    if p.poss and it.j < p.i <= it.j + 4 and toks[p.i - 1].low in _TRAILING_PREPS and p.j < s.b:
        return _worn_at(s, p.i - 1, p.j)  # "the amulet hanging at your throat", "the dagger at your hip"
    if not p.poss and p.j < it.i <= p.j + 6 and not others:
        # "you carry the lamp", "you still have the letter"
        words = [toks[q].low.replace("’", "'") for q in range(p.i, min(it.i, p.j + 3))]
        return any(w in _HAVE or lemma(w) in _HAVING for w in words)
    from ledger.check.extract.item_worn import worn_by

    worn = worn_by(s, it)  # "around your shoulders hangs the cloak", "your hand goes to your thigh: the gun"
    return worn is not None and worn.i == p.i


def _drawn_from_yours(s: _Sentence, p: Mention) -> bool:
    """True when "your" at ``p`` follows "from" or "out of" and names a pocket, bag or garment of the PC
    ("out of your jeans pocket", "from your satchel"): what is drawn from it was carried there."""
    from ledger.check.extract.owners import _CARRIED_IN, _WORN_ON

    toks = s.tokens
    lead = toks[p.i - 1].low
    if not (lead == "from" or (lead == "of" and p.i - 2 >= s.a and toks[p.i - 2].low == "out")):
        return False
    return any(toks[q].low in _CARRIED_IN | _WORN_ON for q in range(p.j, min(s.b, p.j + 2)))


# what may stand between a colon and the thing it names: an article, a count, a word describing it
_LEAD_WORDS = frozenset({"the", "a", "an", "some", "all", "only", "just"})


def _carried_after_colon(s: _Sentence, stand_ins: list[Mention]) -> None:
    """ "You feel the weight at your hip: the seven cryo cores", "Your pack is heavy: two flasks of oil":
    a place the PC carries things ("your hip", "your purse"), then a colon or a dash, then a thing named
    right after it: the PC holds it, at least as many as told."""
    from ledger.check.extract.owners import _CARRIED_IN, _WORN_AT, _WORN_ON

    toks = s.tokens
    places = _CARRIED_IN | _WORN_ON | _WORN_AT
    for p in stand_ins:
        if not p.poss:
            continue
        place = next((q for q in (p.j, p.j + 1) if q < s.b and toks[q].low in places), None)
        if place is None or any(not toks[q].text.islower() for q in range(p.j, place + 1)):
            continue
        colon = next(
            (q for q in range(place + 1, min(s.b, place + 12)) if toks[q].text in (":", "—", "–")), None
        )
        if colon is None and p.i - 1 == s.a and toks[s.a].low in _INSIDE:
            colon = _inverted_verb(s, place + 1)  # "In your pack, Oriel, rests the storm lamp"
        if colon is None or any(toks[q].quoted or toks[q].text in (";", ".") for q in range(place, colon)):
            continue
        if any(
            place < m.i < colon and m.id not in (None, p.ids[0]) and s.kind(m) in ("pc", "npc", "monster")
            for m in s.mentions
        ):
            continue  # "your hip, and Aroha's eyes on it: ..." someone else between (not the PC called)
        it = next((m for m in s.mentions if colon < m.i <= colon + 5 and not m.quoted), None)
        if it is None or it.id is None or s.kind(it) != "item":
            continue
        if toks[it.i - 1].low in ("a", "an", "another"):
            continue  # "a storm lamp of your own": some lamp, not the one recorded
        if any(
            not (
                toks[q].low in _LEAD_WORDS or _number(toks, q, q + 1)[0] is not None or toks[q].text.islower()
            )
            for q in range(colon + 1, it.i)
        ):
            continue
        qty, _ = _number(toks, colon + 1, it.i)
        detail = f"qty>={qty}" if qty is not None else ""
        s.claim("holds", (p.ids[0], it.id), p, s.modality(p), detail)


_INSIDE = frozenset({"in", "inside", "within", "at", "on", "upon"})
# a thing lying where it is, told after the place in an inverted sentence
_LIES = frozenset({"is", "are", "sits", "sit", "rests", "rest", "lies", "lie", "hangs", "hang", "nestles"})
_LIES |= {"nestle", "waits", "wait", "rides", "ride", "sleeps", "sleep"}


def _inverted_verb(s: _Sentence, k: int) -> int | None:
    """The verb of lying right after a fronted place ("In your pack[, Oriel,] rests ..."): its token, or
    None."""
    toks = s.tokens
    while k < s.b and (toks[k].text == "," or (toks[k].text[:1].isupper() and not toks[k].quoted)):
        k += 1  # the comma and the name called between
    return k if k < s.b and toks[k].low in _LIES and not toks[k].quoted else None


# the base forms a "you" has a thing by, told now: "the lamp you carry", "the tokens you have left"
_HAVE_NOW = frozenset({"have", "carry", "hold", "wear", "keep", "clutch", "grip", "cradle", "own"})
_STILL = frozenset({"still", "now", "always", "yet", "also"})


def _had_by_you(s: _Sentence, stand_ins: list[Mention]) -> None:
    """ "The storm lamp you carry gutters", "the three tokens you have left": a thing, then (after "that"
    or "which") a "you" and a verb of having told now: the PC holds it, at least as many as told before it
    ("left" after the verb: exactly that many)."""
    toks = s.tokens
    by_start = {p.i: p for p in stand_ins if not p.poss}
    for it in s.mentions:
        if it.id is None or it.quoted or s.kind(it) != "item":
            continue
        q = it.j + 1 if it.j < s.b and toks[it.j].low in ("that", "which") else it.j
        p = by_start.get(q)
        if p is None or toks[q].low != "you":
            continue
        v = p.j
        while v < s.b and toks[v].low in _STILL:
            v += 1
        if v >= s.b or toks[v].low not in _HAVE_NOW or toks[v].quoted:
            continue
        lo = it.i
        while lo - 1 >= s.a and lo > it.i - 3 and toks[lo - 1].text.islower() and not toks[lo - 1].poss:
            lo -= 1
        qty, _ = _number(toks, lo, it.i)
        left = v + 1 < s.b and toks[v + 1].low in ("left", "remaining")
        detail = "" if qty is None else f"qty={qty}" if left else f"qty>={qty}"
        # the clause is the relative one: what the main verb after it denies ("won't pay") is not denied of
        # the having; only a denial inside it is ("the lamp you no longer carry" stops before "no")
        m = s.modality(p)
        s.claim(
            "holds",
            (p.ids[0], it.id),
            p,
            Modality(m.in_dialogue, m.hypothetical, m.memory, m.rumour, False),
            detail,
        )
