"""One sentence as the claim passes see it: its tokens, mentions and clauses, and the questions they ask.

``_Sentence`` answers which clause a token is in, what kind of thing a mention names, the modality of a
mention (quoted, hypothetical, memory, rumour, negated), and which verb a named subject governs (including
an unknown verb guessed from its shape, ``_unknown_verb``); ``claim`` records a claim on the extraction.
Imports :mod:`.lexicon` and :mod:`.names`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ledger.check.claims import Claim, ClaimKind, Modality
from ledger.check.extract.lexicon import (
    _ADVERBS,
    _AUX,
    _BODY_NOUNS,
    _GRAVES,
    _HYPO,
    _IRREGULAR,
    _MEMORY,
    _MODAL_AFTER,
    _NEGATION,
    _NOT_VERBS,
    _OBJECT_LEAD,
    _RUMOUR,
    _SUBJECT_LEAD,
    MOTION,
    SPEECH,
    STATIC,
    VERBS,
)
from ledger.check.extract.media import drops
from ledger.check.extract.names import Extraction, Mention
from ledger.check.extract.verbs import can_be_past, is_finite, lemma, tags, verb_class
from ledger.check.snapshot import WorldSnapshot

# frequency adverbs right after a subject: the verb tells a habit, not an event of the scene
_HABITUAL = frozenset(
    {"usually", "normally", "generally", "habitually", "customarily", "ordinarily", "often", "sometimes"}
)


class _Sentence:
    """One sentence's tokens and mentions, with helpers for the phrase rules."""

    def __init__(self, ex: Extraction, snap: WorldSnapshot, text: str, a: int, b: int) -> None:
        self.ex = ex
        self.snap = snap
        self.text = text
        self.a = a
        self.b = b
        self.tokens = ex.tokens
        self.mentions = ex.between(a, b)
        self.span = (ex.tokens[a].start, ex.tokens[b - 1].end)
        self.raw = text[self.span[0] : self.span[1]]
        narrative = [t.low for t in ex.tokens[a:b] if not t.quoted]
        self.narr = " ".join(narrative)
        self.main_narr = _without_comparisons(narrative)
        self.clauses = self._clause_starts()
        # answers the passes ask again and again for the same mention: computed once per sentence
        self._creatures: dict[bool, list[Mention]] = {}
        self._modality: dict[tuple[Mention, int | None], Modality] = {}
        self._back: bool | None = None
        self._heard: bool | None = None

    def _clause_starts(self) -> list[int]:
        starts = [self.a]
        for k in range(self.a, self.b):
            t = self.tokens[k]
            if not t.quoted and (t.text in (";", "—", "–") or t.low in ("but", "instead", "meanwhile")):
                starts.append(k + 1)
        return starts

    def clause_of(self, k: int) -> tuple[int, int]:
        start = max(s for s in self.clauses if s <= k)
        later = [s for s in self.clauses if s > k]
        return start, (later[0] if later else self.b)

    def kind(self, m: Mention) -> str | None:
        eid = m.id
        if eid is None:
            return None
        e = self.snap.entities.get(eid)
        return e.kind if e else None

    def creatures(self, narrative_only: bool = True) -> list[Mention]:
        found = self._creatures.get(narrative_only)
        if found is None:
            found = [
                m
                for m in self.mentions
                if m.id and self.kind(m) in ("pc", "npc", "monster") and not (narrative_only and m.quoted)
            ]
            self._creatures[narrative_only] = found
        return list(found)

    def modality(self, m: Mention, verb_at: int | None = None) -> Modality:
        """Whether ``m`` (with the verb at ``verb_at``) is quoted, hypothetical, remembered, reported or
        negated; cached per sentence, since several passes ask about the same mention."""
        key = (m, verb_at)
        found = self._modality.get(key)
        if found is None:
            found = self._modality[key] = self._modality_of(m, verb_at)
        return found

    def _modality_of(self, m: Mention, verb_at: int | None) -> Modality:
        c0, c1 = self.clause_of(m.i)
        before = [t.low for t in self.tokens[self.a : m.i] if not t.quoted]
        before_clause = [t.low for t in self.tokens[c0 : m.i] if not t.quoted]
        after = [t.low for t in self.tokens[m.j : min(c1, m.j + 4)] if not t.quoted]
        hypo = self._hypothetical_before(c0, m.i) or bool(after and after[0] in _MODAL_AFTER)
        hypo = hypo or "going to" in " ".join(after) or bool(after and after[0].endswith("'ll"))
        # the mention's own contraction: "you'll", "you'd give" (would); "you'd lost it" (had) is no frame
        own = self.tokens[m.j - 1].low.replace("’", "'")
        hypo = (
            hypo or own.endswith("'ll") or (own.endswith("'d") and bool(after) and not can_be_past(after[0]))
        )
        # "where the Reeve usually sits" tells a habit, "Tomorrow the Reeve rides in" a plan: not what is
        # happening in the scene now
        hypo = hypo or bool(after and after[0] in _HABITUAL)
        hypo = hypo or any(t.low == "tomorrow" and not t.quoted and not t.poss for t in self.tokens[c0:c1])
        memory = bool(_MEMORY & set(before)) or bool(after and after[0] in ("had", "once", "used"))
        # "the grave of Harlan Voss", "the cairn for Caelan": the place of the dead names them, looking back
        grave_of = m.i - 2 >= self.a and self.tokens[m.i - 1].low in ("of", "for")
        memory = memory or (grave_of and self.tokens[m.i - 2].low in _GRAVES)
        # "the warehouse where Harlan Voss kept his wine": a past-tense relative clause looks back
        prev_word = self.tokens[m.i - 1].low if m.i > self.a else ""
        if prev_word in ("where", "when", "whom", "that") and after and _past_form(after[0]):
            memory = True
        # "the night Zsofia fell": a past verb right after a name that follows a time noun looks back;
        # "the hour Magda sleeps" tells a habit, not what Magda does now
        if prev_word in _TIME_NOUNS and after and _past_form(after[0]):
            memory = True
        elif (
            prev_word in _TIME_NOUNS
            and after
            and lemma(after[0]) is not None
            and not (m.i - 3 >= self.a and self.tokens[m.i - 3].low == "by")  # "by the time Mira reaches"
        ):
            hypo = True
        # "When Voss was alive, he haggled": a clause of the life someone had looks back over the sentence
        memory = memory or (self._looks_back() and not self._back_only_after(m))
        said_before = " ".join(before)
        rumour = bool(_RUMOUR & set(before_clause)) or (
            self._hearsay() and any(p in said_before for p in _HEARSAY)
        )
        # "... says Prince Edric holds the pass": a speech verb right before a name, not after a quote or
        # a comma, reports someone else's words about that name
        if m.i - 2 >= self.a:
            prev, prev2 = self.tokens[m.i - 1], self.tokens[m.i - 2]
            nxt = self.tokens[m.j].low if m.j < self.b else ""
            if (
                not prev.quoted
                and VERBS.get(prev.low) in SPEECH
                and not prev2.quoted
                and prev2.text not in (",", '"', "”", "“")
                and (
                    nxt in _AUX or lemma(nxt) is not None or nxt.endswith("'s")
                )  # a clause, not who is hailed
            ):
                rumour = True
        rumour = rumour or self._reported(m) or self._aside_after(m)
        hypo = hypo or self.future_or_asked(m, future=False) or self._asked()
        neg_zone = after[: (verb_at - m.j + 1) if verb_at is not None else 3]
        negated = any(w in _NEGATION or w.endswith("n't") for w in neg_zone)
        negated = negated or " ".join(before_clause[-3:]).endswith(("no sign of", "without", "nor", "no"))
        return Modality(m.quoted, hypo, memory, rumour, negated)

    def _hypothetical_before(self, c0: int, i: int) -> bool:
        """A word of supposing, planning or wishing in the clause before token ``i``, used as such: "plan",
        "hope" or "wish" after a determiner or an owner ("whispers the plan", "her last hope") is a thing
        named, not a frame around what follows."""
        toks = self.tokens
        for q in range(c0, i):
            t = toks[q]
            would = t.low.replace("’", "'").endswith("'d") and q + 1 < i and not can_be_past(toks[q + 1].low)
            if t.quoted or (t.low not in _HYPO and not would):
                continue
            prev = toks[q - 1] if q > self.a else None
            if prev is not None and (prev.low in _NOUN_LEAD or prev.poss) and t.low not in _FRAME_WORDS:
                continue
            if self._closed_question(q, i):
                continue  # "When you ask him whether it will hold, he answers": the question frames itself
            return True
        return False

    def _closed_question(self, q: int, i: int) -> bool:
        """True when token ``q`` lies in an indirect question ("whether ...", "asks if ...") that a comma
        closes before token ``i``: what is asked frames only itself, not the main clause after it."""
        toks = self.tokens
        k = q
        while k >= self.a and not (toks[k].low == "whether" or (toks[k].low == "if" and self._asking(k))):
            if toks[k].text in (",", ";", ":") or k < q - 12:
                return False
            k -= 1
        if k < self.a or not any(toks[p].text in (",", ";", ":") and not toks[p].quoted for p in range(q, i)):
            return False
        # "asks whether the stranger, Voss, is in town": a name set off by commas inside the question
        p = i
        while p < self.b and toks[p].text[:1].isupper():
            p += 1
        return not (toks[i - 1].text == "," and p < self.b and toks[p].text == ",")

    def _asking(self, k: int) -> bool:
        """True when a verb of asking or wondering stands within three words before token ``k``."""
        return any(lemma(self.tokens[p].low) in _ASKING for p in range(max(self.a, k - 3), k))

    def _asked(self) -> bool:
        """Whether the sentence is the narration's own question ("Did the squire ride out alone?", "Was he
        armed?"): it opens on an auxiliary or a wh-word and ends in a question mark, and asserts nothing."""
        toks = self.tokens
        last, first = toks[self.b - 1], toks[self.a]
        return last.text == "?" and not last.quoted and not first.quoted and first.low in _QUESTION_OPENERS

    def _hearsay(self) -> bool:
        """Whether the sentence has any words of hearsay ("they say", "word is") at all: once per sentence,
        so the per-mention test runs only where one may apply."""
        if self._heard is None:
            self._heard = any(p in self.narr for p in _HEARSAY)
        return self._heard

    def _looks_back(self) -> bool:
        """The sentence as a whole looks back: a life someone had ("when Voss was alive") or a time phrase
        ("years ago", "last week") that is not a possessive ("last week's fireworks" only says when a thing
        was, so it frames nothing). The same for every mention: computed once."""
        if self._back is None:
            back = bool(_IN_LIFE.search(self.main_narr))
            if not back and any(p in self.main_narr for p in _LOOK_BACK):
                words = [
                    t.low + ("'s" if t.poss else "") for t in self.tokens[self.a : self.b] if not t.quoted
                ]
                told = " " + _without_comparisons(words) + " "
                back = any(f" {p} " in told for p in _LOOK_BACK)
            self._back = back
        return self._back

    def _back_only_after(self, m: Mention) -> bool:
        """True when the sentence looks back only inside a relative clause after ``m`` ("She has the cloak
        around her shoulders, the pin at her breast where he used to wear it"): that clause's past is its
        own, not the time ``m`` is told in."""
        toks = self.tokens
        r = next((q for q in range(m.j, self.b) if toks[q].low in _RELATIVE and not toks[q].quoted), None)
        if r is None or _IN_LIFE.search(self.main_narr):
            return False
        words = [t.low + ("'s" if t.poss else "") for t in toks[self.a : r] if not t.quoted]
        told = " " + _without_comparisons(words) + " "
        return not any(f" {p} " in told for p in _LOOK_BACK)

    def future_or_asked(self, m: Mention, *, future: bool = True) -> bool:
        """True when ``m`` lies in the scope of a future ("when he'll see his two shares", "you will meet
        Voss") or of an indirect question ("asks when ...", "wonders whether ...", "asks the captain about
        his shares"), within the simple clause before it (up to a comma, a semicolon or a conjunction): what
        is asked about or still to come is not told as fact. ``future=False`` asks only about questions (a
        future may be an offer or a threat, which tells an attitude now)."""
        k = m.i - 1
        stop = max(self.a, m.i - 12)
        asked_at: int | None = None
        while k >= stop:
            t = self.tokens[k]
            if t.quoted or t.text in (",", ";", ":", ".", "—", "–", "(") or t.low in ("and", "but", "or"):
                break
            if future and (t.low in ("will", "shall") or t.low.endswith("'ll")):
                return True
            if t.low in _QUESTION_GLUE and asked_at is None:
                asked_at = k
            k -= 1
        if asked_at is None:
            return False
        for q in range(asked_at - 1, max(self.a, asked_at - 4) - 1, -1):
            t = self.tokens[q]
            if t.quoted or t.text in (",", ";", "."):
                break
            if lemma(t.low) in _ASKING:
                return True
        return False

    def _aside_after(self, m: Mention) -> bool:
        """True when a reporting aside set off by commas follows ``m``: "The Reeve, Tobit says, sits ...",
        "Voss, they swear, still walks": what follows is the speaker's report about ``m``."""
        toks = self.tokens
        q = m.j
        if m.poss or q + 3 >= self.b or toks[q].text != "," or toks[q].quoted:
            return False
        who = next((x for x in self.mentions if x.i == q + 1 and not x.quoted), None)
        if who is not None:
            k = who.j
        elif toks[q + 1].low in ("he", "she", "they", "everyone", "people", "some", "folk"):
            k = q + 2
        else:
            return False
        return k + 1 < self.b and _reporting(toks[k].low) and toks[k + 1].text == ","

    def _reported(self, m: Mention) -> bool:
        """True when ``m`` opens the complement of a verb of saying, swearing, hearing or believing whose own
        subject comes before it: "the roustabouts swear Zsofia still walks", "they say that old Voss walks",
        "tells her where Pike hides": the whole clause is someone's report, not the narrator's."""
        k = m.i - 1
        glue = False
        ends = {x.j - 1: x for x in self.mentions if x is not m and not x.quoted}
        while k >= self.a and not self.tokens[k].quoted:
            if self.tokens[k].low in _COMPLEMENT_GLUE:
                glue, k = True, k - 1
            elif glue and k in ends:
                k = ends[k].i - 1  # "tells Mira where Voss hides": the person told, then the report
            else:
                break
        if glue and k >= self.a and self.tokens[k].low.isalpha() and not _reporting(self.tokens[k].low):
            # "tells the dockhands that Voss walks", "swears on her mother's grave that Voss lives": words
            # between the verb of saying and its report; the nearest such verb within the clause governs it
            q = next(
                (
                    q
                    for q in range(k - 1, max(self.a, k - 7) - 1, -1)
                    if _reporting(self.tokens[q].low) or not self.tokens[q].low.isalpha()
                ),
                None,
            )
            if q is not None and self.tokens[q].low.isalpha() and not self.tokens[q].quoted:
                k = q
        if k - 1 < self.a:
            return False
        t, before = self.tokens[k], self.tokens[k - 1]
        after_quote = before.text == "," and k - 2 >= self.a and self.tokens[k - 2].text in ('"', "”")
        if t.quoted or before.quoted or before.text in ('"', "“", "”", ":") or after_quote:
            return False  # '"...," says Voss' names the speaker, not a report about Voss
        base = lemma(t.low)
        if base is None or not (verb_class(base) in ("speech", "commitment") or base in _REPORTING):
            return False
        # "Tam tells Mira ...", "warns Voss": the person spoken to, not a report about them; without "that"
        # the report is a clause, so a verb follows the name ("says Prince Edric holds the pass"), unlike
        # "greets the abbot, who ..." (the one greeted)
        if glue:
            return True
        nxt = self.tokens[m.j].low if m.j < self.b else ""
        return base not in _TELL_SOMEONE and (nxt in _AUX or lemma(nxt) is not None or nxt.endswith("'s"))

    def claim(
        self, kind: ClaimKind, args: Iterable[str], m: Mention | None, modality: Modality, detail: str = ""
    ) -> None:
        args = tuple(args)
        if args and drops(self.ex, self.a, self.b, kind, args[0], m):
            return  # seen or heard through a medium: not here, or (recorded) not acting at all
        self.ex.claims.append(Claim(kind, args, self.raw.strip(), self.span, modality, detail))

    def verb_after(self, m: Mention) -> tuple[int, str, str] | None:
        """(token index, surface form, lemma) of the verb whose subject is ``m``, if any."""
        k = m.j
        if m.poss:
            lead = self.tokens[m.i - 1].low if m.i > self.a else ""
            if lead == "the" and m.i - 1 > self.a:
                lead = self.tokens[m.i - 2].low
            if lead in _PLACE_PREPOSITIONS:
                return None  # "a letter in the abbot's hand lies there": the hand is the handwriting's
            # "Voss's eyes narrow": possessive + body noun + verb acts for the owner
            if k < self.b and self.tokens[k].low in _BODY_NOUNS:
                k += 1
                while k < self.b and self.tokens[k].low in _BODY_NOUNS | {"and"}:
                    k += 1
            else:
                return None
        steps = 0
        while k < self.b and steps < 14:
            t = self.tokens[k]
            if t.quoted:
                return None
            if t.text == ",":
                # skip an appositive: "Voss, wiping a mug, greets you"
                close = next(
                    (q for q in range(k + 1, min(self.b, k + 16)) if self.tokens[q].text == ","), None
                )
                if close is None:
                    return None
                k = close + 1
                steps += 1
                continue
            if t.low in _ADVERBS or (t.low.endswith("ly") and t.low not in VERBS and len(t.low) > 4):
                k += 1
                steps += 1
                continue
            if t.low in _AUX:
                # "is already slipping out", "is quietly picking the lock": adverbs between the auxiliary
                # and its participle
                p = k + 1
                while p < min(self.b, k + 3) and (
                    (w := self.tokens[p].low) in _ADVERBS
                    or (w.endswith("ly") and w not in VERBS and len(w) > 4)
                ):
                    p += 1
                if p >= self.b or not self.tokens[p].low.endswith("ing"):
                    p = k + 1
                nxt = self.tokens[p].low if p < self.b else ""
                if nxt in VERBS and nxt.endswith("ing"):
                    return p, nxt, VERBS[nxt]
                base = lemma(nxt) if nxt.endswith("ing") and p < self.b else None
                if base is not None and not self.tokens[p].quoted:
                    return p, nxt, base  # "Voss is pirouetting": a verb the hand table lacks
                return (
                    k,
                    t.low,
                    "be" if t.low in ("is", "was", "are", "were", "seems") else VERBS.get(t.low, "be"),
                )
            if t.low in ("has", "have") and k + 1 < self.b and not self.tokens[k + 1].quoted:
                # "Voss has come back": the present perfect tells what holds now
                nxt = self.tokens[k + 1].low
                base = lemma(nxt)
                if base is not None and "VBN" in tags(nxt, base) and base not in ("be", "have"):
                    return k + 1, nxt, base
                ing = self.tokens[k + 2] if k + 2 < self.b else None
                if nxt == "been" and ing is not None and ing.low.endswith("ing") and not ing.quoted:
                    # "The Dean has been leaning on his cane since the lecture began": still doing it now
                    base = lemma(ing.low)
                    if base is not None:
                        return k + 2, ing.low, base
            if t.low in VERBS:
                if t.low.endswith("ing"):
                    return None  # "Voss, smiling" is not a finite verb
                return k, t.low, VERBS[t.low]
            if t.low in ("and",) and steps == 0:
                return None
            if t.low in _SELF and steps == 0:
                k += 1  # "Sir Reginald himself settles ...": the intensifier is not the verb
                steps += 1
                continue
            found = _lexicon_verb(self, m, k)
            if found is not None:
                return k, t.low, found
            guess = _unknown_verb(self, m, k)
            if guess is not None:
                return k, t.low, guess
            return None
        return None

    def verb_before(self, m: Mention) -> tuple[int, str, str] | None:
        """Inversion: "behind the bar stands Harlan Voss", '"Welcome," says Voss'."""
        k = m.i - 1
        if k < self.a:
            return None
        t = self.tokens[k]
        if t.low in ("is", "was") and not t.quoted and self.tokens[self.a].low in _OPENING_PLACE:
            return k, t.low, "be"  # "Behind the bar, polishing a glass, is Harlan Voss"
        lemma = VERBS.get(t.low)
        if lemma is None or t.quoted or not (lemma in SPEECH or lemma in STATIC or lemma in MOTION):
            return None
        if t.low.endswith("ing"):
            return None
        # a verb with its own subject before it is not inverted: "her eyes never leave Greyrock"; nor is a
        # bare plural form, which cannot agree with one named creature ("stands Voss", never "stand Voss")
        before = self.tokens[k - 1].low if k - 1 >= self.a else ""
        if before in _NEGATION or before.endswith("n't") or before in _BODY_NOUNS:
            return None
        if _pronoun_subject(self, k - 1):
            return None  # "You promised Lorraine": the verb has its subject, the name is its object
        if t.low == lemma and not t.low.endswith("s") and lemma not in ("come", "run", "put", "set"):
            return None
        prev = [
            x
            for x in self.mentions
            if x.j <= k and self.kind(x) in ("pc", "npc", "monster") and not x.quoted and not x.poss
        ]
        if prev and self.clause_of(prev[-1].i)[0] == self.clause_of(k)[0]:
            return None
        return k, t.low, lemma


