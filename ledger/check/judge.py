"""Check a narration against the ledger as its audience may see it, and against this round's dice.

:func:`check` extracts claims (:mod:`ledger.check.extract`), gives each a verdict, and looks for secret leaks.
Only asserted claims can be contradicted: dialogue, memories, rumours, plans and negations are reported as
``unknown``. Changes the round and the narration itself make (the party going somewhere, an item handed
over, a death, a debt paid this round) are replayed in text order by :mod:`ledger.check.replay`, so later
sentences may rely on them. Claim kinds this module does not know go to :mod:`ledger.check.judge_meaning`.
A claim the ledger has no record for is ``unknown``, never a conflict: the narrator may invent scenery. Pure
and deterministic; no database.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ledger.check.choices import CLUSTERS, LEMMA_CLUSTER, commitments, decides, goes, speaks, told_now
from ledger.check.claims import CheckReport, Claim, Leak, Verdict
from ledger.check.extract import (
    CHOICE,
    INCAPACITATING,
    MOTION,
    SPEECH,
    Extraction,
    content_words,
    extract,
)
from ledger.check.extract.acquaintance import stranger_verdict
from ledger.check.extract.item_scene import tells_finding
from ledger.check.extract.relations import is_kin_kind, kin_worded
from ledger.check.extract.senseless import sleeper_does
from ledger.check.extract.thread_roles import direction_conflict
from ledger.check.extract.verbs import lemma as verb_lemma
from ledger.check.extract.verbs import verb_class
from ledger.check.replay import PARTY, Replay
from ledger.check.snapshot import Entity, WorldSnapshot

# Small gestures a narrator may give any character without taking a choice away from its player.
_GESTURES = frozenset(
    [
        "nod",
        "bow",
        "smile",
        "grin",
        "frown",
        "scowl",
        "shrug",
        "sigh",
        "wince",
        "flinch",
        "blink",
        "tense",
        "straighten",
        "shiver",
        "swallow",
        "grimace",
        "pause",
        "hesitate",
    ]
)
_STRONG_CONDITIONS = frozenset(
    {"unconscious", "paralyzed", "paralysed", "petrified", "stunned", "restrained"}
)
_CORPSE_VERBS = frozenset({"lie", "rest", "remain", "be", "sprawl"})
# what a paralyzed or unconscious body may still be told doing: lying, standing frozen, breathing
_HELPLESS_VERBS = _CORPSE_VERBS | {
    "breathe",
    "sleep",
    "stay",
    "stare",
    "stand",
    "sit",
    "kneel",
    "slump",
    "hang",
    # what a senseless body does of itself, without acting: "twitches in his sleep", "groans but sleeps on"
    "twitch",
    "moan",
    "groan",
    "whimper",
    "shiver",
    "tremble",
    "shudder",
    "wheeze",
    "snore",
    "cough",
    "sweat",
    "bleed",
}
# what may follow a verb used without an object: a preposition of rest or a conjunction ("fidgets on her
# barrel", "yawns and stretches"); never one of direction, which would take the PC somewhere
_IDLE_AFTER = frozenset(
    {"at", "on", "in", "by", "against", "under", "over", "with", "and", "beside", "behind", "near", ".", "!"}
)
_DETERMINERS = frozenset({"a", "an", "the", "his", "her", "their", "its", "my", "your", "our"})
# giving up an action: a narrator may not make a PC drop what their player chose to do
_ABANDON = frozenset({"abandon", "quit", "forsake", "desert", "neglect", "cease"})


def _visible(audience: str) -> frozenset[str] | None:
    """Visibilities ``audience`` may see; ``None`` means everything (the GM)."""
    if audience == "gm":
        return None
    if audience == "public":
        return frozenset({"public"})
    if audience.startswith("player:"):
        return frozenset({"public", "party", audience})
    return frozenset({"public", "party"})


class _Judge:
    def __init__(self, snap: WorldSnapshot, audience: str) -> None:
        self.snap = snap
        self.vis = _visible(audience)
        self.story = Replay.start(snap)
        self.leaks: list[Leak] = []
        self.died = snap.round.died()
        self.moved = snap.round.moved()
        # conditions this round inflicted: the narration may show the creature acting before it fell
        self.downed = frozenset(
            (str(ch["entity"]), str(ch["condition"]))
            for ch in snap.round.changes
            if ch.get("kind") == "add_condition"
        ) | {(a.target, "unconscious") for a in snap.round.actions if a.target and a.target_down}
        self.lifted: set[tuple[str, str]] = set()  # conditions the narration lifts ("comes to", "unties her")

    def sees(self, visibility: str) -> bool:
        return self.vis is None or visibility in self.vis

    def entity(self, eid: str) -> Entity | None:
        return self.snap.entities.get(eid)

    def judge(self, c: Claim) -> Verdict:
        if not c.modality.asserted:
            if c.kind in ("holds", "relation"):
                # a secret stays secret inside a plan, a memory or a line of dialogue: look for leaks only
                saved = self.story.copy()
                getattr(self, f"_{c.kind}")(c)
                self.story = saved
            return Verdict(c, "unknown", None, "not asserted (" + _why(c) + ")")
        handler = getattr(self, f"_{c.kind}", None)
        v: Verdict = handler(c) if handler else self._meaning(c)
        if v.verdict == "contradicted" and v.refuted_by in self.snap.superseded:
            # the snapshot already holds the retconned value: telling the old one is still a conflict,
            # but the GM should see that the record was rewritten
            note = next(r for r in self.snap.retcons if v.refuted_by in r.supersedes)
            return Verdict(
                c, "contradicted", v.refuted_by, f"{v.reason} (retconned in {note.id}: {note.reason})"
            )
        return v

    def _meaning(self, c: Claim) -> Verdict:
        """A claim kind this module does not judge: the meaning-level judge's, if it is installed."""
        try:
            from ledger.check import judge_meaning
        except ImportError:
            return Verdict(c, "unknown")
        if c.kind == "condition_gone" and c.detail == judge_meaning.LIFTED:
            self.lifted.add((c.args[0], c.args[1]))  # later acts are told after the change
        return judge_meaning.verdict(c, self.snap) or Verdict(c, "unknown")

    # --- life, place, condition ---------------------------------------------------------------------------

    def _alive_record(self, eid: str) -> str:
        return f"{eid}-alive"

    def _acts(self, c: Claim) -> Verdict:
        eid = c.args[0]
        e = self.entity(eid)
        if e is None:
            return Verdict(c, "unknown")
        if not e.alive and eid not in self.died and not _posture(c.detail):
            return Verdict(c, "contradicted", self._alive_record(eid), f"{e.name} is dead")
        if eid in self.story.dead and not _posture(c.detail):
            return Verdict(
                c, "contradicted", self._alive_record(eid), f"{e.name} died earlier in this narration"
            )
        bad = sorted(k for k in e.conditions & INCAPACITATING if (eid, k) not in self.downed | self.lifted)
        # "Even paralyzed, the torchbearer radiates hatred": a sentence that names the condition itself tells
        # what the helpless body still does, knowingly
        told = set(c.text.lower().replace(",", " ").split())
        bad = [k for k in bad if k not in told and not (k == "paralyzed" and "paralysed" in told)]
        # "Robin stirs, sighs, and sleeps on": a sentence telling the sleep tells what the sleeper's body does
        bad = [k for k in bad if not sleeper_does(k, c.detail, c.text)]
        if bad and c.detail not in _HELPLESS_VERBS and not _posture(c.detail):
            return Verdict(c, "contradicted", f"{eid}-condition-{bad[0]}", f"{e.name} is {bad[0]}")
        held = sorted(k for k in e.conditions & {"restrained", "grappled"} if (eid, k) not in self.lifted)
        if held and c.detail in MOTION:
            return Verdict(c, "contradicted", f"{eid}-condition-{held[0]}", f"{e.name} is {held[0]}")
        return Verdict(c, "supported" if e.alive or eid in self.died else "unknown")

    def _dead(self, c: Claim) -> Verdict:
        eid = c.args[0]
        e = self.entity(eid)
        if e is None:
            return Verdict(c, "unknown")
        if not e.alive:
            self.story.dead.add(eid)
            return Verdict(c, "supported")
        on = self.snap.round.actions_on(eid)
        ref = f"round:{on[-1].id}" if on else self._alive_record(eid)
        return Verdict(c, "contradicted", ref, f"{e.name} is alive")

    def _alive(self, c: Claim) -> Verdict:
        e = self.entity(c.args[0])
        if e is None:
            return Verdict(c, "unknown")
        if e.alive:
            return Verdict(c, "supported")
        return Verdict(c, "contradicted", self._alive_record(e.id), f"{e.name} is dead")

    def _present(self, c: Claim) -> Verdict:
        eid = c.args[0]
        e = self.entity(eid)
        scene = self.snap.scene
        if e is None or scene.location is None or eid in self.story.moving or eid in self.moved:
            return Verdict(c, "unknown")
        if not e.alive and eid not in self.died:
            if _posture(c.detail):
                return Verdict(c, "unknown", None, "a body lying where it lies")
            return Verdict(c, "contradicted", self._alive_record(eid), f"{e.name} is dead")
        if eid in scene.present:
            return Verdict(c, "supported")
        if e.location is None or not self.sees(e.visibility):
            return Verdict(c, "unknown")
        if self.story.is_here(e.location):
            return Verdict(c, "supported", None, "where the narration is, or has gone")
        if self.story.followed_to(e.location, c.text):
            return Verdict(c, "supported", None, "where the narration followed someone of the scene")
        where = self.entity(e.location)
        return Verdict(
            c,
            "contradicted",
            f"{eid}-location",
            f"{e.name} is at {where.name if where else e.location}, not here",
        )

    def _at(self, c: Claim) -> Verdict:
        eid, place = c.args
        if place == "*moving*":
            self.story.moving.add(eid)
            return Verdict(c, "unknown", None, "moves in this narration")
        if c.detail.startswith("to:"):
            e = self.entity(eid)
            if eid == PARTY or (e is not None and e.kind == "pc") or not self.story.is_here(place):
                # the party goes somewhere, or someone leaves for another place: later sentences follow
                self.story.go(eid, place)
            # someone coming to where the narration is stays judged by its presence claim
            return Verdict(c, "unknown", None, "goes there in this narration")
        if eid == PARTY:
            return Verdict(c, "unknown")
        e = self.entity(eid)
        if e is None or e.location is None or eid in self.story.moving or eid in self.moved:
            return Verdict(c, "unknown")
        if not e.alive and eid not in self.died and not _posture(c.detail):
            return Verdict(c, "contradicted", self._alive_record(eid), f"{e.name} is dead")
        if self.snap.within(e.location, place) or self.snap.within(place, e.location):
            return Verdict(c, "supported")
        where = self.entity(e.location)
        return Verdict(
            c, "contradicted", f"{eid}-location", f"{e.name} is at {where.name if where else e.location}"
        )

    def _condition(self, c: Claim) -> Verdict:
        eid, cond = c.args
        e = self.entity(eid)
        if e is None:
            return Verdict(c, "unknown")
        if cond in e.conditions or (cond == "unconscious" and not e.alive):
            return Verdict(c, "supported")
        if cond == "unconscious":
            on = self.snap.round.actions_on(eid)
            if any(a.target_down for a in on):
                return Verdict(c, "supported")
            if on:
                return Verdict(c, "contradicted", f"round:{on[-1].id}", f"{e.name} is still standing")
        if cond in _STRONG_CONDITIONS:
            return Verdict(c, "contradicted", f"{eid}-condition-{cond}", f"{e.name} is not {cond}")
        return Verdict(c, "unknown")

    # --- dice ---------------------------------------------------------------------------------------------

    def _hit(self, c: Claim) -> Verdict:
        actor, target = c.args
        acts = [a for a in self.snap.round.actions_by(actor) if a.target]
        if not acts:
            return Verdict(c, "unknown")
        on = [a for a in acts if a.target == target]
        if on:
            if any(a.landed for a in on):
                return Verdict(c, "supported")
            return Verdict(c, "contradicted", f"round:{on[0].id}", "the attack missed")
        landed = [a for a in acts if a.landed]
        ref = (landed or acts)[0]
        return Verdict(c, "contradicted", f"round:{ref.id}", f"the attack was aimed at {ref.target}")

    def _missed(self, c: Claim) -> Verdict:
        actor, target = c.args
        on = [a for a in self.snap.round.actions_by(actor) if a.target == target]
        if not on:
            return Verdict(c, "unknown")
        if all(a.landed for a in on):
            return Verdict(c, "contradicted", f"round:{on[0].id}", "the attack hit")
        return Verdict(c, "supported")

    def _damaged(self, c: Claim) -> Verdict:
        eid = c.args[0]
        on = self.snap.round.actions_on(eid)
        if not on:
            return Verdict(c, "unknown")
        if any(a.damage > 0 or a.outcome in ("hit", "critical") for a in on):
            return Verdict(c, "supported")
        return Verdict(c, "contradicted", f"round:{on[0].id}", "nothing hurt them this round")

    # --- inventory ----------------------------------------------------------------------------------------

    def _holds(self, c: Claim) -> Verdict:
        holder, item = c.args
        details: dict[str, str] = {}
        for part in filter(None, c.detail.split(";")):
            sep = "=" if "=" in part else ":"
            name, _, value = part.partition(sep)
            details[name] = value
        give_to = details.get("give")
        it = self.entity(item)
        name = it.name if it else item
        v = self._holds_now(c, holder, item, name, details)
        if give_to and v.verdict != "contradicted":
            self.story.holder[item] = give_to
        if "acquire" in details and v.verdict != "contradicted":
            self.story.holder[item] = holder
        return v

    def _kept_elsewhere(self, item: str) -> str | None:
        """The name of the one who has ``item``, when a thing told lying in the scene ("here" claims) is
        held only by creatures, alive, none of them in the scene nor where the narration has gone."""
        scene, held = self.snap.scene.location, self.snap.holders_of(item)
        if scene is None or not held or self.snap.round.given_up(item):
            return None
        names: list[str] = []
        for h in held.values():
            e = self.entity(h.holder)
            if e is None or e.kind not in ("pc", "npc", "monster") or not e.alive or e.location is None:
                return None
            if e.id in self.snap.scene.present or e.id in self.story.moving or not self.sees(h.visibility):
                return None
            where = e.location
            if self.story.is_here(where) or self.snap.within(where, scene) or self.snap.within(scene, where):
                return None
            names.append(e.name)
        return names[0]

    def _holds_now(self, c: Claim, holder: str, item: str, name: str, details: dict[str, str]) -> Verdict:
        if item in self.story.holder:
            if self.story.holder[item] == holder:
                return Verdict(c, "supported", None, "handed over in this narration")
            return Verdict(c, "unknown", None, "changed hands in this narration")
        held = self.snap.holders_of(item)
        fate = self.snap.fates.get(item)
        if "exists" in details:
            # told lying somewhere now: only a recorded end (sold, destroyed) can refute that
            if (
                not held
                and fate is not None
                and self.sees(fate.visibility)
                and not self.snap.round.given_up(item)
            ):
                return Verdict(c, "contradicted", f"{item}-holder", f"{_the(name)} was {fate.fate}")
            away = self._kept_elsewhere(item) if "here" in details else None
            if away is not None:
                return Verdict(c, "contradicted", f"{item}-holder", f"{_the(name)} is with {away}, not here")
            return Verdict(c, "unknown")
        owner = self.entity(holder)
        if not held and fate is not None and owner is not None and not owner.alive:
            # "Drip's body went out through the grate, and his lantern with it": the dead man's things are
            # told as they were; whether he acts is the acts claim's question
            return Verdict(c, "unknown", None, "the belongings of the dead")
        if not held:
            if fate is not None and fate.fate == "lost" and ("found" in details or tells_finding(c.text)):
                self.story.holder[item] = holder  # "Bram recovers the lost sextant from the cistern"
                return Verdict(c, "unknown", None, "found again in this narration")
            if (
                fate is not None
                and self.sees(fate.visibility)
                and holder not in self.snap.round.given_up(item)
            ):
                return Verdict(c, "contradicted", f"{item}-holder", f"{_the(name)} was {fate.fate}")
            if holder in self.snap.round.given_up(item):
                return Verdict(c, "supported", None, "used this round")
            return Verdict(c, "unknown")
        if "acquire" in details:
            return Verdict(c, "unknown")
        mine = held.get(holder)
        if mine is not None and not self.sees(mine.visibility):
            self.leaks.append(Leak(f"{item}-holder", c.text, c.span, mine.visibility))
            return Verdict(c, "unknown", None, "holding not visible to the audience")
        if mine is None:
            if holder in self.snap.round.given_up(item):
                return Verdict(c, "supported", None, "handed over this round")
            visible = [h for h in held.values() if self.sees(h.visibility)]
            if not visible:
                return Verdict(c, "unknown")
            who = self.entity(visible[0].holder)
            return Verdict(
                c,
                "contradicted",
                f"{item}-holder",
                f"{_the(name)} is held by {who.name if who else visible[0].holder}",
            )
        used = sum(
            int(ch.get("quantity", 1))
            for ch in self.snap.round.changes
            if ch.get("kind") == "transfer_item"
            and ch.get("item") == item
            and ch.get("from_holder") == holder
        )
        if "qty" in details:
            want = int(details["qty"])
            if want not in (mine.quantity, mine.quantity + used):
                return Verdict(c, "contradicted", f"{item}-quantity", f"holds {mine.quantity}, not {want}")
        if "qty>" in details:
            want = int(details["qty>"])
            if want > mine.quantity + used:
                return Verdict(c, "contradicted", f"{item}-quantity", f"holds only {mine.quantity}")
        return Verdict(c, "supported")

    # --- relationships, threads ---------------------------------------------------------------------------

    def _relation(self, c: Claim) -> Verdict:
        a, b, kind = c.args
        edges = self.snap.edges_by_pair.get(frozenset((a, b)), ())
        if frozenset((a, b)) in self.snap.round.touched_edges():
            return Verdict(c, "supported", None, "changed this round")
        shown = [e for e in edges if self.sees(e.visibility)]
        hidden = [e for e in edges if not self.sees(e.visibility)]
        if kind == "stranger":
            return stranger_verdict(c, shown)
        if kind == "notkin":
            kin = [e for e in shown if is_kin_kind(e.kind)]
            if kin:
                return Verdict(
                    c, "contradicted", kin[0].id, f"recorded tie is {kin[0].kind}: {kin[0].reason}"
                )
            return Verdict(c, "unknown")
        if kind == "kin":
            kin = [e for e in edges if kin_worded(e.kind)]
            if any(self.sees(e.visibility) for e in kin):
                return Verdict(c, "supported")
            if kin:
                self.leaks.append(Leak(kin[0].id, c.text, c.span, kin[0].visibility))
                return Verdict(c, "unknown")
            if shown:
                return Verdict(c, "contradicted", shown[0].id, f"recorded tie is {shown[0].kind}, not kin")
            return Verdict(c, "unknown")
        sign = 1 if kind == "positive" else -1
        for e in shown:
            if e.attitude * sign <= -30:
                return Verdict(c, "contradicted", e.id, f"{e.kind} ({e.attitude:+d}): {e.reason}")
        for e in hidden:
            if e.attitude * sign >= 30:
                self.leaks.append(Leak(e.id, c.text, c.span, e.visibility))
        if any(e.attitude * sign >= 30 for e in shown):
            return Verdict(c, "supported")
        return Verdict(c, "unknown")

    def _thread_status(self, c: Claim) -> Verdict:
        tid, status = c.args
        t = self.snap.threads.get(tid)
        if t is None:
            return Verdict(c, "unknown")
        if not self.sees(t.visibility):
            return Verdict(c, "unknown")
        # "Zaynab owes the Farba" of the Farba's favour to her: the sides the wrong way round
        swapped = direction_conflict(t, c.detail, self.snap)
        if swapped is not None:
            return Verdict(c, "contradicted", tid, swapped)
        now = self.story.threads.get(tid) or self.snap.round.thread_moves().get(tid, t.status)
        if now == status or (status == "unbroken" and now in ("open", "settled")):
            return Verdict(c, "supported")  # an oath kept so far is one still standing or fulfilled
        if c.detail.startswith("now;") and now == "open" and status in ("settled", "broken"):
            # "Tam counts out the silver and pays off his debt": a deed told happening in this narration,
            # replayed from here on ("the debt is settled" after it is then true)
            self.story.threads[tid] = status
            return Verdict(c, "supported", None, f"the {t.kind} is {status} in this narration")
        if now == "open" and self._submitted_status(t.parties, status):
            # "Tamar counts out the forty silver; the debt is paid": this round's doing, replayed from here on
            self.story.threads[tid] = status
            return Verdict(c, "supported", None, f"the {t.kind} is {status} by this round's submission")
        return Verdict(c, "contradicted", tid, f"the {t.kind} is {now}, not {status}")

    def _submitted_status(self, parties: tuple[str, ...], status: str) -> bool:
        """True when a PC party to a thread submitted this round what brings it to ``status`` ("I pay Selim
        the forty silver I owe him" settles; "I break my oath" breaks), by the lemmas of their words."""
        wanted = _STATUS_LEMMAS.get(status, frozenset())
        for pc in parties:
            wrote = self.snap.round.submissions.get(pc, "")
            # the player's own deed ("I pay", "we finally repay"), not words they quote or ask about
            words = re.sub(r"[\"“][^\"”]*[\"”]", " ", wrote.lower()).replace(",", " ").split()
            for n, w in enumerate(words[:-1]):
                nxt = words[n + 2] if words[n + 1].endswith("ly") and n + 2 < len(words) else words[n + 1]
                if w in ("i", "we") and verb_lemma(nxt) in wanted:
                    return True
        return False

    def _knows(self, c: Claim) -> Verdict:
        who, key = c.args
        f = self.snap.facts.get(key)
        if f is None or not f.known_by:
            return Verdict(c, "unknown")
        if who in f.known_by:
            return Verdict(c, "supported")
        e = self.entity(who)
        return Verdict(c, "contradicted", key, f"{e.name if e else who} never witnessed or was told this")

    # --- player agency ------------------------------------------------------------------------------------

    def _idle_business(self, pc: str, rest: str) -> bool:
        """ "Tamsin pats her coat", "Brakka unslings her lute and picks out a song": a PC whose player wrote
        nothing may be shown handling their own things, as long as no one else is involved and they stay."""
        verb, _, clause = rest.partition(":")
        e = self.entity(pc)
        words = clause.lower().replace(",", " ").split()
        if verb in _ABANDON or e is None:
            return False
        if {"off", "away"} & set(words) or goes(verb, clause):
            return False  # "shoulders his greataxe and stomps off": leaving is a choice
        own = {"his"} if e.pronoun == "he" else {"her"} if e.pronoun == "she" else {"their", "his", "her"}
        # "Tamsin yawns", "fidgets on her barrel", "scratches at a flea bite": no object, nothing taken up
        after = [w for w in words[1:3] if not w.endswith("ly")]
        intransitive = not after or after[0] in _IDLE_AFTER
        now, got_by = told_now(clause)  # "the scimitar she took from Maro": a thing of hers, Maro long gone
        if not own & set(words) and not intransitive and (got_by is None or got_by != e.pronoun):
            return False
        low = f" {' '.join(now.lower().replace(',', ' ').split())} "
        for other in self.snap.entities.values():
            if other.id == pc or other.kind not in ("pc", "npc", "monster"):
                continue
            if any(f" {a.name.lower()} " in low for a in other.names()):
                return False
        return True

    def _pc_choice(self, c: Claim) -> Verdict:
        pc = c.args[0]
        rnd = self.snap.round
        if not rnd.acted and not rnd.submissions:
            return Verdict(c, "unknown", None, "no round facts")
        e = self.entity(pc)
        name = e.name if e else pc
        wrote = rnd.submissions.get(pc)
        mode, _, rest = c.detail.partition(":")
        if mode == "do" and rest.split(":", 1)[0] in _GESTURES:
            return Verdict(c, "unknown", None, "a gesture, not a choice")
        if wrote is None:
            if pc in rnd.acted and mode == "do":
                return Verdict(c, "unknown", None, "default action")
            if mode == "do" and self._idle_business(pc, rest):
                return Verdict(c, "unknown", None, "idle business with their own things")
            return Verdict(c, "contradicted", f"round:submission-{pc}", f"{name}'s player submitted nothing")
        sub = content_words(wrote)
        if mode == "say":
            if commitments(rest) - commitments(wrote):
                # "I will do whatever you ask": a promise the player never made, however few words it takes
                why = f"{name}'s player did not say that"
                return Verdict(c, "contradicted", f"round:submission-{pc}", why)
            said = content_words(rest)
            if not said or len(said & sub) / len(said) >= 0.5:
                return Verdict(c, "supported")
            return Verdict(c, "contradicted", f"round:submission-{pc}", f"{name}'s player did not say that")
        if mode == "do":
            verb, _, clause_text = rest.partition(":")
            words = clause_text.lower().split()
            leaves = verb == "leave" or (verb in MOTION and ("off" in words or "away" in words))
            if verb in _ABANDON and content_words(clause_text) & sub:
                # "Mira abandons her watch on the rooftops": giving up what the player chose to do
                return Verdict(c, "contradicted", f"round:submission-{pc}", f"{name}'s player did not stop")
            if leaves and not content_words(clause_text) & sub and pc not in self.story.movers:
                # walking out of the scene is a choice the player did not make
                return Verdict(c, "contradicted", f"round:submission-{pc}", f"{name}'s player did not leave")
            return Verdict(c, "supported", None, "the player acted this round")
        lemma = mode
        if lemma in SPEECH and lemma not in CHOICE and speaks(wrote):
            return Verdict(c, "supported", None, "reported speech of what the player said")
        if lemma in SPEECH and lemma not in CHOICE and pc in rnd.acted and not decides(rest):
            return Verdict(c, "supported", None, "words spoken while doing what the player submitted")
        clause = content_words(rest)
        wrote_low = wrote.lower()
        cluster = LEMMA_CLUSTER.get(lemma)
        if cluster and any(w in wrote_low.split() or w in sub for w in CLUSTERS[cluster]):
            return Verdict(c, "supported")
        if cluster:
            # a promise, an agreement, a refusal, a confession: the choice itself is new, whatever it is about
            why = f"{name}'s player did not choose that"
            return Verdict(c, "contradicted", f"round:submission-{pc}", why)
        if clause and len(clause & sub) / len(clause) >= 0.5:
            return Verdict(c, "supported")
        if lemma not in CHOICE and clause & sub:
            return Verdict(c, "supported")
        return Verdict(c, "contradicted", f"round:submission-{pc}", f"{name}'s player did not choose that")


