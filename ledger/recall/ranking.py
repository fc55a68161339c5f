"""Retrieval's ranking: the band and score of each candidate for a scene, and why it ranked there, in words.

Rules, best first (every band is a range of scores; nothing from a lower band outranks a higher one):

1. **asked** (130..139): the threads the caller says the scene is about, and their settlement.
2. **matter** (100..119): open matters of the NPCs present and of the place: open threads binding them,
   enmities and obligations kept as edges (a feud). The more NPCs present a matter binds, the higher; then
   the older first (the narrator must not forget the oldest obligation; no cap cuts it). At 100..104, the
   open matters a dead party left, when their kin, ally, employer or faction (a one-hop tie of
   :mod:`ledger.store.ties`) is present.
3. **closed** (80..99): settled, broken and expired matters of the NPCs present and of the place, told by
   the event that closed them (:func:`ledger.recall.candidates.merge_settlements`); the death of a tie of
   someone present, and that tie. They stop outranking open matters but never age out.
4. **between** (70..79): the last :data:`BETWEEN_MAX` notable events (:data:`~ledger.recall.queries.
   NOTABLE_KINDS`, by :func:`ledger.store.narrative.significance`) between two or more people present, an
   NPC among them, or events flagged permanent involving an NPC present: the last notable thing between
   these people, newest first (a more significant kind a little higher); older ones go to *notable*.
5. **state** (64..69): what is true now between and of those present: ties between two of them, their
   conditions and facts, facts of the place.
6. **party** (55..63): a PC's own open matters (threads, enmities and obligations binding PCs present but
   no NPC present): at most :data:`PC_MATTERS` of them (:data:`PC_MATTERS_ALONE` when no NPC is present),
   the oldest unpaid first. The live table passes every PC as present; without this quota the party's
   threads flood every scene about an NPC.
7. **notable** (45..53): other notable events of an NPC present, or between PCs only; a death at the place.
8. **related** (40..44): open matters of a living one-hop tie of someone present (a sister's debt), and
   ties of those present to people not here.
9. **trivia** (< 40): everything else (small talk, sightings, moves, holdings, other edges): importance
   and presence, halved every :data:`HALF_LIFE_SESSIONS` sessions of age.

The same tie or feud recorded both ways (``a>b:enemy`` and ``b>a:enemy``, ``sister``/``brother``) is shown
once. Who is an NPC and who a PC comes from the ids (``pc-`` prefix, docs/internals.md "Ids"): the NPCs
present and the place make a scene this scene; the party is in every scene. Every score is explained in the
record's ``why`` ("... involving <names> (present)" names who is bound, which the narrator reads).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ledger.recall.candidates import Candidate
from ledger.recall.queries import NOTABLE_SIGNIFICANCE
from ledger.store.narrative import significance
from ledger.store.ties import STANDING, TieKind, tie_kind

HALF_LIFE_SESSIONS = 2.0
#: How slowly a notable event's place inside its band falls with age (it never leaves the band).
NOTABLE_HALF_LIFE = 10.0
#: Ids of player characters start with this (docs/internals.md, "Ids").
PC_PREFIX = "pc-"
#: A PC's own open matters shown when NPCs are present, and when the party is alone.
PC_MATTERS = 3
PC_MATTERS_ALONE = 6
#: Thread kinds that are lasting obligations (told as "permanent"); a quest is a current matter.
LASTING_THREAD_KINDS = frozenset({"favour", "debt", "oath", "bounty", "prophecy", "feud"})

#: Notable events between those present shown in their own band; older ones rank as *notable*.
BETWEEN_MAX = 4

BANDS: dict[str, float] = {
    "asked": 130.0,
    "matter": 100.0,
    "closed": 80.0,
    "between": 70.0,
    "state": 64.0,
    "party": 55.0,
    "notable": 45.0,
    "related": 40.0,
    "trivia": 0.0,
}


@dataclass(frozen=True)
class Tie:
    """Someone not present whom a person present is tied to (one hop), and how."""

    who: str
    via: str  # the person present
    edge_kind: str
    tie: TieKind
    dead: bool = False


@dataclass(frozen=True)
class Scene:
    """What ranking knows of the scene: the living NPCs and PCs present, the place, their one-hop ties."""

    npcs: frozenset[str]
    pcs: frozenset[str]
    location: str | None
    current_session: int
    ties: Mapping[str, Tie] = field(default_factory=dict)

    @property
    def present(self) -> frozenset[str]:
        return self.npcs | self.pcs


def split_present(present: Iterable[str]) -> tuple[frozenset[str], frozenset[str]]:
    """(NPCs and other creatures, PCs) of the ids present."""
    ids = set(present)
    pcs = frozenset(x for x in ids if x.startswith(PC_PREFIX))
    return frozenset(ids - pcs), pcs


@dataclass
class Placement:
    """A candidate's band and score for the scene, and what its ``why`` will say."""

    candidate: Candidate
    band: str
    score: float
    bound: tuple[str, ...] = ()  # who present it involves (or witnessed, for trivia)
    through: Tie | None = None  # the tie a matter or death was reached through
    detail: str = ""


