"""Kin phrases that name a relative: "the Thane's brother", "Osei leans on the rail while his father works".

A possessive name (or a possessive pronoun with a creature named earlier in the sentence) before a kinship
term names the one relative the records tie to that person by that term. :func:`_kin_index` reads those ties
once per snapshot from the public kin records' own sentences; :func:`_kin_phrases` turns each such phrase into
the relative's mention. Called by :func:`.names.find_mentions`; imports :mod:`.names` (for ``Mention``) and,
lazily, :mod:`.relations` (which reads mentions from :mod:`.names`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from ledger.check.extract.linker import AGES, GENDER_NOUNS, age_degree
from ledger.check.extract.names import Mention
from ledger.check.extract.text import Token
from ledger.check.snapshot import Entity, WorldSnapshot

_KIN_ADJ_MAX = 2  # "the Thane's younger brother", "Voss's only living son"
_INVERSE_ROLE = {
    "sibling": "sibling",
    "spouse": "spouse",
    "cousin": "cousin",
    "parent": "child",
    "child": "parent",
    "grandparent": "grandchild",
    "grandchild": "grandparent",
    "parent_sibling": "sibling_child",
    "sibling_child": "parent_sibling",
    "step_parent": "step_child",
    "step_child": "step_parent",
    "step_sibling": "step_sibling",
    "sibling_in_law": "sibling_in_law",
    "betrothed": "betrothed",
}
_COPULAS = frozenset({"is", "was", "are", "were", "be", "been", "being", "as"})
_DENIALS = frozenset({"not", "never", "no"})


def _kin_index(snap: WorldSnapshot) -> Mapping[tuple[str, str], tuple[str, ...]]:
    """(possessor, kin role) -> the relatives a public kin record names: "Dunstan is Thane Osric's younger
    brother" files Dunstan under (Osric, sibling). Built once per snapshot from the records' own sentences:
    the one named first (the record's source, or its target when the sentence opens with the target's name)
    is the relative, the possessive before the term is the other; failing that, from an edge kind that is a
    kin term itself (``"daughter"``: the source is the target's daughter)."""
    found = snap.cache.get("kin_relatives")
    if found is not None:
        return cast("Mapping[tuple[str, str], tuple[str, ...]]", found)
    out: dict[tuple[str, str], list[str]] = {}
    for ed in snap.edges:
        if ed.visibility != "public":
            continue
        source, target = snap.entities.get(ed.source), snap.entities.get(ed.target)
        if source is None or target is None:
            continue
        tie = _reason_tie(ed.reason, source, target) or _kind_tie(ed.kind, source, target)
        if tie is None:
            continue
        relative, possessor, (role, gender) = tie
        if not _gender_fits(relative, gender):
            continue
        out.setdefault((possessor.id, role), []).append(relative.id)
        # the tie seen from the other end: Dunstan's brother is the Thane, a son's father is the man
        # whose son he is (the gender of the other term is checked against the text's word when linked)
        back = _INVERSE_ROLE.get(role)
        if back is not None:
            out.setdefault((relative.id, back), []).append(possessor.id)
    index = {k: tuple(dict.fromkeys(v)) for k, v in out.items()}
    snap.cache["kin_relatives"] = index
    return index


def _reason_tie(reason: str, source: Entity, target: Entity) -> tuple[Entity, Entity, tuple[str, str]] | None:
    """(relative, possessor, (role, gender)) from a kin record's sentence: "Dunstan is Thane Osric's younger
    brother" (the one named first is the relative); None when the sentence names no single tie so."""
    from ledger.check.extract.relations import kin_role  # relations reads mentions from this module

    words = "".join(c if c.isalnum() or c in "'-" else " " for c in reason.replace("’", "'")).split()
    terms = [
        kin
        for q, w in enumerate(words)
        if (kin := kin_role(w)) is not None
        and not w.lower().endswith("s")
        and _whose(words[max(0, q - 1 - _KIN_ADJ_MAX) : q])
    ]
    if len(terms) != 1 or not words:
        return None
    first = words[0].lower()
    if _called(source, first):
        return source, target, terms[0]
    if _called(target, first):
        return target, source, terms[0]
    return None


def _kind_tie(kind: str, source: Entity, target: Entity) -> tuple[Entity, Entity, tuple[str, str]] | None:
    """(relative, possessor, (role, gender)) from an edge whose kind is itself a kin term from the source's
    side (the scenario format's ``edge_kind = "daughter"``: the source is the target's daughter)."""
    from ledger.check.extract.relations import edge_kin_role

    role = edge_kin_role(kind)
    return (source, target, role) if role is not None else None


def _whose(before: list[str]) -> bool:
    """True when the words before a kin term hold the possessive of a person, not of another kin term:
    "Lorraine's uncle" ties Lorraine, but in "her late mother's brother" the brother is the mother's (the
    chain restates the uncle; it is no second tie of the record's pair)."""
    from ledger.check.extract.relations import kin_role

    owners = [v for v in before if v.endswith("'s")]
    return bool(owners) and kin_role(owners[-1][:-2]) is None


def _called(e: Entity, word: str) -> bool:
    """True when ``word`` is a word of ``e``'s recorded name or of one of its public aliases."""
    names = [e.name, *(a.name for a in e.aliases if a.visibility == "public")]
    return any(word in name.lower().split() for name in names)


def _kin_phrases(mentions: list[Mention], tokens: list[Token], snap: WorldSnapshot) -> list[Mention]:
    """ "the Thane's brother", "Voss's only daughter": a possessive name, up to two modifiers and a kinship
    term name the one relative the record ties to that person by that term, when it is one; the phrase
    becomes that relative's mention (the possessor is named only to say whose). Not after a copula ("he is
    the Thane's brother" is a kinship claim for :mod:`.relations`) nor before a name in apposition."""
    from ledger.check.extract.relations import KIN_TERMS, modifier

    mentions = [m for m in mentions if not _kin_word_as_thing(m, tokens, snap, KIN_TERMS)]
    index = _kin_index(snap)
    if not index:
        return mentions
    n = len(tokens)
    starts = {m.i for m in mentions}
    out: list[Mention] = []
    for m in mentions:
        e = snap.entities.get(m.id or "")
        if not m.poss or m.quoted or e is None or e.kind not in ("pc", "npc"):
            out.append(m)
            continue
        term: int | None = None
        for q in range(m.j, min(n, m.j + _KIN_ADJ_MAX + 1)):
            if q in starts or tokens[q].quoted or not tokens[q].text.islower():
                break
            if tokens[q].low in KIN_TERMS:
                term = q
                break
            if not modifier(tokens[q].text):
                break
        role = KIN_TERMS.get(tokens[term].low) if term is not None else None
        relatives = index.get((e.id, role[0]), ()) if role is not None else ()
        after = tokens[term + 1] if term is not None and term + 1 < n else None
        before = tokens[m.i - 1].low if m.i > 0 else ""
        if (
            term is None
            or role is None
            or len(relatives) != 1
            or before in _COPULAS | _DENIALS  # "is (not) Hobb's child": said of someone, not naming them
            or _renames(m, term, mentions, tokens, relatives)
            or before.endswith("n't")
            or (after is not None and after.text[:1].isupper() and not after.quoted)
            or (
                after is not None
                and after.text == ","
                and term + 2 < n
                and tokens[term + 2].text[:1].isupper()
            )
        ):
            out.append(m)
            continue
        rel = snap.entities[relatives[0]]
        if not _gender_fits(rel, role[1]):
            out.append(m)
            continue
        out.append(Mention((rel.id,), m.i, term + 1, tokens[term].poss, False, "public", True))
    out = _kin_of_phrases(out, tokens, snap, index, KIN_TERMS)
    return _kin_by_pronoun_phrases(out, tokens, snap, index, KIN_TERMS)


_OWNERS = frozenset({"his", "her", "their", "my", "your", "our"})
_LIST_GLUE = frozenset({"and", "or", "nor"})
_CLOSERS = frozenset({",", ";", ".", "!", "?", "—", ")", ":"})


def _renames(
    m: Mention, term: int, mentions: list[Mention], tokens: list[Token], relatives: tuple[str, ...]
) -> bool:
    """True when the kin phrase from ``m`` to ``term`` stands in apposition after a name other than the
    recorded relative ("Maud, Kettil's mother, ..." when Orla is): it says who that one is (a kinship claim
    for :mod:`.relations`), so it names no one else. Not in a list ("Maud, Kettil's mother, and Asa"), nor
    when it renames the recorded relative (then the phrase is that one's mention, as anywhere)."""
    if m.i < 2 or tokens[m.i - 1].text != "," or tokens[m.i - 1].quoted:
        return False
    if not any(
        x.j == m.i - 1 and not x.poss and not x.quoted and x.id not in (*relatives, m.id) for x in mentions
    ):
        return False
    nxt = [t.low for t in tokens[term + 1 : term + 3]]
    if not nxt or nxt[0] not in _CLOSERS:
        return False  # "Dace, your brother waves": a name called, then the phrase as a subject
    return not (nxt[:1] and nxt[0] in _LIST_GLUE) and not (
        nxt[:1] == [","] and nxt[1:2] and nxt[1] in _LIST_GLUE
    )


def _kin_word_as_thing(
    m: Mention, tokens: list[Token], snap: WorldSnapshot, kin_terms: Mapping[str, tuple[str, str]]
) -> bool:
    """True when ``m`` names a thing by a lower-case kin word after a possessive pronoun: "her mother" is a
    person, not the sourdough starter a record calls "the Mother"."""
    e = snap.entities.get(m.id or "")
    if e is None or e.kind in ("pc", "npc", "monster") or m.j - m.i != 1 or m.i == 0:
        return False
    t = tokens[m.i]
    return t.text.islower() and t.low in kin_terms and tokens[m.i - 1].low in _OWNERS


def _gender_fits(relative: Entity, gender: str) -> bool:
    """Whether a kin term's gender ("m" uncle, "f" aunt, "" sibling) fits the relative's recorded pronoun (an
    unknown pronoun fits any)."""
    want = {"m": "he", "f": "she"}.get(gender)
    return want is None or relative.pronoun in (want, None)


def _kin_of_phrases(
    mentions: list[Mention],
    tokens: list[Token],
    snap: WorldSnapshot,
    index: Mapping[tuple[str, str], tuple[str, ...]],
    kin_terms: Mapping[str, tuple[str, str]],
) -> list[Mention]:
    """ "the stepmother of the boatwright", "the late widow of Captain Hale": "the", up to two modifiers, a
    singular kinship term and "of" before a creature's name is the one relative the records tie to that
    creature by that term, like "the boatwright's stepmother". Not "a brother of Osric" (one of several), nor
    after a copula ("she is the daughter of Osric" is a kinship claim for :mod:`.relations`)."""
    covered = {q for m in mentions for q in range(m.i, m.j)}
    out: list[Mention] = []
    for m in mentions:
        e = snap.entities.get(m.id or "")
        term = m.i - 2
        if e is None or e.kind not in ("pc", "npc") or m.quoted or term < 1 or tokens[m.i - 1].low != "of":
            out.append(m)
            continue
        role = kin_terms.get(tokens[term].low)
        the = term - 1
        while (
            the > 0 and term - the <= _KIN_ADJ_MAX and tokens[the].text.islower() and tokens[the].low != "the"
        ):
            the -= 1
        relatives = index.get((e.id, role[0]), ()) if role is not None else ()
        if (
            role is None
            or tokens[the].low != "the"
            or len(relatives) != 1
            or any(q in covered or tokens[q].quoted for q in range(the, m.i))
            or (the > 0 and tokens[the - 1].low in _COPULAS | _DENIALS)
        ):
            out.append(m)
            continue
        rel = snap.entities[relatives[0]]
        if not _gender_fits(rel, role[1]):
            out.append(m)
            continue
        out.append(Mention((rel.id,), the, m.j, m.poss, False, "public", True))
    return out


_KIN_PRONOUNS = {"his": "he", "her": "she"}


def _kin_by_pronoun_phrases(
    mentions: list[Mention],
    tokens: list[Token],
    snap: WorldSnapshot,
    index: Mapping[tuple[str, str], tuple[str, ...]],
    kin_terms: Mapping[str, tuple[str, str]],
) -> list[Mention]:
    """ "Osei leans on the rail while his father does the work": a possessive pronoun, up to two modifiers
    and a kinship term name the one relative the record ties by that term to the nearest creature named
    earlier in the same sentence whose pronoun the possessive fits (else the previous sentence's only one,
    see :func:`_pronoun_owner`). Like "Osei's father" (above), but the possessor told by a pronoun; with no
    such creature the pronoun is not guessed at."""
    from ledger.check.extract.relations import modifier

    starts = {m.i for m in mentions}
    covered = {q for m in mentions for q in range(m.i, m.j)}
    n = len(tokens)
    added: list[Mention] = []
    for p, t in enumerate(tokens):
        want = _KIN_PRONOUNS.get(t.low)
        if want is None or t.quoted or p in covered:
            continue
        term: int | None = None
        for q in range(p + 1, min(n, p + _KIN_ADJ_MAX + 2)):
            if q in starts or tokens[q].quoted or not tokens[q].text.islower():
                break
            if tokens[q].low in kin_terms:
                term = q
                break
            if not modifier(tokens[q].text):
                break  # "carried her as a child": no child of hers
        if term is None or tokens[term].poss:
            continue  # "her husband's will" names a thing by its owner, read by the item passes
        role = kin_terms[tokens[term].low]
        before = tokens[p - 1].low if p > 0 else ""
        after = tokens[term + 1] if term + 1 < n else None
        if before in _COPULAS or (after is not None and after.text[:1].isupper() and not after.quoted):
            continue  # "he is his father's son"; "her brother Tomas" names him itself
        owner = _pronoun_owner(p, want, mentions, tokens, snap)
        if owner is None:
            continue
        relatives = index.get((owner, role[0]), ())
        if len(relatives) != 1:
            continue
        rel = snap.entities[relatives[0]]
        gender = {"m": "he", "f": "she"}.get(role[1])
        if gender is not None and rel.pronoun not in (gender, None):
            continue
        added.append(Mention((rel.id,), p, term + 1, tokens[term].poss, False, "public", True))
    if not added:
        return mentions
    return sorted([*mentions, *added], key=lambda m: (m.i, m.j))


_ENDS = (".", "!", "?")


def _pronoun_owner(
    p: int, want: str, mentions: list[Mention], tokens: list[Token], snap: WorldSnapshot
) -> str | None:
    """Whom the possessive pronoun at token ``p`` stands for: the nearest creature of its pronoun named
    earlier in the sentence; with none, the only one named in the sentence before ("Lorraine hovers by the
    tray. When the boss looks away she bends to her uncle": the boss is no "her", so her uncle is Lorraine's).
    Not when the sentence first brings in someone unnamed the pronoun may fit ("A woman enters; her son ...")
    or the sentence before names two who fit."""
    crossed = False
    found: set[str] = set()
    for m in reversed(mentions):
        if m.i >= p:
            continue
        ends = sum(tokens[q].text in _ENDS and not tokens[q].quoted for q in range(m.j, p))
        if ends and not crossed:
            crossed = True
            lo = m.j
            while lo < p and not (tokens[lo].text in _ENDS and not tokens[lo].quoted):
                lo += 1
            if any(GENDER_NOUNS.get(t.low) == want for t in tokens[lo:p]):
                return None  # "... A woman enters and her son follows": the son is hers
        if ends > 1:
            break
        e = snap.entities.get(m.id or "")
        if e is None or e.kind not in ("pc", "npc") or m.quoted or e.pronoun != want:
            continue
        if not crossed:
            return e.id
        found.add(e.id)
    return next(iter(found)) if len(found) == 1 else None


# the ties that make one of a pair the elder: X is Y's parent, grandparent or step-parent
_ELDER_ROLES = ("parent", "grandparent", "step_parent")


def by_age(cands: tuple[str, ...], snap: WorldSnapshot, age: str) -> tuple[str, ...]:
    """Which of several who share a name a compared age means: "the elder Tachibana" is the one the kin
    records make the parent (or grandparent) of another candidate, "the younger" the child; failing a
    recorded tie, the one whose recorded names alone carry an age word of that side ("the old chamberlain").
    Returns every candidate that fits (more than one, or none, leaves the description naming nobody)."""
    index = _kin_index(snap)

    def elder(x: str, y: str) -> bool:
        return any(x in index.get((y, role), ()) for role in _ELDER_ROLES)

    if age == "old":
        ranked = [c for c in cands if any(elder(c, d) for d in cands) and not any(elder(d, c) for d in cands)]
    else:
        ranked = [c for c in cands if any(elder(d, c) for d in cands) and not any(elder(c, d) for d in cands)]
    if ranked:
        return tuple(ranked)
    said = {c: _age_words(snap.entities[c]) for c in cands}
    return tuple(c for c in cands if said[c] == {age})


def _age_words(e: Entity) -> set[str]:
    """The age words ("old", "young", or their compared forms) in a creature's public recorded names."""
    out: set[str] = set()
    for a in e.names():
        if a.visibility != "public":
            continue
        for w in a.name.lower().split():
            age = w if w in AGES else age_degree(w)
            if age is not None:
                out.add(age)
    return out