_NOMINATIVE = frozenset({"i", "he", "she", "we", "they"})
_PREPOSITIONS = frozenset(
    {"behind", "beside", "before", "after", "with", "to", "at", "by", "near", "around", "over", "under"}
    | {"past", "above", "below", "toward", "towards", "from", "of", "for", "among", "beyond", "in", "on"}
    | {"through", "across", "into", "onto", "inside", "within", "upon", "beneath", "against", "about"}
)


def _pronoun_subject(s: _Sentence, q: int) -> bool:
    """True when token ``q`` is a subject pronoun in the narration: a nominative one, or "you"/"it" not
    after a preposition ("Beside you sits Voss" keeps its inversion)."""
    if q < s.a or s.tokens[q].quoted:
        return False
    low = s.tokens[q].low
    if low in _NOMINATIVE:
        return True
    return low in ("you", "it") and (q == s.a or s.tokens[q - 1].low not in _PREPOSITIONS)


# words that may stand between a verb of report and the subject of what is reported
_COMPLEMENT_GLUE = frozenset(
    {
        "that",
        "how",
        "where",
        "when",
        "whether",
        "why",
        "old",
        "young",
        "her",
        "him",
        "them",
        "you",
        "us",
        "me",
    }
)
# verbs of report and belief beyond speech: what follows is someone's word or thought, not the narrator's
_REPORTING = frozenset(
    {
        "hear",
        "claim",
        "swear",
        "insist",
        "believe",
        "think",
        "reckon",
        "suppose",
        "dream",
        "imagine",
        "suspect",
        "doubt",
        "guess",
        "fear",
        "rumour",
        "rumor",
        "pretend",
        "wonder",
        "hope",
        "wish",
    }
)
# verbs of saying whose first object is the person addressed
_TELL_SOMEONE = frozenset(
    {
        "tell",
        "ask",
        "warn",
        "remind",
        "promise",
        "assure",
        "inform",
        "order",
        "bid",
        "beg",
        "urge",
        "greet",
        "answer",
        "thank",
        "call",
        "hail",
        "address",
        "question",
        "reassure",
    }
)
_IN_LIFE = re.compile(
    r"\b(?:when|while|back when)\s+(?:[\w']+\s+){1,3}(?:was|were)\s+(?:still\s+)?"
    r"(?:alive|living|young|a (?:boy|girl|child|lad|lass|youth))\b"
    r"|\bin (?:life|his life|her life|their life)\b"
)
# words before a noun: after one, a word of planning or hoping is the thing, not the frame
_NOUN_LEAD = frozenset({"the", "a", "an", "his", "her", "their", "its", "my", "your", "our", "this", "that"})
# frame words that are never nouns after a determiner in a way that matters ("the if" does not occur)
_FRAME_WORDS = frozenset({"if", "unless", "would", "could", "might", "should", "perhaps", "maybe", "whether"})
_HEARSAY = (
    "they say",
    "it is said",
    "word is",
    "people say",
    "some say",
    "say that",
    "says that",
    "said that",
    "whisper that",
    "whispers that",
    "heard that",
    "hear that",
    "swear that",
    "swears that",
    "insist that",
    "insists that",
    "talk of",
    "tell of",
    "tells of",
    "word from",
    "news from",
    "reports say",
    "according to",
)
_LOOK_BACK = (
    "years ago",
    "long ago",
    "used to",
    "back when",
    "last winter",
    "last week",
    "last night",
    "last month",
    "last year",
    "yesterday",
)
_RELATIVE = frozenset({"where", "who", "whom", "which"})
_PLACE_PREPOSITIONS = frozenset({"in", "into", "from", "on", "under", "beneath", "behind", "beside", "near"})
# prepositions of place that may open an inverted sentence ("Behind the bar ... is Voss")
_OPENING_PLACE = frozenset(
    {"in", "at", "inside", "outside", "on", "by", "near", "beside", "within", "behind", "across", "under"}
    | {"beneath", "over", "against", "among", "beyond"}
)
# an indirect question: a verb of asking, then (within a few words) what is asked
_ASKING = frozenset({"ask", "wonder", "inquire", "enquire", "query", "question"})
_QUESTION_GLUE = frozenset({"when", "whether", "if", "what", "where", "why", "how", "who", "about", "after"})
_TIME_NOUNS = frozenset(
    {"night", "day", "morning", "evening", "hour", "year", "winter", "summer", "week", "moment", "time"}
)
_SELF = frozenset({"himself", "herself", "itself", "themselves"})


