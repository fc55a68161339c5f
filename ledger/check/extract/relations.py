"""Relationship claims between two named creatures: kin, not kin, and a positive or negative attitude.

Holds the kinship nouns and the attitude patterns, and which recorded edge kinds are kin
(:func:`is_kin_kind`, :func:`edge_kin_role`). Imports :mod:`.lexicon`, :mod:`.names` and :mod:`.sentence`;
strangerness is :mod:`.acquaintance`'s (imported lazily).
"""

from __future__ import annotations

import re

from ledger.check.claims import Modality
from ledger.check.extract.lexicon import _PRONOUN_POSS
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence

_KIN = frozenset(
    [
        "brother",
        "sister",
        "father",
        "mother",
        "son",
        "daughter",
        "cousin",
        "uncle",
        "aunt",
        "twin",
        "kin",
        "kinsman",
        "kinswoman",
        "wife",
        "husband",
        "nephew",
        "niece",
        "grandfather",
        "grandmother",
        "sibling",
    ]
)
# The closed kinship vocabulary: term -> (role, gender), "X is Y's <term>" from X's side. The judge compares
# roles (a nephew is no son) and, when both are gendered, genders (a brother is no sister).
KIN_TERMS: dict[str, tuple[str, str]] = {
    "father": ("parent", "m"),
    "mother": ("parent", "f"),
    "parent": ("parent", ""),
    "son": ("child", "m"),
    "daughter": ("child", "f"),
    "child": ("child", ""),
    "brother": ("sibling", "m"),
    "sister": ("sibling", "f"),
    "sibling": ("sibling", ""),
    "twin": ("sibling", ""),
    "uncle": ("parent_sibling", "m"),
    "aunt": ("parent_sibling", "f"),
    "nephew": ("sibling_child", "m"),
    "niece": ("sibling_child", "f"),
    "cousin": ("cousin", ""),
    "grandfather": ("grandparent", "m"),
    "grandmother": ("grandparent", "f"),
    "grandparent": ("grandparent", ""),
    "grandson": ("grandchild", "m"),
    "granddaughter": ("grandchild", "f"),
    "grandchild": ("grandchild", ""),
    "husband": ("spouse", "m"),
    "wife": ("spouse", "f"),
    "spouse": ("spouse", ""),
    "widow": ("spouse", "f"),
    "widower": ("spouse", "m"),
    "stepfather": ("step_parent", "m"),
    "stepmother": ("step_parent", "f"),
    "stepson": ("step_child", "m"),
    "stepdaughter": ("step_child", "f"),
    # marriage promised, and the homely words for a parent
    "betrothed": ("betrothed", ""),
    "fiance": ("betrothed", "m"),
    "fiancee": ("betrothed", "f"),
    "bride": ("spouse", "f"),
    "bridegroom": ("spouse", "m"),
    "dad": ("parent", "m"),
    "daddy": ("parent", "m"),
    "papa": ("parent", "m"),
    "mum": ("parent", "f"),
    "mam": ("parent", "f"),
    "mama": ("parent", "f"),
    "mummy": ("parent", "f"),
    # by marriage, and step- and half- siblings: a sibling-in-law or a step-sibling is no sibling
    "brother-in-law": ("sibling_in_law", "m"),
    "sister-in-law": ("sibling_in_law", "f"),
    "stepbrother": ("step_sibling", "m"),
    "stepsister": ("step_sibling", "f"),
    "half-brother": ("sibling", "m"),
    "half-sister": ("sibling", "f"),
}
# A parent-in-law, a great-uncle or a great-grandparent is judged as the nearer tie of its side: the judge
# inverts a role it knows ("Bree's son-in-law" read from the other side is Hal's parent), so a term of its own
# would be misread from the far side. "Her father-in-law" for a recorded brother still contradicts; told for a
# recorded father it passes (a miss, never a false alarm). Kept out of KIN_TERMS, which also names relatives
# ("Aed's father-in-law" is not the recorded father) and reads records: only a claim's term is mapped.
NEAR_TERMS: dict[str, str] = {}
for _term, _near in (
    ("father-in-law", "father"),
    ("mother-in-law", "mother"),
    ("son-in-law", "son"),
    ("daughter-in-law", "daughter"),
    ("great-uncle", "uncle"),
    ("great-aunt", "aunt"),
    ("granduncle", "uncle"),
    ("grandaunt", "aunt"),
    ("great-nephew", "nephew"),
    ("great-niece", "niece"),
    ("grandnephew", "nephew"),
    ("grandniece", "niece"),
    ("great-grandfather", "grandfather"),
    ("great-grandmother", "grandmother"),
    ("great-grandson", "grandson"),
    ("great-granddaughter", "granddaughter"),
    ("grandpa", "grandfather"),
    ("grandma", "grandmother"),
    ("granny", "grandmother"),
    ("gran", "grandmother"),
    ("grandsire", "grandfather"),
    ("grandam", "grandmother"),
):
    NEAR_TERMS[_term] = _near
