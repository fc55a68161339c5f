"""The narrator's declared claims: judged like extracted ones, and held to the words they declare.

With a model configured, the narration reply lists per sentence the claims it makes, in the checker's
closed vocabulary (:class:`~bot.narrator.base.DeclaredSentence`), naming who and what as the prompt gave
them. :func:`read_declarations` turns them into :class:`~ledger.check.claims.Claim` s with the same
validation as the LLM extractor's (:func:`bot.narrator.claims_llm.to_claim`: kinds, the sort of id per slot,
values, verbs), after resolving each name to a ledger id among the records the audience may see
(:class:`LedgerNames`: an id as is, else a name or alias that fits exactly one record the sentence mentions
or the scene holds, else exactly one in the ledger). A claim that does not validate is dropped and logged,
never the draft. When a declaration gives valid claims, the separate extraction call of
:mod:`bot.narrator.claims_llm` is skipped unless the extractor is built with ``extract_when_declared``.

Each declared claim is compared with what the deterministic extractor reads in its sentence, and two
mismatches are flagged, as contradicted :class:`~ledger.check.claims.Verdict` s whose reason starts with:

- ``unsupported declaration``: the declared sentence is not in the text, or the extractor reads the same
  sentence as an incompatible claim of the same kind about the same ids (declared at the docks, written at
  the inn; another holder of the same item; another count, thread status or opposite relation; alive
  against dead, hit against missed), or as the same claim negated. Such a claim is not judged against the
  ledger (the text does not say it); the flag stands for it.
- ``undeclared claim``: in a sentence for which the model declared at least one valid claim, the extractor
  reads a plainly asserted claim of a state-bearing kind (alive, dead, at, holds, condition, relation,
  thread_status, knows, hit, missed) that no declared claim covers.

Decision: both flags count as conflicts, like a contradiction of the ledger. They go back as rewrite hints
(the narrator's one rewrite, naming the sentence), and if the rewrite is flagged too the round fails
closed to the offline narration, with the flags in the GM's queue. A declaration the model gets wrong about
its own words means its reading of the draft cannot be trusted, and the issue's promise is that the check
holds on text it has never seen. To keep false alarms low, a declaration merely less specific than the text
is no mismatch (present for a place, a holder without the count, a place that contains or lies inside the
one written, acts for a choice), only plainly asserted extracted claims count (never quoted speech,
memories, rumours, plans, negations, hand-overs, moves, or claims about records the audience may not see),
and a declared claim takes the modality the extractor gives the same kind and subject in its sentence.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.narrator.claims_llm import ClaimReply, LedgerName, _sees, quote_span, to_claim
from ledger.check.claims import Claim, Verdict
from ledger.check.judge import judge_claims

if TYPE_CHECKING:
    from bot.narrator.base import DeclaredSentence
    from ledger.check.extract import Extraction
    from ledger.check.snapshot import WorldSnapshot

_log = logging.getLogger(__name__)

UNSUPPORTED = "unsupported declaration"
UNDECLARED = "undeclared claim"

#: Extracted kinds whose omission from a sentence's declaration is flagged: those that carry state.
STATEFUL = frozenset(
    {"alive", "dead", "at", "holds", "condition", "relation", "thread_status", "knows", "hit", "missed"}
)
#: Kinds that say the opposite of each other about the same ids.
_OPPOSITE = {"alive": "dead", "dead": "alive", "hit": "missed", "missed": "hit"}
#: Relation kinds that exclude each other.
_EXCLUSIVE = {frozenset({"kin", "notkin"}), frozenset({"positive", "negative"})}
#: Declared kinds that imply their subject is alive (an attacker swings, a PC decides).
_LIVING = frozenset({"acts", "pc_choice", "alive"})


@dataclass(frozen=True, slots=True)
class Declarations:
    """A draft's declared claims read against its text: ``claims`` to judge, ``flags``, what was dropped."""

    claims: tuple[Claim, ...] = ()
    flags: tuple[Verdict, ...] = ()
    dropped: tuple[str, ...] = ()


