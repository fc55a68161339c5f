"""Players nominate what should be remembered: accepted only when the record supports it.

``/remember text:<...>`` (and ``remember <text>`` in ``tablekeeper play``) nominates a fact, a promise or a
clue from play ("Marta promised us a boat at dawn"). It lands only when:

- its content words were actually said in one round: in the players' submitted words, the posted narration,
  or a private note sent to the nominator (then it stays private: visibility ``player:<seat>``);
- by someone who was there: the nominator's PC took part in that round, and every NPC it names is named in
  that round's record;
- the ledger does not contradict it (the fact check, as the nominator may see the world).

It lands as a thread (a promise becomes a favour thread from the NPC to the nominator's PC, a job offer a
quest thread) or a narrative event (a clue a discovery, anything else talk) with the round as its source
and cause ``nomination-<session>.<round>-<user>``. Anything else goes to the GM's queue (``/gm proposals``,
status ``queued``) with the reason, and the reply says plainly which part was not found.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from bot import views as v
from bot.errors import InvalidAction
from bot.narrator.proposals import NominationView
from bot.table.context import GM_VIEW, seat
from bot.text import clean_text
from ledger import service
from ledger.errors import LedgerError
from ledger.store import proposals as store

if TYPE_CHECKING:
    from bot.table.context import Lookups, TableContext
    from ledger.check.snapshot import WorldSnapshot
    from ledger.store.proposals import RoundRecord

MAX_NOMINATION_CHARS = 300

_STOP = frozenset(
    " ".join(
        (
            "a an the and or but if then so of to in on at by for with from into onto over under about as is",
            "are was were be been being am do does did has have had will would shall should can could may",
            "might must not no this that these those there here it its he him his she her hers they them",
            "their we us our you your i me my mine who whom whose which what when where why how all any some",
            "each every one two just very too also said says say told tell tells telling asked ask asks",
            "that's it's we'll he'll she'll they'll i'll remember remembered",
        )
    ).split()
)
_PROMISE = frozenset({"promis", "swear", "swor", "sworn", "vow", "pledg", "owe", "offer"})
_QUEST = frozenset({"quest", "job", "task", "bounty", "reward", "hire", "hir"})
_CLUE = frozenset({"secret", "clue", "learn", "learnt", "found", "find", "discover", "hidden", "hid", "know"})
#: Words that stand for one another in play ("swore" for "promised"): each maps to a shared stem.
_SAME = {"swear": "promis", "swor": "promis", "sworn": "promis", "vow": "promis", "pledg": "promis"}
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def stem(word: str) -> str:
    """A crude English stem (``promised``/``promises`` -> ``promis``), the same for record and nomination."""
    w = word.lower().strip("'-")
    w = w.removesuffix("'s")
    for suffix in ("ing", "ied", "ed", "es", "s", "e"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)] + ("y" if suffix == "ied" else "")
            break
    return _SAME.get(w, w)


def content_words(text: str) -> dict[str, str]:
    """The nomination's content words: stem -> the word as written (function words and pronouns left out)."""
    out: dict[str, str] = {}
    for match in _WORD.finditer(text):
        word = match.group(0)
        if word.lower() in _STOP or len(word) < 3:
            continue
        out.setdefault(stem(word), word)
    return out


def _stems(texts: Iterable[str]) -> set[str]:
    return {stem(m.group(0)) for text in texts for m in _WORD.finditer(text)}