for _term in [t for t in KIN_TERMS if t.startswith("step") and "-" not in t]:
    KIN_TERMS["step-" + _term[4:]] = KIN_TERMS[_term]  # "step-mother"
# words before a kin term that make it a likeness, not a kinship: "like a sister to her", "as his own son",
# "more a daughter to him than ..."
LIKENESS = frozenset({"like", "as", "than", "almost", "nearly", "practically", "virtually"})


def _fellowship(s: _Sentence, k: int) -> bool:
    """True when the kin term at ``k`` is followed by "in" and what is shared, not a known place: "brother
    in the Order", "sister in arms", "brother in all but blood" (a brother-in-law stays kin; "her brother in
    Rye Gap" names where he lives)."""
    toks = s.tokens
    q = k + 1
    if q + 1 >= s.b or toks[q].low != "in" or toks[q + 1].low in ("law", "laws"):
        return False
    return not any(x.i in (q + 1, q + 2) and s.kind(x) == "location" for x in s.mentions)


def kin_role(term: str) -> tuple[str, str] | None:
    """(role, gender) of a kinship term, singular or plural ("sisters"); None for "kin" or a non-kin word."""
    low = term.lower()
    return KIN_TERMS.get(low) or (KIN_TERMS.get(low[:-1]) if low.endswith("s") else None)


# words in an edge kind that make a kin word a bond of another sort: "sworn-brother", "oath-sister"
_FICTIVE = frozenset({"sworn", "oath", "blood", "battle", "shield", "spiritual", "milk", "god"})
# words before a kin word in an edge kind that keep its tie: "estranged-wife", "elder-sister"
_KIND_QUALIFIERS = frozenset(
    {
        "estranged",
        "late",
        "dead",
        "elder",
        "eldest",
        "older",
        "oldest",
        "younger",
        "youngest",
        "twin",
        "adoptive",
    }
    | {"adopted", "foster", "only", "beloved", "former", "ex"}
)


def edge_kin_role(kind: str) -> tuple[str, str] | None:
    """(role, gender) of a recorded edge kind that is itself a kinship term from the source's side
    ("daughter", "aunt", "estranged-wife", "half-sister"); None for "kin" (no term), for a bond named with a
    kin word ("sworn-brother") or for any other kind."""
    low = kind.lower().replace("_", "-").strip()
    role = kin_role(low)  # a far term ("mother-in-law") is no nearer tie in a record (see NEAR_TERMS)
    if role is not None:
        return role
    parts = low.split("-")
    if len(parts) != 2 or parts[0] not in _KIND_QUALIFIERS:
        return None
    return kin_role(parts[1])  # "estranged-wife", "late-husband", "elder-sister"


def is_kin_kind(kind: str) -> bool:
    """True when a recorded edge kind says kin: "kin", "family", or a kinship term ("daughter", "aunt")."""
    parts = kind.lower().replace("_", "-").replace(" ", "-").split("-")
    if _FICTIVE & set(parts):
        return False
    if any(w.startswith(("kin", "family", "relative")) for w in parts) or "law" in parts:
        return True  # "kin", "kinswoman", "family", "mother-in-law"
    return edge_kin_role(kind) is not None or any(w in NEAR_TERMS for w in ("-".join(parts), parts[-1]))


def kin_worded(kind: str) -> bool:
    """True when a recorded edge kind is kin or is named with a kin word ("sworn-brother", "oath-sister"):
    a text calling the two "brothers" then agrees with it, though the bond is not of blood."""
    parts = kind.lower().replace("_", "-").replace(" ", "-").split("-")
    return is_kin_kind(kind) or any(kin_role(w) for w in parts)