def _norm(name: str) -> str:
    words = name.casefold().strip(" \"'“”‘’.,;:!?").split()
    if words and words[0] in ("the", "a", "an"):
        words = words[1:]
    return " ".join(words)


class LedgerNames:
    """The records ``audience`` may see, by id and by name, looked up as a declaration needs them.

    The names->ids list of :func:`bot.narrator.claims_llm.names_from_snapshot`, without building it: a
    campaign-sized world has tens of thousands of records and a declaration names a handful. An argument
    is an id as is, else a name or alias (case and a leading article aside) that fits exactly one record
    among those the sentence mentions and the scene's cast, else exactly one in the whole ledger (that
    index is built once per snapshot, only when needed).
    """

    def __init__(self, snapshot: WorldSnapshot, audience: str) -> None:
        self.snapshot = snapshot
        self.audience = audience
        self._sees = _sees(audience)
        self._entries: dict[str, LedgerName | None] = {}

    def entry(self, rid: str) -> LedgerName | None:
        """The record ``rid`` as the names list holds it, or None when it is unknown or hidden."""
        if rid in self._entries:
            return self._entries[rid]
        snap, sees = self.snapshot, self._sees
        found: LedgerName | None = None
        if (e := snap.entities.get(rid)) is not None and sees(e.visibility):
            aliases = tuple(
                dict.fromkeys(a.name for a in e.aliases if a.name != e.name and sees(a.visibility))
            )
            found = LedgerName(e.id, e.kind, e.name, aliases)
        elif (t := snap.threads.get(rid)) is not None and sees(t.visibility):
            found = LedgerName(t.id, "thread", f"{t.kind}: {t.terms}" if t.terms else t.kind, t.aliases)
        elif (f := snap.facts.get(rid)) is not None and f.known_by and sees(f.visibility):
            found = LedgerName(f.key, "fact", f.key, f.tells)
        self._entries[rid] = found
        return found

    def resolve(self, arg: str, near: Sequence[str]) -> str | None:
        """The id ``arg`` stands for (an id, or a name unambiguous near the sentence or in the ledger)."""
        arg = arg.strip()
        if self.entry(arg) is not None:
            return arg
        key = _norm(arg)
        if not key:
            return None
        local = {
            rid
            for rid in near
            if (n := self.entry(rid)) is not None and any(_norm(w) == key for w in (n.name, *n.aliases))
        }
        if local:
            return local.pop() if len(local) == 1 else None
        found = self._everyone().get(key, ())
        return found[0] if len(found) == 1 else None

    def _everyone(self) -> dict[str, tuple[str, ...]]:
        cache_key = f"declared-names:{self.audience}"
        cached = self.snapshot.cache.get(cache_key)
        if isinstance(cached, dict):
            return cached
        by_name: dict[str, list[str]] = {}
        snap = self.snapshot
        for rid in (*snap.entities, *snap.threads, *snap.facts):
            n = self.entry(rid)
            if n is None:
                continue
            for word in dict.fromkeys((n.name, *n.aliases)):
                if (k := _norm(word)) and rid not in by_name.get(k, ()):
                    by_name.setdefault(k, []).append(rid)
        index = {k: tuple(v) for k, v in by_name.items()}
        snap.cache[cache_key] = index
        return index


def _near(sent: tuple[int, int], ex: Extraction, snapshot: WorldSnapshot) -> list[str]:
    """The ids a declaration for sentence ``sent`` most likely names: its mentions, then the scene's cast."""
    ids: list[str] = []
    for m in ex.mentions:
        if sent[0] <= ex.tokens[m.i].start < sent[1]:
            ids.extend(m.ids)
    rnd = snapshot.round
    ids += sorted(snapshot.scene.present)
    ids += [a.actor for a in rnd.actions] + [a.target for a in rnd.actions if a.target]
    if snapshot.scene.location:
        ids.append(snapshot.scene.location)
    return list(dict.fromkeys(ids))


