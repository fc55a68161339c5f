"""Verdicts for the meaning-level claims: health, senses, condition_gone, kinship, count and attitude.

:func:`verdict` is called by :mod:`ledger.check.judge` for every claim (one hook) and answers only the kinds
listed in :mod:`ledger.check.claims` as meaning-level; for any other kind it returns ``None``. Like the judge
it is pure and deterministic, and it only contradicts a claim against a record the party can see (public or
party visibility), so a secret is never the reason given for a conflict. Each check flags only a clear
disagreement, to keep false alarms low:

- ``health``: "hale" at half HP or less, "not a scratch on him" or "unscathed" at three quarters or less,
  vigour, "unscathed" or a hearty appetite while poisoned or diseased, "at death's door" at 90 % or more;
  refuted by ``<entity>-hp`` (or the ailment's condition record).
- ``senses``: a blinded creature seeing, a deafened one hearing, a silenced or gagged one speaking, a
  silenced one crying out; refuted by ``<entity>-condition-<condition>``.
- ``condition_gone``: a recorded condition told gone ("clean of the sickness"); one the narration lifts
  itself (a bandage unwound, a creature coming to: :mod:`ledger.check.extract.lifts`) is unknown, and the
  judge reads the creature's later acts without it.
- ``kinship``: the kinship term against the recorded tie's term (read from the edge's reason, "Lazlo is
  Orsolya's son"), by role: a nephew is no son, an aunt no mother; refuted by the edge id.
- ``count``: an ordinal or count word against the quantity held ("his second vial" of one), by the holder
  the words name, else by every holder together (an exact count or a bound only when one holds it all);
  refuted by ``<item>-quantity``.
- ``attitude``: warmth or hostility shown by behaviour against a strong recorded attitude (-40 or below,
  +60 or above) of the actor toward the other, refuted by the edge id; or hostility toward the one who
  charmed the actor (a condition with its source), refuted by ``<actor>-condition-charmed``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ledger.check.claims import Claim, Verdict
from ledger.check.extract.lifts import LIFTED
from ledger.check.extract.relations import KIN_TERMS, edge_kin_role, kin_role
from ledger.check.snapshot import Edge, Entity, WorldSnapshot

MEANING_KINDS = frozenset({"health", "senses", "condition_gone", "kinship", "count", "attitude"})
_SHOWN = frozenset({"public", "party"})

# which conditions take away which faculty (beyond the 5e list: silenced, gagged, diseased)
FACULTY_LOST: Mapping[str, tuple[str, ...]] = {
    "sight": ("blinded", "blind", "unconscious", "petrified", "asleep"),
    "hearing": ("deafened", "deaf", "unconscious", "petrified", "asleep"),
    "speech": (
        "silenced",
        "gagged",
        "mute",
        "muted",
        "unconscious",
        "petrified",
        "paralyzed",
        "paralysed",
        "asleep",
    ),
    # going the length of a room, or across it: held fast, a creature cannot
    "movement": ("restrained", "grappled"),
    # a cry without words ("screams"): only a creature whose every sound is taken (a gag muffles one; one
    # falling senseless or to stone may cry out as it goes)
    "voice": ("silenced",),
}
# ailments that make "hale and hearty" false whatever the HP
AILMENTS = ("poisoned", "diseased", "sick", "exhausted", "cursed")
UNHURT_MAX_FRACTION = 0.5  # "hale", "none the worse" are a conflict at or below half HP
# "not a scratch on him", "unbruised", "unharmed" deny any wound at all: a conflict once a quarter is lost
UNMARKED_MAX_FRACTION = 0.75
# the health states a claim may tell (ledger.check.extract.health): the most HP fraction each is false at
_NO_HARM: Mapping[str, float] = {
    "unhurt": UNHURT_MAX_FRACTION,
    "unharmed": UNMARKED_MAX_FRACTION,
    "unmarked": UNMARKED_MAX_FRACTION,
}
# the states an ailment makes false: vigour and health told; not marks on the skin ("not a bruise on her")
_AILMENT_FALSIFIES = frozenset({"unhurt", "unharmed", "well"})
NEAR_DEATH_MIN_FRACTION = 0.9  # "at death's door" is a conflict at or above 90 % HP
WARM_CONFLICT_AT = -40  # warmth shown by someone whose recorded attitude is this or lower
HOSTILE_CONFLICT_AT = 60  # hostility shown by someone whose recorded attitude is this or higher


def verdict(claim: Claim, snapshot: WorldSnapshot) -> Verdict | None:
    """The verdict for a meaning-level claim, or ``None`` when ``claim`` is of another kind.

    Claims that are not asserted (dialogue, memories, plans ...) are ``unknown``, as in the judge."""
    if claim.kind not in MEANING_KINDS:
        return None
    if not claim.modality.asserted:
        return Verdict(claim, "unknown", None, "not asserted")
    handler = _HANDLERS[claim.kind]
    return handler(claim, snapshot)


def _shown(visibility: str) -> bool:
    return visibility in _SHOWN


def _entity(snapshot: WorldSnapshot, eid: str) -> Entity | None:
    e = snapshot.entities.get(eid)
    return e if e is not None and _shown(e.visibility) else None


def _changed_this_round(snapshot: WorldSnapshot, eid: str, kinds: tuple[str, ...]) -> bool:
    return any(ch.get("kind") in kinds and ch.get("entity") == eid for ch in snapshot.round.changes)


def _health(c: Claim, snap: WorldSnapshot) -> Verdict:
    eid, state = c.args
    e = _entity(snap, eid)
    if e is None or not e.alive:
        return Verdict(c, "unknown")
    if state in _AILMENT_FALSIFIES:
        ill = sorted(set(AILMENTS) & e.conditions)
        if ill:
            return Verdict(c, "contradicted", f"{eid}-condition-{ill[0]}", f"{e.name} is {ill[0]}")
    if state == "well":
        return Verdict(c, "unknown")  # an appetite or a colour in the cheeks says nothing of wounds
    hurt = [a for a in snap.round.actions_on(eid) if a.damage > 0 or a.outcome in ("hit", "critical")]
    if state in _NO_HARM and hurt:
        return Verdict(c, "contradicted", f"round:{hurt[0].id}", f"{e.name} was hurt this round")
    if e.hp is None or not e.max_hp or _changed_this_round(snap, eid, ("set_hp",)):
        return Verdict(c, "unknown")
    frac = e.hp / e.max_hp
    if state in _NO_HARM and frac <= _NO_HARM[state]:
        return Verdict(c, "contradicted", f"{eid}-hp", f"{e.name} is at {e.hp}/{e.max_hp} HP")
    # a maximum equal to the current HP may only be the loader's stand-in for an unknown one: trust it for a
    # PC (whose sheet has it), not for an NPC or a monster
    full_known = e.max_hp != e.hp or e.kind == "pc"
    if (
        state == "near_death"
        and frac >= NEAR_DEATH_MIN_FRACTION
        and full_known
        and not snap.round.actions_on(eid)
    ):
        return Verdict(c, "contradicted", f"{eid}-hp", f"{e.name} is at {e.hp}/{e.max_hp} HP")
    return Verdict(c, "supported" if (state in _NO_HARM) == (frac > UNHURT_MAX_FRACTION) else "unknown")


def _senses(c: Claim, snap: WorldSnapshot) -> Verdict:
    eid, faculty = c.args
    e = _entity(snap, eid)
    if e is None or not e.alive:
        return Verdict(c, "unknown")
    for cond in FACULTY_LOST.get(faculty, ()):
        if cond in e.conditions and not _changed_this_round(snap, eid, ("remove_condition",)):
            return Verdict(
                c, "contradicted", f"{eid}-condition-{cond}", f"{e.name} is {cond} ({faculty} is gone)"
            )
    return Verdict(c, "unknown")


def _condition_gone(c: Claim, snap: WorldSnapshot) -> Verdict:
    eid, cond = c.args
    if c.detail == LIFTED:
        # the narration tells the change itself ("unwinds the bandage", "comes to"): no claim on the record,
        # only what is told after it is read without the condition
        return Verdict(c, "unknown", None, "lifted in the narration")
    e = _entity(snap, eid)
    if e is None or _changed_this_round(snap, eid, ("remove_condition",)):
        return Verdict(c, "unknown")
    if cond in e.conditions:
        return Verdict(c, "contradicted", f"{eid}-condition-{cond}", f"{e.name} is still {cond}")
    return Verdict(c, "supported")


# --- kinship ----------------------------------------------------------------------------------------

_TERM_ALT = "|".join(sorted(KIN_TERMS, key=len, reverse=True))
_REASON = re.compile(
    rf"^(?P<x>.+?) (?:is|was|are|were) (?:the |a |an )?(?P<y>.+?)(?:'s|’s|s') (?:[\w-]+ ){{0,2}}?"
    rf"(?P<term>{_TERM_ALT})\b",
    re.IGNORECASE,
)
_NAME_NOISE = frozenset({"the", "of", "a", "an", "sir", "lady", "lord", "mrs", "mr", "miss", "old", "young"})


def _name_words(e: Entity | None) -> set[str]:
    if e is None:
        return set()
    return {w for a in e.names() for w in a.name.lower().replace("'", " ").split()} - _NAME_NOISE


def recorded_kinship(snap: WorldSnapshot) -> Mapping[tuple[str, str], tuple[str, Edge]]:
    """(person, relative_of) -> (kin term, edge) read from each edge's reason ("Lazlo is Orsolya's son").

    The person is whichever end of the edge the reason names before "is"; built once per snapshot."""
    cached = snap.cache.get("meaning-kinship")
    if isinstance(cached, dict):
        return cached
    out: dict[tuple[str, str], tuple[str, Edge]] = {}
    for ed in snap.edges:
        found = _REASON.match(ed.reason.strip())
        if found is None:
            # an edge kind that is a kin term itself ("daughter": the source is the target's daughter)
            if edge_kin_role(ed.kind) is not None:
                low = ed.kind.lower()
                out.setdefault((ed.source, ed.target), (low if kin_role(low) else low.split("-")[-1], ed))
            continue
        x = set(found.group("x").lower().replace("'", " ").split()) - _NAME_NOISE
        src, tgt = _name_words(snap.entities.get(ed.source)), _name_words(snap.entities.get(ed.target))
        in_src, in_tgt = len(x & src), len(x & tgt)
        if in_src == in_tgt:
            continue
        person, other = (ed.source, ed.target) if in_src > in_tgt else (ed.target, ed.source)
        out.setdefault((person, other), (found.group("term").lower(), ed))
    snap.cache["meaning-kinship"] = out
    return out


def _kinship(c: Claim, snap: WorldSnapshot) -> Verdict:
    person, other, term = c.args
    said = kin_role(term)
    if said is None:
        return Verdict(c, "unknown")
    table = recorded_kinship(snap)
    if (person, other) in table:
        rec_term, ed = table[(person, other)]
        rec = kin_role(rec_term)
    elif (other, person) in table:
        # "Seraphel is Thalion's aunt" read from Thalion's side: he is her nephew (gender by his pronoun)
        rec_term, ed = table[(other, person)]
        inv = kin_role(rec_term)
        e = snap.entities.get(person)
        gender = {"he": "m", "she": "f"}.get(e.pronoun or "", "") if e else ""
        rec = (_INVERSE.get(inv[0], inv[0]), gender) if inv else None
    else:
        return _other_parent(c, snap, table)
    if rec is None or not _shown(ed.visibility):
        return Verdict(c, "unknown")
    role, gender = said
    if role != rec[0] or (gender and rec[1] and gender != rec[1]):
        a = snap.entities.get(person)
        b = snap.entities.get(other)
        told = f"{a.name if a else person} is {b.name if b else other}'s {term}"
        return Verdict(c, "contradicted", ed.id, f"{told}, but the record says: {ed.reason}")
    return Verdict(c, "supported")


_GENDER = {"he": "m", "she": "f"}
# a recorded parent that is no birth parent: a foster, adoptive, step- or god-parent, or a parent-in-law
_NOT_BIRTH = re.compile(r"foster|adopt|step|in-law|in law|god", re.IGNORECASE)


def _other_parent(
    c: Claim, snap: WorldSnapshot, table: Mapping[tuple[str, str], tuple[str, Edge]]
) -> Verdict:
    """A mother or a father given to the wrong parent: "Kettil, Maud's son" when the record makes Orla his
    mother and ties him to Maud by no record. One mother and one father are exclusive, so the recorded one
    refutes another; a sibling, cousin, aunt or uncle may be many, and a foster or step-parent is no rival."""
    person, other, term = c.args
    said = kin_role(term)
    if (
        said is None
        or said[0] not in ("parent", "child")
        or snap.edges_by_pair.get(frozenset((person, other)))
    ):
        return Verdict(c, "unknown")
    if said[0] == "parent":
        child, parent, gender = other, person, said[1]
    else:
        p = snap.entities.get(other)
        child, parent, gender = person, other, _GENDER.get(p.pronoun or "", "") if p else ""
    if not gender:
        return Verdict(c, "unknown")
    rivals: dict[str, Edge] = {}
    for (x, y), (rec_term, ed) in table.items():
        role = kin_role(rec_term)
        if role is None or not _shown(ed.visibility) or _NOT_BIRTH.search(f"{ed.kind} {ed.reason}"):
            continue
        if y == child and role[0] == "parent":
            who, g = x, role[1]
        elif x == child and role[0] == "child":
            who, g = y, ""
        else:
            continue
        e = snap.entities.get(who)
        g = g or (_GENDER.get(e.pronoun or "", "") if e else "")
        if g == gender:
            rivals[who] = ed
    if len(rivals) != 1 or parent in rivals:
        return Verdict(c, "unknown")
    ((rival, ed),) = rivals.items()
    a, b, r = snap.entities.get(person), snap.entities.get(other), snap.entities.get(rival)
    told = f"{a.name if a else person} is {b.name if b else other}'s {term}"
    return Verdict(
        c,
        "contradicted",
        ed.id,
        f"{told}, but the record gives that parent as {r.name if r else rival}: {ed.reason}",
    )


_INVERSE = {
    "parent": "child",
    "child": "parent",
    "sibling": "sibling",
    "parent_sibling": "sibling_child",
    "sibling_child": "parent_sibling",
    "cousin": "cousin",
    "grandparent": "grandchild",
    "grandchild": "grandparent",
    "spouse": "spouse",
    "step_parent": "step_child",
    "step_child": "step_parent",
}


# --- counts ----------------------------------------------------------------------------------------


def _count(c: Claim, snap: WorldSnapshot) -> Verdict:
    item, holder = c.args
    it = snap.entities.get(item)
    held = {h: hd for h, hd in snap.holders_of(item).items() if _shown(hd.visibility)}
    if it is None or not held:
        return Verdict(c, "unknown")
    used = sum(
        int(ch.get("quantity", 1))
        for ch in snap.round.changes
        if ch.get("kind") == "transfer_item" and ch.get("item") == item
    )
    want: dict[str, int] = {}
    for part in filter(None, c.detail.split(";")):
        name, _, value = part.partition("=")
        if value.isdigit():
            want[name] = int(value)
    if holder != "*":
        if holder not in held:
            return Verdict(c, "unknown")
        have = held[holder].quantity
    else:
        have = sum(h.quantity for h in held.values())
        if len(held) > 1 and "min" not in want:
            # whose stack an exact count or a bound tells is not said: the total is no one's to hold it to;
            # "at least N" still cannot pass the total
            return Verdict(c, "unknown", None, "several holders")
    name = it.name
    if "max" in want and have > want["max"]:
        told = f"there are {have} {name}, not {want['max']} or fewer"
        return Verdict(c, "contradicted", f"{item}-quantity", told)
    if "exact" in want and want["exact"] not in (have, have + used):
        return Verdict(c, "contradicted", f"{item}-quantity", f"there are {have} {name}, not {want['exact']}")
    # an ordinal or a count word names what is held now ("her second vial" needs two in hand); an exact count
    # may also be told as it stood before this round's use
    if "min" in want and want["min"] > have:
        return Verdict(c, "contradicted", f"{item}-quantity", f"there are only {have} {name}")
    return Verdict(c, "supported")


# --- attitude ----------------------------------------------------------------------------------------


def _attitude(c: Claim, snap: WorldSnapshot) -> Verdict:
    actor, other, shown = c.args
    if frozenset((actor, other)) in snap.round.touched_edges():
        return Verdict(c, "unknown", None, "changed this round")
    me = _entity(snap, actor)
    if (
        shown == "hostile"
        and me is not None
        and "charmed" in me.conditions
        and me.source_of("charmed") == other
    ):
        return Verdict(c, "contradicted", f"{actor}-condition-charmed", f"{me.name} is charmed by them")
    edges = [e for e in snap.edges_by_pair.get(frozenset((actor, other)), ()) if e.source == actor]
    edges = [e for e in edges if _shown(e.visibility)]
    for e in edges:
        if shown == "warm" and e.attitude <= WARM_CONFLICT_AT:
            return Verdict(c, "contradicted", e.id, f"{e.kind} ({e.attitude:+d}): {e.reason}")
        if shown == "hostile" and e.attitude >= HOSTILE_CONFLICT_AT:
            return Verdict(c, "contradicted", e.id, f"{e.kind} ({e.attitude:+d}): {e.reason}")
    return Verdict(c, "unknown")


_HANDLERS = {
    "health": _health,
    "senses": _senses,
    "condition_gone": _condition_gone,
    "kinship": _kinship,
    "count": _count,
    "attitude": _attitude,
}

__all__ = ["LIFTED", "MEANING_KINDS", "recorded_kinship", "verdict"]