def said_term(word: str) -> str:
    """The term a kinship claim carries for ``word``: itself, or the nearer term a far one is judged as
    ("father-in-law" -> "father", see :data:`NEAR_TERMS`)."""
    return NEAR_TERMS.get(word, word)


# dislike by idiom: "has never cared for the Regent", "can't abide him", "distrusts Voss"
_DISLIKE = (
    r"dislikes|distrusts|mistrusts|resents|(?:has |had )?never (?:cared for|liked|trusted)|"
    r"(?:can[’']?t|cannot) (?:stand|abide|bear)|(?:no|little) love for"
)
_POSITIVE = re.compile(
    r"\b(?:old friend|dear friend|friend|friends|ally|allies|warmly|fondly|embraces?|embracing|hugs?|beloved|"
    r"trusted|brother-in-arms|affection|affectionately|comrade|fondness|fond of|tenderness|gratitude|"
    r"grateful|adores?|dotes? on|devoted to|trusts|(?:thinks?|thought) the world of|soft spot for|"
    r"looks? up to)\b"
)
# kinship denied: "Sela is no relation to Voss", "Edric is no kin of the queen's", "not Wei's brother"
_NOT_KIN = re.compile(
    r"\b(?:no relation (?:to|of)|no kin (?:to|of)|not related to|unrelated to|no blood (?:to|of)|"
    r"not (?:his|her|their) (?:brother|sister|son|daughter|mother|father|kin|cousin|twin|sibling)|"
    r"no (?:brother|sister|son|daughter|mother|father|kin|cousin) (?:to|of)|(?:are|were) (?:not|no) "
    r"(?:kin|related|family|siblings|brothers|sisters))\b"
)
_NEGATIVE = re.compile(
    r"\b(?:enemy|enemies|sworn foe|foe|hatred|hates|loathes|despises|feud|nemesis|rival|spits at|"
    r"murderous glare|bitter enemy|" + _DISLIKE + r")\b"
)