def read_declarations(
    declared: Sequence[DeclaredSentence],
    text: str,
    snapshot: WorldSnapshot,
    ex: Extraction,
    *,
    audience: str = "party",
) -> Declarations:
    """Validate ``declared`` against ``text`` and compare it with the extraction ``ex`` of the same text.

    Returns the declared claims to judge (each spanning its whole sentence, in text order), the mismatch
    flags and why any declared claim was dropped. Pure: no model, no I/O.
    """
    names = LedgerNames(snapshot, audience)
    claims: list[Claim] = []
    flags: list[Verdict] = []
    dropped: list[str] = []
    # per sentence span: the declared claims kept, and the extracted claims a flagged declaration named
    by_sentence: dict[tuple[int, int], tuple[list[Claim], list[Claim]]] = {}
    for ds in declared:
        if not ds.claims:
            continue
        at = quote_span(text, ds.sentence)
        if at is None:
            missing = Claim("present", tuple(ds.claims[0].args[:1]), ds.sentence[:300], (0, 0))
            why = f"{UNSUPPORTED}: the declared sentence {ds.sentence[:120]!r} is not in the narration"
            flags.append(Verdict(missing, "contradicted", None, why))
            continue
        sent = _sentence_of(at, ex.sentences)
        quote = text[sent[0] : sent[1]]
        extracted = _extracted_in(sent, ex, names)
        near = _near(sent, ex, snapshot)
        mine, answered = by_sentence.setdefault(sent, ([], []))
        for dc in ds.claims:
            args = [names.resolve(a, near) for a in dc.args]
            if any(a is None for a in args):
                dropped.append(f"{dc.kind}({', '.join(dc.args)}): a name that fits no single record")
                continue
            item = ClaimReply(
                kind=dc.kind,
                args=[a for a in args if a is not None],
                value=dc.value,
                verb=dc.verb,
                quantity=dc.quantity,
                quote=quote,
                in_dialogue=False,
                hypothetical=False,
                memory=False,
                rumour=False,
                negated=False,
            )
            by_id = {a: n for a in item.args if (n := names.entry(a)) is not None}
            claim = to_claim(item, text, by_id)
            if isinstance(claim, str):
                dropped.append(claim)
                continue
            claim = replace(claim, span=sent, text=quote)
            # read as said in one place and negated in another ("pours the tea and says nothing"): no mismatch
            said = any(
                e.kind == claim.kind and e.args == claim.args and e.modality.asserted for e in extracted
            )
            against = next(
                (
                    e
                    for e in extracted
                    if _incompatible(claim, e, snapshot)
                    and not (said and (e.kind, e.args) == (claim.kind, claim.args))
                ),
                None,
            )
            if against is not None:
                why = (
                    f"{UNSUPPORTED}: you declared {_say(claim, snapshot)} for {quote[:160]!r}, "
                    f"but the sentence says {_say(against, snapshot)}"
                )
                flags.append(Verdict(claim, "contradicted", None, why))
                answered.append(against)  # one mismatch, one flag: not also "undeclared"
                continue
            same = [e for e in extracted if e.kind == claim.kind and e.args[:1] == claim.args[:1]]
            if same and not any(e.modality.asserted for e in same):
                claim = replace(claim, modality=same[0].modality)  # "Marta recalls the docks": a memory
            mine.append(claim)
    for sent, (mine, answered) in by_sentence.items():
        claims += mine
        if not mine:
            continue
        quote = text[sent[0] : sent[1]]
        for e in _extracted_in(sent, ex, names):
            if e in answered or e.kind not in STATEFUL or not e.modality.asserted:
                continue
            if not any(_covers(d, e, snapshot) for d in mine):
                why = (
                    f"{UNDECLARED}: {quote[:160]!r} says {_say(e, snapshot)}, "
                    "which the declaration for that sentence leaves out"
                )
                flags.append(Verdict(e, "contradicted", None, why))
    if dropped:
        _log.info("dropped %d declared claim(s): %s", len(dropped), "; ".join(dropped[:5]))
    unique_flags = {(f.claim.span, f.reason): f for f in flags}
    return Declarations(
        tuple(sorted(dict.fromkeys(claims), key=lambda c: c.span[0])),
        tuple(unique_flags.values()),
        tuple(dropped),
    )