# words a direct question opens on
_QUESTION_OPENERS = frozenset(
    {"did", "does", "do", "is", "was", "were", "are", "has", "had", "have", "can", "could", "will", "would"}
    | {"who", "whom", "what", "where", "when", "why", "how", "which", "whose", "shall", "should", "might"}
)


def _without_comparisons(words: list[str]) -> str:
    """The narrative words without "as if ..." / "as though ..." up to the next punctuation: a comparison
    ("nods as though they had parted yesterday") frames nothing outside itself."""
    out: list[str] = []
    skip = False
    for n, w in enumerate(words):
        if w == "as" and n + 1 < len(words) and words[n + 1] in ("if", "though"):
            skip = True
        elif skip and w in (",", ";", ".", "!", "?", ":", "—"):
            skip = False
        if not skip:
            out.append(w)
    return " ".join(out)


def _reporting(word: str) -> bool:
    """True when ``word`` is a form of a verb of saying, swearing or believing (it may frame a report)."""
    base = lemma(word)
    return base is not None and (verb_class(base) in ("speech", "commitment") or base in _REPORTING)


def _past_form(word: str) -> bool:
    """True when ``word`` can only be a past verb form ("kept", "fell", "walked")."""
    return can_be_past(word) or (word in _IRREGULAR and lemma(word) is None)