def _relations(s: _Sentence) -> None:
    """Kinship ("Wei's brother") and attitude ("greets his old friend") between two named creatures;
    strangerness ("Bram is hardly more than a name to her") by :mod:`.acquaintance`."""
    from ledger.check.extract.acquaintance import _acquaintance  # it reads this module's kin kinds

    _acquaintance(s)
    creatures = [c for c in s.creatures() if c.id]
    if len({c.id for c in creatures}) < 2:
        return
    toks = s.tokens
    for found in _NOT_KIN.finditer(s.raw.lower()):
        at = s.span[0] + found.start()
        k = next((i for i in range(s.a, s.b) if toks[i].start >= at), s.b - 1)
        end = s.span[0] + found.end()
        before = [x for x in creatures if x.j <= k and not x.poss]
        after = [x for x in creatures if toks[x.i].start >= end]
        if len({x.id for x in before}) >= 2 and toks[before[-1].i - 1].low == "and" and before[-1].j >= k - 1:
            # "He and Hadda are not kin": both parties right before the denial
            after, before = [before[-1]], before[:-1]
        if toks[k].quoted or not before or not after or before[-1].id == after[0].id:
            continue
        a, b = before[-1], after[0]
        mod = s.modality(a)
        # the denial is the claim itself, not a negation of it
        mod = Modality(mod.in_dialogue, mod.hypothetical, mod.memory, mod.rumour, False)
        s.claim("relation", (a.id, b.id, "notkin"), a, mod, found.group(0))  # type: ignore[arg-type]
        return

    def apposed(k: int) -> Mention | None:
        """The named creature standing in apposition to the kin noun at ``k``: "Wei's brother(,) Voss",
        "Voss, Wei's brother"."""
        nxt = k + 1 + (1 if k + 1 < s.b and toks[k + 1].text == "," else 0)
        after = next((x for x in creatures if x.i == nxt), None)
        if after is not None:
            return after
        return None

    for c in creatures:
        if c.poss and c.j < s.b and toks[c.j].low in _KIN and not _fellowship(s, c.j):
            other = apposed(c.j)
            denied = c.i > s.a and toks[c.i - 1].low in ("not", "no", "never")
            if other is None:
                # "Voss, Wei's brother": the name right before the possessive, set off by a comma
                other = next((x for x in creatures if x.j == c.i - 1 and toks[c.i - 1].text == ","), None)
            if other is None and denied:
                # "Sela is not Voss's sister": the subject before the denial
                other = next((x for x in reversed(creatures) if x.j < c.i - 1 and not x.poss), None)
            if other is not None and other.id and c.id and other.id != c.id:
                mod = s.modality(c)
                if denied:
                    mod = Modality(mod.in_dialogue, mod.hypothetical, mod.memory, mod.rumour, False)
                s.claim("relation", (c.id, other.id, "notkin" if denied else "kin"), c, mod, toks[c.j].low)
                return
    for k in range(s.a, s.b):
        t = toks[k]
        if (
            not t.quoted
            and t.low in _KIN
            and k > s.a
            and toks[k - 1].low in _PRONOUN_POSS
            and not _fellowship(s, k)
        ):
            before = [x for x in creatures if x.j <= k]
            other = apposed(k)
            if before and other is not None and before[-1].id and other.id and other.id != before[-1].id:
                s.claim(
                    "relation", (before[-1].id, other.id, "kin"), before[-1], s.modality(before[-1]), t.low
                )
                return
    for kind, pattern in (("positive", _POSITIVE), ("negative", _NEGATIVE)):
        for found in pattern.finditer(s.raw.lower()):
            at = s.span[0] + found.start()
            k = next((i for i in range(s.a, s.b) if toks[i].start >= at), s.b - 1)
            if toks[k].quoted:
                continue
            before = [x for x in creatures if x.j <= k]
            if not before:
                break
            a = before[-1]
            rest = [x for x in creatures if x.id != a.id]
            after = [x for x in rest if x.i > k]
            other = after[0] if after else (min(rest, key=lambda x: abs(x.i - k)) if rest else None)
            if other is None or a.id is None or other.id is None:
                break
            if not _aimed(s, found, other):
                continue  # "hates the way Idra limps", "her feud with the miller worries Idra"
            from ledger.check.extract.valence import ended, feigned  # valence reads this module's neighbours

            if (kind == "positive" and feigned(s)) or ended(s):
                return  # "greets him warmly, but her eyes stay cold"; "was once his friend": not now
            mod = s.modality(a)
            if re.search(r"\b(?:never|no|little|cannot)\b|n[’']t\b", found.group(0)):
                # "has never cared for", "can't abide": the negation is the idiom's own, not a denial of it
                mod = Modality(mod.in_dialogue, mod.hypothetical, mod.memory, mod.rumour, False)
            s.claim("relation", (a.id, other.id, kind), a, mod, found.group(0))
            return


# attitude words that take their person as a direct object ("hates Voss", "dotes on Lark") or after "with"
# ("a feud with Voss"): anyone named further on is not the one they are aimed at
_VERB_LIKE = re.compile(
    r"(?:hates|loathes|despises|adores?|dotes? on|devoted to|fond of|trusts|(?:thinks?|thought) the world of|"
    r"soft spot for|looks? up to|spits at|" + _DISLIKE + r")$"
)
# after the person, words that narrow a verb of feeling to one matter ("never trusted her with the keys",
# "can't stand him when he sulks"): not an attitude toward the person as such
_NARROWED = frozenset({"with", "to", "when", "whenever", "if", "around", "near", "about", "on", "in"})
_WITH_LIKE = frozenset({"feud"})


def _aimed(s: _Sentence, found: re.Match[str], other: Mention) -> bool:
    """True when an attitude word's person is ``other``: for a verb, the mention right after it (past an
    article of a title: "trusts the Warden"); for a feud, the one after "with"; a noun ("friend", "enemy")
    reaches any."""
    word = found.group(0)
    at = s.span[0] + found.end()
    nxt = next((i for i in range(s.a, s.b) if s.tokens[i].start >= at), s.b)
    if _VERB_LIKE.fullmatch(word):
        if nxt < s.b and s.tokens[nxt].low in ("him", "her", "them"):
            end = nxt + 1  # "Lorcan, the man who loathes her": the pronoun's creature, by nearness
        elif not other.poss and (other.i == nxt or (other.i == nxt + 1 and s.tokens[nxt].low == "the")):
            end = other.j
        else:
            return False
        return end >= s.b or s.tokens[end].low not in _NARROWED
    if word in _WITH_LIKE:
        return nxt < s.b and s.tokens[nxt].low == "with" and other.i in (nxt + 1, nxt + 2)
    return True