def _age(c: Candidate, now: int, since: int | None = None) -> int:
    return max(0, now - (c.session if since is None else since))


def _older(age: int) -> float:
    """0..2, more for an older matter: the oldest obligation first."""
    return 2.0 * age / (age + 10.0)


def _fresh(age: int, half_life: float) -> float:
    return float(0.5 ** (age / half_life))


def _presence(c: Candidate, bound: Sequence[str]) -> float:
    """How much a record is about the people in the scene, 0..1.

    PCs are in nearly every scene, so the NPCs present are what make a scene this scene: each NPC bound by
    the record weighs as much as three PCs. Having only witnessed an event counts half.
    """
    npcs = sorted((1.0 if x in c.involved else 0.5) for x in bound if not x.startswith(PC_PREFIX))
    pcs = sorted((1.0 if x in c.involved else 0.5) for x in bound if x.startswith(PC_PREFIX))
    weight = 3 * sum(npcs[-2:]) + sum(pcs[-3:])
    return min(weight / 9.0, 1.0)


def _trivia(c: Candidate, scene: Scene) -> Placement:
    bound = tuple(sorted((c.involved | c.witnessed) & scene.present))
    here = 2 if scene.location is not None and scene.location in c.involved else 0
    importance = max(0, min(10, c.importance))
    decay = _fresh(_age(c, scene.current_session), HALF_LIFE_SESSIONS)
    score = min((importance + 9 * _presence(c, bound) + here) * decay, 39.0)
    return Placement(c, "trivia", score, bound)


def _dead_tie(parties: Iterable[str], scene: Scene) -> Tie | None:
    ties = [scene.ties[p] for p in sorted(parties) if p in scene.ties and scene.ties[p].dead]
    return ties[0] if ties else None


def _living_tie(parties: Iterable[str], scene: Scene) -> Tie | None:
    ties = [scene.ties[p] for p in sorted(parties) if p in scene.ties and not scene.ties[p].dead]
    return ties[0] if ties else None


def _matter(c: Candidate, scene: Scene, *, open_: bool, since: int) -> Placement | None:
    """An open or closed matter (a thread, its settlement, or a standing edge): its band, or None for a
    PC's own open matter (placed by the party quota) or nothing at all."""
    npcs = sorted(c.involved & scene.npcs)
    pcs = sorted(c.involved & scene.pcs)
    here = scene.location is not None and scene.location in c.involved
    bound = tuple(sorted({*npcs, *pcs}))
    age = _age(c, scene.current_session, since)
    if c.asked:
        return Placement(c, "asked", BANDS["asked"] + 4 * min(2, len(npcs)) + _older(age), bound)
    if open_:
        if npcs or here:
            score = BANDS["matter"] + 5 + 5 * min(2, len(npcs)) + (2 if here else 0) + _older(age)
            return Placement(c, "matter", score, bound)
        dead = _dead_tie(c.parties or c.involved, scene)
        if dead is not None:
            return Placement(c, "matter", BANDS["matter"] + _older(age) + (1 if pcs else 0), bound, dead)
        if pcs:
            return None  # the party quota places it
        living = _living_tie(c.parties or c.involved, scene)
        if living is not None:
            return Placement(c, "related", BANDS["related"] + 2 + _older(age), bound, living)
        return _trivia(c, scene)
    if npcs or here:
        fresh = _fresh(_age(c, scene.current_session), NOTABLE_HALF_LIFE)
        score = BANDS["closed"] + 8 + 4 * min(2, len(npcs)) + (1 if here else 0) + 2 * fresh
        return Placement(c, "closed", score, bound)
    return _trivia(c, scene)