class Nominations:
    """``remember``: a player's nomination, checked against the record and the ledger."""

    def __init__(self, ctx: TableContext, lookups: Lookups) -> None:
        self.ctx = ctx
        self.lookups = lookups

    async def remember(self, where: v.Where, caller: v.Caller, *, text: str) -> NominationView:
        """Nominate ``text`` to be remembered; it lands if the record supports it, else waits for the GM."""
        from ledger.check.judge import check
        from ledger.check.snapshot_sql import snapshot_from_ledger
        from ledger.store.db import begin_write
        from ledger.store.writes import stage_changes

        said = clean_text(text or "").strip()
        if not said:
            raise InvalidAction(
                "Say what should be remembered, e.g. /remember Marta promised us a boat at dawn."
            )
        if len(said) > MAX_NOMINATION_CHARS:
            raise InvalidAction(f"A nomination is at most {MAX_NOMINATION_CHARS} characters.")
        words = content_words(said)
        if not words:
            raise InvalidAction("That nomination has no words to look for in the record.")
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            _member, pc_id = await self.lookups.player(s, campaign, caller)
            pc = await service.get_entity(s, campaign_id=campaign.id, entity_id=pc_id, viewer=GM_VIEW)
            handle = seat(pc.owner_user_id, caller.user_id)
            records = await store.round_records(s, campaign_id=campaign.id, user_id=caller.user_id)
            snapshot = await snapshot_from_ledger(s, campaign_id=campaign.id, audience=GM_VIEW)
            latest = await service.current_session_number(s, campaign_id=campaign.id)
        npcs = _named_npcs(said, snapshot)
        best = _best_round(records, words, pc_id, npcs, snapshot)
        reason, missing = "", tuple[str, ...]()
        record, private = None, False
        if best is None:
            reason = "nothing of it was said in any round you played"
            missing = tuple(words.values())
        else:
            record, missing, absent, private = best
            if missing:
                reason = "not found in the record: " + ", ".join(f"'{w}'" for w in missing)
            elif absent:
                reason = (
                    f"{', '.join(absent)} did not take part in round {record.session_number}.{record.number}"
                )
        if not reason:
            audience = f"player:{handle}"
            report = check(said, snapshot, audience=audience)
            refuted = [x.reason or f"{x.claim.text!r} contradicts the ledger" for x in report.conflicts()]
            if refuted:
                reason = f"the ledger says otherwise: {refuted[0]}"
        kind, change = _landing(said, words, pc_id, npcs, private, handle, record)
        source = f"round {record.session_number}.{record.number}" if record is not None else None
        payload: dict[str, Any] = {
            "round": f"{record.session_number}.{record.number}" if record is not None else "",
            "text": said,
            "missing": list(missing),
        }
        visibility = str(change.get("visibility", "public"))
        summary = f"{pc.name}: {said}"
        async with self.ctx.session() as s:
            if not reason and record is not None:
                cause = f"nomination-{record.session_number}.{record.number}-{caller.user_id}"[:120]
                await begin_write(s)
                try:
                    if change["kind"] == "open_thread":
                        change["id"] = await service.next_thread_id(
                            s,
                            campaign_id=campaign.id,
                            thread_kind=change["thread_kind"],
                            session_number=latest,
                        )
                    refs = await stage_changes(
                        s,
                        campaign_id=campaign.id,
                        session_number=latest,
                        round_number=None,
                        cause=cause,
                        mutations=[change],
                        importance=5,
                        permanent=False,
                        witnesses=(),
                        round_state=None,
                        resolution=None,
                    )
                    proposal_id = await store.add_proposal(
                        s,
                        campaign_id=campaign.id,
                        round_id=record.round_id,
                        origin="player",
                        author=caller.user_id,
                        kind=kind,
                        summary=summary,
                        status="accepted",
                        payload=payload,
                        changes=[change],
                        refs=refs,
                        visibility=visibility,
                        cause=cause,
                    )
                    await s.commit()
                except LedgerError as err:
                    await s.rollback()
                    reason = f"the ledger refused it: {err}"
                except BaseException:
                    await s.rollback()
                    raise
                else:
                    return NominationView(
                        proposal_id=proposal_id,
                        status="accepted",
                        kind=kind,
                        what=said,
                        source=source,
                        visibility=visibility,
                        refs=tuple(refs),
                    )
            await begin_write(s)
            proposal_id = await store.add_proposal(
                s,
                campaign_id=campaign.id,
                round_id=record.round_id if record is not None else None,
                origin="player",
                author=caller.user_id,
                kind=kind,
                summary=summary,
                status="queued",
                payload=payload,
                reason=reason,
                visibility=visibility,
                cause=f"nomination-{caller.user_id}",
            )
            await s.commit()
        return NominationView(
            proposal_id=proposal_id,
            status="queued",
            kind=kind,
            what=said,
            reason=reason,
            missing=missing,
            source=source,
            visibility=visibility,
        )