def _relation_by_pronoun(s: _Sentence) -> None:
    """ "the guide is his bitter enemy" after a sentence about Venn: the pronoun is the earlier subject."""
    creatures = [c for c in s.creatures() if c.id]
    antecedent = s.ex.antecedent.get(s.a)
    ids = {c.id for c in creatures}
    if len(ids) != 1 or antecedent is None or antecedent in ids:
        return
    toks = s.tokens
    c = creatures[0]
    for k in range(s.a + 1, s.b):
        t = toks[k]
        after_pronoun = toks[k - 1].low in _PRONOUN_POSS or (k >= 2 and toks[k - 2].low in _PRONOUN_POSS)
        # "he is the queen's sworn enemy": a subject pronoun, then the other party's possessive
        after_named = (
            c.poss
            and c.j in (k, k - 1)
            and any(toks[q].low in ("he", "she") for q in range(max(s.a, c.i - 4), c.i))
        )
        if t.quoted or not (after_pronoun or after_named):
            continue
        words = " ".join(x.low for x in toks[k : min(s.b, k + 2)])
        kind = (
            "kin"
            if t.low in _KIN
            else "positive"
            if _POSITIVE.match(words)
            else ("negative" if _NEGATIVE.match(words) else None)
        )
        if kind is None:
            continue
        s.claim("relation", (c.id, antecedent, kind), c, s.modality(c), t.low)  # type: ignore[arg-type]
        return


_COPULA = frozenset({"is", "was", "are", "were"})
# words that never stand between an owner and a kin term as its modifiers: "carried her as a child" names
# no child of hers, "took him for a son" no son
_NOT_MODIFIERS = frozenset(
    {"as", "a", "an", "the", "of", "to", "for", "with", "by", "in", "on", "at", "from", "into", "and", "or"}
    | {"but", "like", "than", "when", "while", "if", "is", "was", "were", "are", "be", "been", "who", "that"}
    | {"this", "these", "those", "his", "her", "its", "their", "my", "your", "our", "since", "once", "ever"}
)


def modifier(word: str) -> bool:
    """True when ``word`` may modify a kin term after its owner ("her late sister", "his only son")."""
    return word.isalpha() and word.islower() and word not in _NOT_MODIFIERS


_KIN_ADJ_MAX = 2  # "Farida's younger brother", "the Regent's only living son"


def _kin_tied(s: _Sentence, a: str, b: str) -> bool:
    """True when the snapshot records a kin tie between ``a`` and ``b`` (kind or reason says kin)."""
    for e in s.snap.edges_by_pair.get(frozenset((a, b)), ()):
        if is_kin_kind(e.kind) or any(kin_role(w) for w in e.reason.lower().split()):
            return True
    return False