def added_conflicts(
    llm_claims: Sequence[Claim],
    text: str,
    snapshot: WorldSnapshot,
    audience: str,
    ex: Extraction,
    declarations: Declarations | None = None,
) -> list[Verdict]:
    """The contradicted verdicts the model's claims (declared, then extracted) add to the extractor's.

    All claims are merged in text order (so hand-overs and deaths the narration tells are replayed for
    each) and judged by :func:`ledger.check.judge.judge_claims`. A model claim of the same kind and ids in
    the same sentence as an earlier one is dropped (a deterministic claim, with its modality, stands), as
    is a conflict naming the same record in a sentence already refuted. The declarations' flags follow,
    except an undeclared claim the deterministic check already refutes (it is reported once, as that).
    """
    sentences = ex.sentences

    def sentence(span: tuple[int, int]) -> tuple[int, int]:
        return next(((a, b) for a, b in sentences if a <= span[0] < b), span)

    merged: list[tuple[tuple[int, int, int], bool, Claim]] = []
    seen_det: set[tuple[str, tuple[str, ...], tuple[int, int], str]] = set()
    keys: set[tuple[str, tuple[str, ...], tuple[int, int]]] = set()
    for c in ex.claims:
        full = (c.kind, c.args, c.span, c.detail)
        if full in seen_det:  # as check() does
            continue
        seen_det.add(full)
        s = sentence(c.span)
        keys.add((c.kind, c.args, s))
        merged.append(((s[0], 0, c.span[0]), False, c))
    own = declarations.claims if declarations is not None else ()
    for rank, group in ((1, own), (2, llm_claims)):
        for c in group:
            s = sentence(c.span)
            key = (c.kind, c.args, s)
            if key in keys:
                continue
            keys.add(key)
            merged.append(((s[0], rank, c.span[0]), True, c))
    if len(merged) == len(seen_det) and declarations is None:
        return []
    merged.sort(key=lambda m: m[0])
    verdicts = judge_claims([c for _, _, c in merged], snapshot, audience=audience)
    det_refuted = [
        v
        for (_, from_model, _), v in zip(merged, verdicts, strict=True)
        if not from_model and v.verdict == "contradicted"
    ]
    refuted = {(sentence(v.claim.span), v.refuted_by) for v in det_refuted}
    added: list[Verdict] = []
    for (_, from_model, _), v in zip(merged, verdicts, strict=True):
        if not from_model or v.verdict != "contradicted":
            continue
        where = (sentence(v.claim.span), v.refuted_by)
        if where in refuted:
            continue
        refuted.add(where)
        added.append(v)
    if declarations is not None:
        told = {v.claim for v in det_refuted}
        added += [f for f in declarations.flags if not (f.reason.startswith(UNDECLARED) and f.claim in told)]
    return added