def _named_npcs(text: str, snapshot: WorldSnapshot) -> list[str]:
    """NPCs (and monsters) the nomination names, by name or alias the party may know."""
    folded = f" {' '.join(m.group(0).lower() for m in _WORD.finditer(text))} "
    found: list[str] = []
    for eid, entity in snapshot.entities.items():
        if entity.kind not in ("npc", "monster"):
            continue
        for alias in entity.names():
            if alias.visibility not in ("public", "party"):
                continue
            name = " ".join(m.group(0).lower() for m in _WORD.finditer(alias.name))
            first = name.split(" ")[0] if name else ""
            if name and (f" {name} " in folded or (len(first) > 3 and f" {first} " in folded)):
                found.append(eid)
                break
    return found


_Best = tuple["RoundRecord", tuple[str, ...], tuple[str, ...], bool]


def _best_round(
    records: list[RoundRecord],
    words: dict[str, str],
    pc_id: str,
    npcs: list[str],
    snapshot: WorldSnapshot,
) -> _Best | None:
    """The round that supports most of the nomination: (round, words missing, NPCs absent, private)."""
    best: _Best | None = None
    best_score = -1
    for record in records:
        if pc_id not in record.texts and pc_id not in record.players:
            continue  # the nominator's PC was not there
        public = _stems([record.narration, *record.texts.values()])
        private = _stems(record.notes)
        every = public | private
        found = [st for st in words if st in every]
        if not found:
            continue
        missing = tuple(word for st, word in words.items() if st not in every)
        said = " ".join([record.narration, *record.texts.values(), *record.notes]).lower()
        absent = tuple(
            snapshot.entities[npc].name
            for npc in npcs
            if not any(a.name.lower() in said for a in snapshot.entities[npc].names())
        )
        only_private = any(st not in public for st in found)
        score = len(found) * 2 - len(absent)
        if score > best_score:  # newest first, so a tie keeps the newer round
            best, best_score = (record, missing, absent, only_private), score
    return best


def _landing(
    said: str,
    words: dict[str, str],
    pc_id: str,
    npcs: list[str],
    private: bool,
    handle: str,
    record: RoundRecord | None,
) -> tuple[str, dict[str, Any]]:
    """What the nomination lands as: (kind, one vocabulary change dict)."""
    visibility = f"player:{handle}" if private else "public"
    stems = set(words)
    where = f" (round {record.session_number}.{record.number})" if record is not None else ""
    if npcs and stems & (_PROMISE | {"promis"}):
        return "thread", {
            "kind": "open_thread",
            "id": "",
            "thread_kind": "favour",
            "terms": said,
            "parties": [npcs[0], pc_id],
            "tags": ["promise", "nominated"],
            "visibility": visibility,
        }
    if npcs and stems & _QUEST:
        return "thread", {
            "kind": "open_thread",
            "id": "",
            "thread_kind": "quest",
            "terms": said,
            "parties": [npcs[0], pc_id],
            "tags": ["nominated"],
            "visibility": visibility,
        }
    event_kind = (
        "promise" if stems & (_PROMISE | {"promis"}) else "discovery" if private or stems & _CLUE else "talk"
    )
    return "event", {
        "kind": "record_event",
        "event_kind": event_kind,
        "summary": f"{said}{where}",
        "participants": list(dict.fromkeys([pc_id, *npcs])),
        "visibility": visibility,
    }