def _kinship(s: _Sentence) -> None:
    """kinship(person, relative_of, term) from a kinship term tied to two creatures: "Magda's daughter Lark",
    "Lazlo, the ringmistress's nephew", "Idris Qadir is Farida's uncle", "Lady Seraphel, mother to the heir",
    or "The bosun's nephew is only eleven" right after a sentence about a creature the record ties to the
    bosun as kin. The term is judged against the recorded tie (:mod:`ledger.check.judge_meaning`)."""
    toks = s.tokens
    creatures = [c for c in s.creatures() if c.id]
    if not creatures:
        return
    made: set[tuple[str, str]] = set()
    if len(creatures) >= 2:
        _kin_pair(s, creatures, made)
        _married(s, creatures, made)
    _birth(s, creatures, made)
    for k in range(s.a, s.b):
        t = toks[k]
        if t.quoted or kin_role(said_term(t.low)) is None or any(m.i <= k < m.j for m in s.mentions):
            continue  # "Brother Tobiah", "Mother Abbess": a title inside a name is no kinship
        if t.text[:1].isupper() and k + 1 < s.b and toks[k + 1].text[:1].isupper() and k > s.a:
            continue  # a title before a name the index does not know ("Sister Agnes")
        if _plural_kin(s, k, creatures, made):
            continue
        possessor: Mention | None = None
        start = k
        # "<A>'s [adj] term": a possessive mention right before the term, at most two adjectives between
        for m in creatures:
            if m.poss and k - _KIN_ADJ_MAX <= m.j <= k and all(x.text.islower() for x in toks[m.j : k]):
                possessor, start = m, m.i
        after = [m for m in creatures if not m.poss and m.i in (k + 1, k + 2)]
        if possessor is None and k + 2 < s.b and toks[k + 1].low in ("to", "of"):
            # "mother to the heir"
            possessor = next((m for m in creatures if m.i in (k + 2, k + 3) and not m.poss), None)
            after = []
        if possessor is None:
            possessor, start = _pronoun_possessor(s, k, creatures, after)
        if possessor is None or possessor.id is None:
            continue
        if start > s.a and toks[start - 1].low == "the":
            start -= 1
        lead = toks[start - 1].low if start > s.a else ""
        if LIKENESS & {toks[x].low for x in range(max(s.a, start - 2), start)}:
            continue  # "like Wei's own sister": a likeness
        if _fellowship(s, k):
            continue  # "Anselm's brother in the Order", "her sister in arms": a fellowship, not blood
        if lead == "," and start - 2 >= s.a and kin_role(said_term(toks[start - 2].low)) is not None:
            continue  # "his wife, Tove's mother": the phrase renames the kin phrase before it
        if lead in ("not", "no", "never") or (start > s.a + 1 and toks[start - 2].low in ("not", "no")):
            continue  # a denial is the notkin claim's job
        relative: str | None = None
        if after and toks[k + 1].low != "and":
            relative = after[0].id  # "Magda's daughter Lark"
        elif lead in (",",) or lead in _COPULA:
            # "Lazlo, the ringmistress's nephew" / "Idris Qadir is Farida's uncle"
            q = start - 1
            before = next((m for m in creatures if m.j == q and not m.poss), None)
            relative = before.id if before else None
        if relative is None and (start == s.a or lead in (";", ":", "—", ",")):
            # "The bosun's nephew is only eleven": the creature just spoken of, if the record ties them as kin
            prior = [m.id for m in creatures if m.j <= start and not m.poss and m.id != possessor.id]
            candidate = prior[-1] if prior else s.ex.antecedent.get(s.a)
            if candidate and _kin_tied(s, candidate, possessor.id):
                relative = candidate
        if relative is None or relative == possessor.id or (relative, possessor.id) in made:
            continue
        made.add((relative, possessor.id))
        mod = s.modality(possessor)
        # a kin phrase presupposes its tie under a question or a supposing ("asks after Wei's uncle Voss",
        # "if Magda's daughter Lark comes"); only a copula's tie can be what is asked ("is Voss her uncle?")
        hypo = mod.hypothetical and lead in _COPULA
        mod = Modality(mod.in_dialogue, hypo, mod.memory, mod.rumour, False)
        s.claim("kinship", (relative, possessor.id, said_term(t.low)), possessor, mod, t.low)


def _pronoun_possessor(
    s: _Sentence, k: int, creatures: list[Mention], after: list[Mention]
) -> tuple[Mention | None, int]:
    """ "her brother Cassian": the creature a possessive pronoun before the kin term at ``k`` stands for,
    when one creature named before it fits the pronoun and the record ties it to the named relative as kin
    (a pronoun is too weak a link to judge a kinship on otherwise). Returns (possessor, phrase start)."""
    toks = s.tokens
    q = k - 1
    while q > s.a and modifier(toks[q].text) and k - q <= _KIN_ADJ_MAX:
        q -= 1
    if q < s.a or toks[q].low not in ("his", "her") or not after:
        return None, k
    relative = after[0].id
    want = "he" if toks[q].low == "his" else "she"
    named = [m for m in s.ex.mentions if m.id and m.i < q and not m.quoted and m.id != relative]
    fits = {
        m.id
        for m in named[-6:]
        if (e := s.snap.entities.get(m.id or "")) is not None
        and e.pronoun == want
        and e.kind in ("pc", "npc")
    }
    owner = next(iter(fits)) if len(fits) == 1 else None
    if owner is None or relative is None:
        return None, k
    if not _kin_tied(s, owner, relative):
        return None, k
    return Mention((owner,), q, q + 1, True, toks[q].quoted, "public"), q