def _lexicon_verb(s: _Sentence, m: Mention, k: int) -> str | None:
    """A verb the hand table lacks, by lemminflect's lexicon: a finite form (-s or past) right after a named
    subject that opens its clause ("High above the ring, Zsofia pirouettes on the wire", "Brother Morrow
    ladles soup"). Returns the lemma. Many such words are nouns too ("drums", "shoulders"), so the subject
    must stand where a subject stands: at the clause start or after a conjunction or a comma."""
    t = s.tokens[k]
    low = t.low
    if t.quoted or not t.text.islower() or t.poss or low in _NOT_VERBS or len(low) < 3:
        return None
    if any(x.i == k for x in s.mentions):
        return None
    base = lemma(low)
    if base is None or not is_finite(low, base):
        return None
    lead = s.tokens[m.i - 1].low if m.i > s.a else ""
    if m.i > s.a and lead not in _SUBJECT_LEAD and not s.tokens[m.i - 1].quoted:
        return None
    nxt = s.tokens[k + 1] if k + 1 < s.b else None
    if nxt is not None and nxt.low in ("of", "'s"):
        return None  # "Voss tallies of ...", a noun phrase, not a verb
    return base


def _unknown_verb(s: _Sentence, m: Mention, k: int) -> str | None:
    """Verb-agnostic subject detection: a named subject opening its clause, then a word the verb lexicon
    does not know but shaped like a finite verb and followed by an object or particle ("Voss jerks his
    chin", "she tugged the rope"), acts for that subject. Returns a guessed lemma.

    Only a lower-case word ending in -s/-es/-ed counts, not a known name and not a function word. A verb
    followed by a bare preposition ("galumphs across") stays unknown: too many nouns read that way
    ("Ilse's prayers for ..."), and the LLM extractor covers it."""
    t = s.tokens[k]
    low = t.low
    if t.quoted or not t.text.islower() or len(low) < 4 or low in _NOT_VERBS or low.endswith(("ss", "us")):
        return None
    if any(x.i == k for x in s.mentions):
        return None
    lead = s.tokens[m.i - 1].low if m.i > s.a else ""
    if m.i > s.a and lead not in _SUBJECT_LEAD:
        return None
    nxt = s.tokens[k + 1].low if k + 1 < s.b else "."
    if nxt not in _OBJECT_LEAD and nxt not in (",", ".", "!", ";", "and"):
        return None
    if low.endswith("ies"):
        return low[:-3] + "y"
    if low.endswith(("ches", "shes", "xes", "zes", "sses", "oes")):
        return low[:-2]
    if low.endswith("s") and not low.endswith("'s"):
        return low[:-1]
    if low.endswith("ed") and len(low) > 4:
        return low[:-2] if low[-3] == low[-4] or low[-3] not in "aeiou" else low[:-1]
    return None
