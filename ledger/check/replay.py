"""State replay inside the narration: what the round and the text itself change, applied in text order.

A narration tells events, not only states: the party climbs to the chapel and meets the abbot there, an NPC
hands Mira the key and Mira then holds it, a debt is paid off and is then no longer owed. Judging each later
sentence against the ledger as it stood before the narration would call those false alarms, so the judge
keeps a :class:`Replay`:

- it starts from the round: the places its ``move_entity`` changes sent a PC, and the places its players
  submitted going to ("I walk down to the assay office", "I go with Wren", "I follow them down");
- it then takes, as the judge meets them, the changes the narration tells: a creature or the party going to
  a known place (``at(x, place)`` with a ``to:<verb>`` detail, the party as ``*party*``), an item handed over
  or taken, a death, a thread settled or broken in this round's doing or told done in the scene (a debt
  paid whole, "she pays him the last coin": :func:`ledger.check.extract.thread_roles.payment_claim`).

The judge asks it whether a place is where the narration may now be (:meth:`Replay.is_here`), who holds an
item now, who has died, and what a thread's status is now. Pure; reads the snapshot only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.check.extract import Mention, Token, find_mentions, name_index, tokenize
from ledger.check.extract.verbs import lemma
from ledger.check.snapshot import WorldSnapshot

PARTY = "*party*"
# prepositions that send a mover to the place after them
_GOING = frozenset({"to", "into", "onto", "toward", "towards"})
# putting down or handing over: a submission with one of these lets an item of the player's leave their hands
_PUTTING = frozenset(
    {
        "lay",
        "put",
        "set",
        "place",
        "hand",
        "give",
        "pass",
        "slide",
        "toss",
        "throw",
        "offer",
        "drop",
        "leave",
        "trade",
        "sell",
        "lend",
        "spread",
        "empty",
        "pour",
        "plant",
        "push",
        "return",
    }
)
# words before an item that take only part of a stack
_PART = frozenset({"a", "an", "one", "some", "two", "three", "four", "five", "six", "of", "another", "few"})
# words that open a sentence by standing for a place already named (pro-forms of place): after someone of the
# scene goes somewhere, a sentence opening with one follows them there
_PLACE_PRO_FORMS = (
    "at the top",
    "at the bottom",
    "at the end",
    "at the door",
    "inside",
    "within",
    "there ,",
    "up there",
    "down there",
    "in there",
    "out there",
    "once there",
    "upstairs",
    "downstairs",
    "on arrival",
)
# staying put: a submission with one of these as its verb moves no one
_STAYING = frozenset({"stay", "remain", "wait", "keep", "guard", "watch"})


@dataclass
class Replay:
    """What the round and the narration have changed so far (the judge replays it in text order)."""

    snap: WorldSnapshot
    places: set[str] = field(default_factory=set)  # where the narration may be: the scene, places gone to
    holder: dict[str, str | None] = field(default_factory=dict)  # item -> holder after a hand-over
    moving: set[str] = field(default_factory=set)  # creatures told on the move
    went: dict[str, str] = field(default_factory=dict)  # creature -> the place it was told going to
    dead: set[str] = field(default_factory=set)  # told dead earlier in this narration
    threads: dict[str, str] = field(default_factory=dict)  # thread -> status told happening now
    movers: set[str] = field(default_factory=set)  # PCs the round sends somewhere

    @classmethod
    def start(cls, snap: WorldSnapshot) -> Replay:
        """The replay before the first sentence: the scene, plus where the round's moves sent the party."""
        r = cls(snap)
        if snap.scene.location is not None:
            r.places.add(snap.scene.location)
        for ch in snap.round.changes:
            if ch.get("kind") != "move_entity":
                continue
            who, place = str(ch.get("entity")), ch.get("location")
            e = snap.entities.get(who)
            if e is not None and e.kind == "pc" and isinstance(place, str):
                r.places.add(place)
                r.movers.add(who)
        for pc, place in submitted_moves(snap).items():
            r.places.add(place)
            r.movers.add(pc)
        r.holder.update(submitted_hand_overs(snap))
        return r

    def copy(self) -> Replay:
        """An independent copy (a claim inside a plan or a memory may be judged and then forgotten)."""
        return Replay(
            self.snap,
            set(self.places),
            dict(self.holder),
            set(self.moving),
            dict(self.went),
            set(self.dead),
            dict(self.threads),
            set(self.movers),
        )

    def go(self, who: str, place: str) -> None:
        """``who`` (a creature id or :data:`PARTY`) goes to ``place`` in the narration."""
        e = self.snap.entities.get(who)
        if who == PARTY or (e is not None and e.kind == "pc"):
            self.places.add(place)
        if who != PARTY:
            self.moving.add(who)
            self.went[who] = place

    def followed_to(self, place: str, sentence: str) -> bool:
        """True when someone of the scene was told going to ``place`` (or a place in it) and ``sentence``
        opens with a word that stands for a place ("At the top, the Dean ...", "Inside, ...", "There, ..."):
        the narration has followed them there."""
        opening = " ".join(sentence.lower().replace(",", " , ").split()[:4])
        if not opening.startswith(_PLACE_PRO_FORMS):
            return False
        return any(
            who in self.snap.scene.present and (self.snap.within(place, p) or self.snap.within(p, place))
            for who, p in self.went.items()
        )

    def is_here(self, place: str) -> bool:
        """True when ``place`` is, contains or lies in a place the narration is or has gone to."""
        return any(self.snap.within(place, p) or self.snap.within(p, place) for p in self.places)