def _plural_kin(s: _Sentence, k: int, creatures: list[Mention], made: set[tuple[str, str]]) -> bool:
    """ "Edda and the captain are sisters": two creatures joined by "and" right before a copula and a plural
    kinship term make a kinship claim each way. Returns True when the term at ``k`` was read so."""
    toks = s.tokens
    low = toks[k].low
    if not low.endswith("s") or k - 1 <= s.a or toks[k - 1].low not in _COPULA | {"both"}:
        return False
    q = k - 1 if toks[k - 1].low in _COPULA else k - 2
    second = next((m for m in creatures if m.j == q and not m.poss), None)
    first = next((m for m in creatures if second and m.j == second.i - 1 and toks[m.j].low == "and"), None)
    if first is None or second is None or first.id is None or second.id is None or first.id == second.id:
        return False
    term = low[:-1]
    mod = s.modality(first)
    for a, b in ((first.id, second.id), (second.id, first.id)):
        if (a, b) not in made:
            made.add((a, b))
            s.claim("kinship", (a, b, term), first, mod, term)
    return True


def _joined(s: _Sentence, creatures: list[Mention]) -> tuple[Mention, Mention] | None:
    """The first two creatures joined by "and" ("Per and Tove"), neither an owner."""
    toks = s.tokens
    for m in creatures:
        if m.poss or m.quoted or m.j >= s.b or toks[m.j].low != "and":
            continue
        other = next((x for x in creatures if x.i == m.j + 1 and not x.poss and x.id != m.id), None)
        if other is not None:
            return m, other
    return None


def _kin_pair(s: _Sentence, creatures: list[Mention], made: set[tuple[str, str]]) -> None:
    """ "Per and Tove, father and daughter, ..." or "Hild and Osk are husband and wife": a pair of kin terms
    after a pair of creatures gives each its term toward the other, in order."""
    pair = _joined(s, creatures)
    if pair is None:
        return
    first, second = pair
    toks = s.tokens
    k = second.j
    if k < s.b and (toks[k].text == "," or toks[k].low in _COPULA):
        k += 1
    if k + 2 >= s.b or toks[k + 1].low != "and":
        return
    a, b = kin_role(said_term(toks[k].low)), kin_role(said_term(toks[k + 2].low))
    if a is None or b is None or toks[k].quoted or toks[k + 2].text[:1].isupper():
        return
    if LIKENESS & {toks[q].low for q in range(max(s.a, k - 2), k)}:
        return  # "Hild and Osk, like brother and sister"
    mod = s.modality(first)
    mod = Modality(mod.in_dialogue, mod.hypothetical, mod.memory, mod.rumour, False)
    terms = [toks[k].low, toks[k + 2].low]
    # "Hild and Osk, brother and sister": custom fixes the terms' order, not the names'; a gendered pair goes
    # by each one's pronoun
    want = {"m": "he", "f": "she"}
    ea, eb = s.snap.entities.get(first.id or ""), s.snap.entities.get(second.id or "")
    if a[1] and b[1] and a[1] != b[1] and ea and eb and ea.pronoun != eb.pronoun:
        if ea.pronoun == want[b[1]] and eb.pronoun == want[a[1]]:
            terms.reverse()
        elif not (ea.pronoun == want[a[1]] and eb.pronoun == want[b[1]]):
            return
    for rel, of, term in ((first, second, terms[0]), (second, first, terms[1])):
        if rel.id and of.id and (rel.id, of.id) not in made:
            made.add((rel.id, of.id))
            s.claim("kinship", (rel.id, of.id, said_term(term)), rel, mod, term)


_MARRY = frozenset({"marry", "wed"})
_NOT_DONE = frozenset({"to", "will", "would", "shall", "could", "might", "may", "must", "should", "never"})
_NOT_DONE |= frozenset({"not", "if", "unless", "wants", "want", "hopes", "plans", "meant", "means", "cannot"})