def _edge(c: Candidate, scene: Scene) -> Placement | None:
    tie = tie_kind(c.label)
    both = {c.source, c.target} <= scene.present
    if tie in STANDING:
        return _matter(c, scene, open_=True, since=c.session)
    bound = tuple(sorted(c.involved & scene.present))
    if both:
        return Placement(c, "state", BANDS["state"] + 1 + (1 if tie else 0), bound)
    if tie is None:
        return _trivia(c, scene)
    other = c.target if c.source in scene.present else c.source
    ref = scene.ties.get(other)
    if ref is not None and ref.dead:
        return Placement(c, "closed", BANDS["closed"] + 5, bound, ref)
    return Placement(c, "related", BANDS["related"] + (0.5 if tie == "kinship" else 0), bound, ref)


def _death(c: Candidate, scene: Scene) -> Placement:
    who = next(iter(sorted(c.involved - ({scene.location} if scene.location else set()))), "")
    tie = scene.ties.get(who)
    if tie is not None:
        return Placement(c, "closed", BANDS["closed"] + 6, (tie.via,), tie)
    return Placement(c, "notable", BANDS["notable"] + 8, ())  # who lies dead at the place


def _event(c: Candidate, scene: Scene) -> Placement:
    people = set(c.participants) or set(c.involved)
    here_now = people & scene.present
    npcs = here_now & scene.npcs
    bound = tuple(sorted(here_now))
    age = _age(c, scene.current_session)
    fresh = _fresh(age, NOTABLE_HALF_LIFE)
    sig = significance(c.narrative, len(people)) if c.narrative else 0
    notable = sig >= NOTABLE_SIGNIFICANCE or (c.permanent and not c.narrative)
    if notable and npcs and (len(here_now) >= 2 or c.permanent):
        extra = 0.5 * (min(sig, 5) - NOTABLE_SIGNIFICANCE) if sig else 0.0
        return Placement(c, "between", BANDS["between"] + 8 * fresh + max(0.0, extra), bound)
    if notable and (npcs or len(here_now) >= 2):
        return _notable(c, scene, bound)
    return _trivia(c, scene)


def _notable(c: Candidate, scene: Scene, bound: tuple[str, ...]) -> Placement:
    fresh = _fresh(_age(c, scene.current_session), NOTABLE_HALF_LIFE)
    npcs = set(bound) & scene.npcs
    return Placement(c, "notable", BANDS["notable"] + 4 * fresh + (2 if npcs else 0), bound)


def place(c: Candidate, scene: Scene) -> Placement | None:
    """The band and score of one candidate, or None when it is a PC's own open matter (see :func:`rank`)."""
    if c.kind == "thread" or c.settles:
        return _matter(c, scene, open_=c.kind == "thread" and c.status == "open", since=c.opened or c.session)
    if c.kind == "edge":
        return _edge(c, scene)
    if c.death:
        return _death(c, scene)
    if c.kind == "fact":
        subject_here = bool(c.involved & scene.present) or (
            scene.location is not None and scene.location in c.involved
        )
        if subject_here:
            bound = tuple(sorted(c.involved & scene.present))
            return Placement(c, "state", BANDS["state"] + (2 if c.condition else 0), bound)
        return _trivia(c, scene)
    if c.kind == "event":
        return _event(c, scene)
    return _trivia(c, scene)


def _party_matters(cands: Iterable[Candidate], scene: Scene) -> list[Placement]:
    """A PC's own open matters: the oldest :data:`PC_MATTERS` (or :data:`PC_MATTERS_ALONE`), in band."""
    quota = PC_MATTERS if scene.npcs else PC_MATTERS_ALONE
    mine = sorted(cands, key=lambda c: (c.opened or c.session, c.ref))[:quota]
    out = []
    for c in mine:
        age = _age(c, scene.current_session, c.opened or c.session)
        bound = tuple(sorted(c.involved & scene.present))
        out.append(Placement(c, "party", BANDS["party"] + 8 * age / (age + 20.0), bound))
    return out