def _sentence_of(span: tuple[int, int], sentences: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The sentence(s) of the extraction that ``span`` falls in (a quote may run over two)."""
    hit = [(a, b) for a, b in sentences if a < span[1] and span[0] < b]
    if not hit:
        return span
    return min(a for a, _ in hit), max(b for _, b in hit)


def _plain(c: Claim, names: LedgerNames) -> bool:
    """An extracted claim fit to compare: real records the audience may see, no hand-over or move."""
    if any(names.entry(a) is None for a in c.args[: _ids(c)]):
        return False
    parts = {p.partition(":")[0].partition("=")[0] for p in c.detail.split(";")}
    if c.kind == "holds" and parts & {"give", "acquire", "exists"}:
        return False
    return not (c.kind == "at" and c.detail.startswith("to:"))


def _ids(c: Claim) -> int:
    """How many of a claim's args are ledger ids (the rest is a value: a condition, a relation kind)."""
    return {"condition": 1, "relation": 2, "thread_status": 1}.get(c.kind, len(c.args))


def _extracted_in(sent: tuple[int, int], ex: Extraction, names: LedgerNames) -> list[Claim]:
    seen: dict[tuple[str, tuple[str, ...], str], Claim] = {}
    for c in ex.claims:
        if sent[0] <= c.span[0] < sent[1] and _plain(c, names):
            seen.setdefault((c.kind, c.args, c.detail), c)
    return list(seen.values())


def _qty(detail: str) -> tuple[int, bool] | None:
    """The count a holds claim gives: (n, exact) from ``qty=n`` or ``qty>=n``; None without one."""
    for part in detail.split(";"):
        if part.startswith("qty>="):
            return int(part[5:]), False
        if part.startswith("qty="):
            return int(part[4:]), True
    return None


def _incompatible(d: Claim, e: Claim, snapshot: WorldSnapshot) -> bool:
    """True when the asserted extracted claim ``e`` says something ``d`` cannot also be, in one sentence."""
    if e.kind == d.kind and e.args == d.args:
        m = e.modality  # "Marta is not poisoned" against a declared poisoning (see read_declarations)
        return (
            d.kind in STATEFUL and m.negated and not (m.in_dialogue or m.hypothetical or m.memory or m.rumour)
        )
    if not e.modality.asserted:
        return False
    if _OPPOSITE.get(d.kind) == e.kind:
        return e.args == d.args
    if e.kind != d.kind:
        return False
    if d.kind == "at":
        a, b = d.args[1], e.args[1]
        return d.args[0] == e.args[0] and not (snapshot.within(a, b) or snapshot.within(b, a))
    if d.kind == "holds":
        if d.args[1] != e.args[1]:
            return False
        if d.args[0] != e.args[0]:
            return True  # another holder of the same item (hand-overs are not compared)
        got, want = _qty(d.detail), _qty(e.detail)
        if got is None or want is None:
            return False  # without a count the declaration is only less specific
        return got[0] != want[0] if want[1] else got[0] < want[0]
    if d.kind == "relation":
        return set(d.args[:2]) == set(e.args[:2]) and frozenset((d.args[2], e.args[2])) in _EXCLUSIVE
    if d.kind == "thread_status":
        return d.args[0] == e.args[0] and d.args[1] != e.args[1]
    return False


def _covers(d: Claim, e: Claim, snapshot: WorldSnapshot) -> bool:
    """True when declared ``d`` accounts for extracted ``e`` (the same claim, or one that implies it)."""
    if d.kind == e.kind and d.args == e.args:
        return True
    if e.kind == "alive":
        attacks = d.kind in ("hit", "missed")
        return (d.kind in _LIVING or attacks) and d.args[:1] == e.args
    if e.kind == "at" and d.kind == "present" and d.args == e.args[:1]:
        return True  # somewhere, where the text names the place: less specific, not wrong
    if e.kind == "at" and d.kind == "at" and d.args[0] == e.args[0]:
        return snapshot.within(d.args[1], e.args[1]) or snapshot.within(e.args[1], d.args[1])
    return False


def _say(c: Claim, snapshot: WorldSnapshot) -> str:
    """A claim in words for a hint: ``at(Marta, the docks)``."""

    def name(arg: str) -> str:
        entity = snapshot.entities.get(arg)
        return entity.name if entity is not None else arg

    count = _qty(c.detail) if c.kind == "holds" else None
    extra = f", {count[0]}" if count else ""
    return f"{c.kind}({', '.join(name(a) for a in c.args)}{extra})"