def _married(s: _Sentence, creatures: list[Mention], made: set[tuple[str, str]]) -> None:
    """ "Hild married Osk", "Hild is married to Osk", "Osk and Hild were wed": a marriage told between two
    creatures is a spouse tie, judged against the recorded kin term. Not when planned, wished, asked for or
    denied ("asks her to marry him", "will wed", "never married")."""
    from ledger.check.extract.predicates import verb_lemma

    toks = s.tokens
    for k in range(s.a + 1, s.b):
        t = toks[k]
        if t.quoted or not t.text.islower() or verb_lemma(t.low) not in _MARRY:
            continue
        if t.low in ("marry", "wed") and toks[k - 1].low not in ("were", "was", "are", "is", "been", "got"):
            continue  # "to marry", "will wed": not done; "were wed" is
        back = {toks[q].low for q in range(max(s.a, k - 3), k)}
        if back & _NOT_DONE or any(w.endswith("n't") for w in back):
            return
        pair = _joined(s, creatures)
        before = next((m for m in creatures if m.j in (k, k - 1, k - 2) and not m.poss), None)
        nxt = k + 2 if k + 1 < s.b and toks[k + 1].low == "to" else k + 1
        after = next((m for m in creatures if m.i == nxt and not m.poss), None)
        if pair is not None and pair[1].j in (k - 1, k - 2) and after is None:
            x, y = pair  # "Osk and Hild were wed"
        elif before is not None and after is not None:
            x, y = before, after  # "Hild married Osk", "Hild is married to Osk"
        else:
            return
        if not x.id or not y.id or x.id == y.id or (x.id, y.id) in made:
            return
        made.add((x.id, y.id))
        mod = s.modality(x)
        mod = Modality(mod.in_dialogue, mod.hypothetical, False, mod.rumour, False)
        s.claim("kinship", (x.id, y.id, "spouse"), x, mod, t.low)
        return


# verbs of begetting: "X bore Y", "X, who bore her", "X fathered Y", "X gave birth to Y" make Y X's child
_BEGOT = frozenset({"bore", "birthed", "sired", "fathered", "mothered", "begat", "begot"})
# "bore him to the cart", "bore her up the stairs", "bore him in her arms": carrying, not birth
_CARRIED = frozenset(
    {"to", "up", "down", "into", "away", "off", "across", "through", "from", "out", "along", "back", "toward"}
    | {"towards", "aloft", "on", "upon", "over", "in", "home", "inside", "onto", "clear", "safely", "high"}
)
_OBJECT_PRONOUNS = {"him": "he", "her": "she"}


def _birth(s: _Sentence, creatures: list[Mention], made: set[tuple[str, str]]) -> None:
    """kinship(child, parent, "child") from a verb of begetting between two creatures: "Hild bore Osk",
    "Hild, who bore him, ...", "Osk fathered Wenna", "Hild gave birth to Osk". The object may be a pronoun
    when the record ties the two as kin (a pronoun is a weak link). Not a carrying ("bore him to the cart"),
    nor planned or denied ("never bore him", "would bear him")."""
    toks = s.tokens
    for k in range(s.a + 1, s.b):
        t = toks[k]
        if t.quoted:
            continue
        obj_at = k + 1
        if t.low == "gave" and k + 3 < s.b and toks[k + 1].low == "birth" and toks[k + 2].low == "to":
            obj_at = k + 3
        elif t.low not in _BEGOT:
            continue
        back = {toks[q].low for q in range(max(s.a, k - 3), k)}
        if back & _NOT_DONE or any(w.endswith("n't") for w in back):
            return
        # the subject: a creature right before the verb, or before ", who"
        lead = k - 1
        if toks[lead].low == "who" and lead - 1 >= s.a and toks[lead - 1].text == ",":
            lead -= 1
        parent = next((m for m in creatures if m.j == lead + (0 if toks[lead].text == "," else 1)), None)
        if parent is None or parent.poss or not parent.id or obj_at >= s.b:
            return
        child: str | None = None
        nxt = obj_at + 1
        named = next((m for m in creatures if m.i == obj_at and not m.poss), None)
        if named is not None:
            child, nxt = named.id, named.j
        elif (want := _OBJECT_PRONOUNS.get(toks[obj_at].low)) is not None:
            near = [m.id for m in creatures if m.id != parent.id]
            ante = s.ex.antecedent.get(s.a)
            if ante and ante != parent.id:
                near.append(ante)
            fits = {
                c
                for c in near
                if c
                and (e := s.snap.entities.get(c)) is not None
                and e.pronoun in (want, "they")
                and _kin_tied(s, c, parent.id)
            }
            child = fits.pop() if len(fits) == 1 else None
        if child is None or child == parent.id or (child, parent.id) in made:
            return
        if nxt < s.b and toks[nxt].low in _CARRIED:
            return
        made.add((child, parent.id))
        mod = s.modality(parent)
        mod = Modality(mod.in_dialogue, mod.hypothetical, False, mod.rumour, False)
        s.claim("kinship", (child, parent.id, "child"), parent, mod, t.low)
        return