# what a player's words must do for a thread to reach a status in this round's doing
_STATUS_LEMMAS: dict[str, frozenset[str]] = {
    "settled": frozenset(
        {
            "pay",
            "repay",
            "settle",
            "square",
            "clear",
            "keep",
            "fulfil",
            "fulfill",
            "honour",
            "honor",
            "discharge",
        }
    ),
    "broken": frozenset({"break", "betray", "renounce", "forsake", "abandon", "forswear"}),
}


def _posture(detail: str) -> bool:
    """True when an acts/at/present claim's verb tells a body's posture ("lies", "hangs", "rests"), which a
    corpse or a helpless creature may be told doing without acting."""
    return detail in _CORPSE_VERBS or verb_class(detail) == "posture"


def _the(name: str) -> str:
    """ "silver dagger" -> "the silver dagger"; "the crown of Highmere" stays as it is."""
    return name if name.lower().startswith("the ") else f"the {name}"


def _why(c: Claim) -> str:
    m = c.modality
    return ", ".join(
        k
        for k, on in (
            ("dialogue", m.in_dialogue),
            ("hypothetical", m.hypothetical),
            ("memory", m.memory),
            ("rumour", m.rumour),
            ("negated", m.negated),
        )
        if on
    )


def check(text: str, snapshot: WorldSnapshot, *, audience: str = "party") -> CheckReport:
    """Check ``text`` against ``snapshot`` as ``audience`` (public|party|player:<id>|gm) may see it.

    Returns a :class:`CheckReport` whose verdict is ``conflict`` when any asserted claim is contradicted or
    the text reveals a record the audience may not see. Never raises on odd text.
    """
    ex = extract(text, snapshot)
    judge = _Judge(snapshot, audience)
    verdicts: list[Verdict] = []
    seen: set[tuple[str, tuple[str, ...], tuple[int, int], str]] = set()
    for c in ex.claims:
        key = (c.kind, c.args, c.span, c.detail)
        if key in seen:
            continue
        seen.add(key)
        verdicts.append(judge.judge(c))
    leaks = list(judge.leaks)
    for m in ex.mentions:
        for eid in m.ids[:1]:
            e = snapshot.entities.get(eid)
            if e is None:
                continue
            span = (ex.tokens[m.i].start, ex.tokens[m.j - 1].end)
            words = text[span[0] : span[1]]
            if not judge.sees(e.visibility):
                leaks.append(Leak(eid, words, span, e.visibility))
            elif not judge.sees(m.alias_visibility):
                leaks.append(Leak(f"{eid}-identity", words, span, m.alias_visibility))
    # an item whose holder is secret, named in the same sentence as that holder, gives the holder away
    by_sentence: dict[int, list[tuple[str, tuple[int, int]]]] = {}
    for m in ex.mentions:
        if m.id is None:
            continue
        st = ex.tokens[m.i].start
        idx = next((n for n, (a, b) in enumerate(ex.sentences) if a <= st <= b), -1)
        by_sentence.setdefault(idx, []).append((m.id, (st, ex.tokens[m.j - 1].end)))
    for found in by_sentence.values():
        named = {eid for eid, _ in found}
        for eid, span in found:
            for h in snapshot.holders_of(eid).values():
                if h.holder in named and not judge.sees(h.visibility):
                    leaks.append(Leak(f"{eid}-holder", text[span[0] : span[1]], span, h.visibility))
    for fact_key, a, b in ex.tells:
        f = snapshot.facts[fact_key]
        if not judge.sees(f.visibility):
            leaks.append(Leak(fact_key, text[a:b], (a, b), f.visibility))
    for tid, a, b in ex.thread_mentions:
        t = snapshot.threads[tid]
        if not judge.sees(t.visibility):
            leaks.append(Leak(tid, text[a:b], (a, b), t.visibility))
    leaks += [
        Leak(lk.record, text[lk.span[0] : lk.span[1]], lk.span, lk.visibility)
        for lk in _paraphrased_secrets(ex, snapshot, judge)
    ]
    uniq: dict[tuple[str, tuple[int, int]], Leak] = {}
    for lk in leaks:
        uniq.setdefault((lk.record, lk.span), lk)
    verdicts.sort(key=lambda v: v.claim.span[0])
    bad = any(v.verdict == "contradicted" for v in verdicts) or bool(uniq)
    return CheckReport(
        verdict="conflict" if bad else "clean",
        claims=tuple(verdicts),
        new_entities=tuple(ex.new_entities),
        leaks=tuple(uniq.values()),
    )