def submitted_hand_overs(snap: WorldSnapshot) -> dict[str, str | None]:
    """Item id -> where a player's submission puts an item they hold ("I lay the pearls on the table and ask
    Magda ...", "I hand my theriac to Lotte"): the creature named after the item, else ``"*"`` (somewhere
    unnamed); the narration may then show anyone handling it. Cached on the snapshot."""
    rnd = snap.round
    if not rnd.submissions:
        return {}
    key = f"replay-hand-overs:{rnd.number}:{hash(tuple(sorted(rnd.submissions.items())))}"
    cached = snap.cache.get(key)
    if isinstance(cached, dict):
        return cached
    index = name_index(snap)
    out: dict[str, str | None] = {}
    for pc, text in rnd.submissions.items():
        toks = tokenize(text)
        if not any(t.low in _PUTTING or lemma(t.low) in _PUTTING for t in toks if not t.quoted):
            continue
        mentions, _, _ = find_mentions(toks, index, snap)
        for n, m in enumerate(mentions):
            e = snap.entities.get(m.id or "")
            held = snap.holders_of(e.id).get(pc) if e is not None else None
            if e is None or e.kind != "item" or m.quoted or held is None:
                continue
            lead = {t.low for t in toks[max(0, m.i - 2) : m.i]}
            if held.quantity != 1 and (
                lead & _PART or any(t.low.isdigit() for t in toks[max(0, m.i - 2) : m.i])
            ):
                continue  # "one of my tickets", "an arrow": the rest stay with the player
            to = next(
                (
                    x.id
                    for x in mentions[n + 1 :]
                    if x.id
                    and getattr(snap.entities.get(x.id), "kind", "") in ("pc", "npc", "monster")
                    and toks[x.i - 1].low in ("to", "for")
                ),
                None,
            )
            out[e.id] = to or "*"
    snap.cache[key] = out
    return out


# verbs of going to see someone: the submission's goal is the place that person is in
_VISITING = frozenset({"visit", "seek", "find", "meet", "track", "hunt"})


def _visited_place(snap: WorldSnapshot, toks: list[Token], mentions: list[Mention]) -> str | None:
    """Where a submission goes by naming a person rather than a place: "I visit the smith", "I head over to
    the smith", "Let's pay the abbot a visit", "I go and find Tam": that person's recorded place."""
    lemmas = [lemma(t.low) for t in toks]
    visiting = any(x in _VISITING for x in lemmas if x) or "visit" in (t.low for t in toks)
    for m in mentions:
        e = snap.entities.get(m.id or "")
        if e is None or e.kind not in ("npc", "monster") or m.quoted or e.location is None or m.i == 0:
            continue
        if e.visibility not in ("public", "party"):
            continue
        prev = toks[m.i - 1].low
        if prev in _GOING or visiting:
            return e.location
    return None


def submitted_moves(snap: WorldSnapshot) -> dict[str, str]:
    """PC id -> the known place its player's submission goes to this round ("I go to the scriptorium");
    a player who goes "with" another PC or follows the others goes where they go. Cached on the snapshot."""
    rnd = snap.round
    if not rnd.submissions:
        return {}
    key = f"replay-moves:{rnd.number}:{hash(tuple(sorted(rnd.submissions.items())))}"
    cached = snap.cache.get(key)
    if isinstance(cached, dict):
        return cached
    index = name_index(snap)
    moves: dict[str, str] = {}
    company: dict[str, str | None] = {}
    for pc, text in rnd.submissions.items():
        toks = tokenize(text)
        mentions, _, _ = find_mentions(toks, index, snap)
        lemmas = [lemma(t.low) for t in toks[:4]]
        if any(x in _STAYING for x in lemmas if x):
            continue
        dest: str | None = None
        for m in mentions:
            e = snap.entities.get(m.id or "")
            if e is None or e.kind != "location" or m.quoted or m.i == 0:
                continue
            prev = toks[m.i - 1].low
            if prev in _GOING or (prev in ("up", "down") and m.i >= 2 and lemma(toks[m.i - 2].low)):
                dest = e.id
                break
        if dest is None:
            dest = _visited_place(snap, toks, mentions)
        if dest is not None:
            moves[pc] = dest
            continue
        lows = [t.low for t in toks]
        if "with" in lows or any(x == "follow" for x in lemmas):
            after_with = lows.index("with") + 1 if "with" in lows else len(toks)
            friend = next(
                (
                    m.id
                    for m in mentions
                    if m.i >= after_with and m.id and getattr(snap.entities.get(m.id), "kind", "") == "pc"
                ),
                None,
            )
            if friend is not None or "follow" in lemmas:
                company[pc] = friend
    for pc, friend in company.items():
        if friend is not None and friend in moves:
            moves[pc] = moves[friend]
        elif friend is None and len(set(moves.values())) == 1:
            moves[pc] = next(iter(moves.values()))
    snap.cache[key] = moves
    return moves