def _one_way(cands: Iterable[Candidate], scene: Scene) -> list[Candidate]:
    """The candidates with each tie or feud recorded both ways kept once: the edge from someone present (an
    NPC first), else the first by ref."""
    out: list[Candidate] = []
    seen: set[tuple[frozenset[str], str]] = set()

    def key(c: Candidate) -> tuple[int, str]:
        return (0 if c.source in scene.npcs else 1 if c.source in scene.pcs else 2, c.ref)

    for c in sorted(cands, key=lambda c: (c.kind != "edge", key(c))):
        if c.kind == "edge":
            pair = (frozenset((c.source, c.target)), tie_kind(c.label) or c.label)
            if pair in seen:
                continue
            seen.add(pair)
        out.append(c)
    return out


def rank(cands: Iterable[Candidate], scene: Scene) -> list[Placement]:
    """Every candidate's placement for the scene, best first (ties: a projection before an event, then the
    ref). A PC's own open matters beyond the party quota are left out; notable events between those present
    beyond :data:`BETWEEN_MAX` rank as notable."""
    placed: list[Placement] = []
    party: list[Candidate] = []
    for c in _one_way(cands, scene):
        p = place(c, scene)
        if p is None:
            party.append(c)
        else:
            placed.append(p)
    placed += _party_matters(party, scene)
    order = sorted(placed, key=lambda p: (-round(p.score, 6), p.candidate.kind == "event", p.candidate.ref))
    between = [p for p in order if p.band == "between"]
    for p in between[BETWEEN_MAX:]:
        demoted = _notable(p.candidate, scene, p.bound)
        p.band, p.score = demoted.band, demoted.score
    order.sort(key=lambda p: (-round(p.score, 6), p.candidate.kind == "event", p.candidate.ref))
    return order


def why_ranked(p: Placement, scene: Scene, names: Mapping[str, str]) -> str:
    """Why a candidate ranked where it did, in words (only built for the records shown)."""
    c = p.candidate
    who = ", ".join(names.get(x, x) for x in p.bound)
    involving = f"involving {who} (present)" if who else ""
    place_name = names.get(scene.location, scene.location) if scene.location else ""
    lasting = c.thread_kind in LASTING_THREAD_KINDS or c.kind == "edge"
    label = c.label
    if p.band == "asked":
        return f"the scene's active {label}" + (f" {involving}" if who else "")
    if p.through is not None and p.band in ("matter", "closed", "related"):
        t = p.through
        dead = names.get(t.who, t.who) + (" (dead)" if t.dead else "")
        via = f"{names.get(t.via, t.via)} (present) is tied to them: {t.edge_kind}"
        if c.death:
            return f"death of {dead}; {via}"
        if c.kind == "edge":
            return f"tie to {dead}; {via}"
        return f"open {label} of {dead}; {via}"
    if p.band == "matter":
        if not who:
            return f"open {label} at {place_name}"
        return f"{'permanent' if lasting else 'current'} {label} {involving}"
    if p.band == "closed":
        if c.death:
            return "death"
        status = c.status or "closed"
        told = ", told by its settlement" if c.settles else ""
        return (
            f"{status} {label} {involving or f'at {place_name}'}{told}: settled matters stay, below open ones"
        )
    if p.band == "party":
        return f"{label} {involving}: one of the party's oldest open matters"
    if p.band == "state":
        return f"current {label} {involving}" if who else f"current {label} at {place_name}"
    age = _age(c, scene.current_session)
    if p.band == "notable" and c.death:
        return f"death at {place_name}"
    if p.band == "between":
        return f"notable {label} {involving}, {age} sessions ago: among the last between them"
    if p.band == "notable":
        return f"notable {label} {involving}, {age} sessions ago"
    if p.band == "related":
        return f"{label} {involving}: a tie of someone present"
    bound = set(p.bound)
    how = "witnessed by" if bound and not (bound & c.involved) else "involving"
    at_place = scene.location is not None and scene.location in c.involved
    where = f"{how} {who} (present)" if who else f"at {place_name}" if at_place else "nearby"
    decay = _fresh(age, HALF_LIFE_SESSIONS)
    importance = max(0, min(10, c.importance))
    return f"{label} {where}, importance {importance}, {age} sessions old (x{decay:.2f})"