# How many arguments each claim kind takes; an externally supplied claim of another shape is not judged.
_ARITY: dict[str, int] = {
    "alive": 1,
    "dead": 1,
    "at": 2,
    "holds": 2,
    "condition": 2,
    "relation": 3,
    "thread_status": 2,
    "present": 1,
    "knows": 2,
    "acts": 1,
    "hit": 2,
    "missed": 2,
    "damaged": 1,
    "pc_choice": 1,
    # meaning-level kinds (ledger.check.judge_meaning)
    "health": 2,
    "senses": 2,
    "condition_gone": 2,
    "kinship": 3,
    "count": 2,
    "attitude": 3,
}


def judge_claims(
    claims: Iterable[Claim], snapshot: WorldSnapshot, *, audience: str = "party"
) -> tuple[Verdict, ...]:
    """Give each externally supplied claim (e.g. an LLM extractor's) a verdict by the rules of :func:`check`.

    Returns one verdict per claim, in the order given, which is also the order they are judged in: pass them
    in text order, since changes the narration makes (a hand-over, a death) are replayed for the claims after
    them. A claim whose ``args`` do not fit its kind is ``unknown`` ("malformed claim"), never a conflict.
    Leaks found on the way are not returned (:func:`check` reports leaks). Pure; claims shaped like those of
    :mod:`ledger.check.extract` (``detail`` included) never make it raise.
    """
    judge = _Judge(snapshot, audience)
    out: list[Verdict] = []
    for c in claims:
        if _ARITY.get(c.kind) != len(c.args):
            out.append(Verdict(c, "unknown", None, "malformed claim"))
            continue
        out.append(judge.judge(c))
    return tuple(out)


def _paraphrased_secrets(ex: Extraction, snapshot: WorldSnapshot, judge: _Judge) -> list[Leak]:
    """Secret facts told in other words (:mod:`ledger.check.leaks`): the secret's people named together with
    its
    relation in any words, or its subject with most of its content, by name, alias, title or pronoun."""
    from ledger.check.leaks import paraphrased_leaks

    ranges: list[tuple[int, int]] = []
    k = 0
    for a, b in ex.sentences:
        while k < len(ex.tokens) and ex.tokens[k].start < a:
            k += 1
        lo = k
        while k < len(ex.tokens) and ex.tokens[k].start < b:
            k += 1
        if k > lo:
            ranges.append((lo, k))
    return [
        Leak(key, "", span, visibility)
        for key, visibility, span in paraphrased_leaks(ex.tokens, ex.mentions, ranges, snapshot, judge.sees)
    ]
