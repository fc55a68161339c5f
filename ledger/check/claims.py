"""The closed vocabulary of claims a narration can make, and the verdicts the checker gives them.

A narration is split into atomic :class:`Claim` s (``alive(npc-harlan-voss)``, ``hit(pc-mira, monster-1)``
...). Each carries the sentence it came from, its character span, and modality flags: a claim inside quoted
dialogue, a hypothetical, a memory, a rumour or a negation is reported but never held against the ledger,
because an NPC may lie and a character may remember the dead.

The first kinds are read off words (``alive``, ``holds`` ...); the last six are meaning-level claims read off
what the words imply (a health state, a sense used, a kinship term, a count, warmth or hostility shown by
behaviour), each judged by :mod:`ledger.check.judge_meaning`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

ClaimKind = Literal[
    "alive",
    "dead",
    "at",
    "holds",
    "condition",
    "relation",
    "thread_status",
    "present",
    "knows",
    "acts",
    "hit",
    "missed",
    "damaged",
    "pc_choice",
    # meaning-level claims (judged by ledger.check.judge_meaning):
    "health",  # health(entity, unhurt|unharmed|unmarked|well|near_death): "unscathed", "at death's door"
    "senses",  # senses(entity, sight|hearing|speech): reads, answers a whisper, speaks; against conditions
    "condition_gone",  # condition_gone(entity, condition): "clean of the sickness" for a diseased creature
    "kinship",  # kinship(person, relative_of, term): "Lazlo, the ringmistress's nephew" (detail: the term)
    "count",  # count(item, holder|*): ordinals and number words ("his second vial"); detail min=/exact=
    "attitude",  # attitude(actor, other, warm|hostile): behaviour toward another (detail: valence, words)
]
CLAIM_KINDS: tuple[str, ...] = ClaimKind.__args__  # type: ignore[attr-defined]

#: The conditions a condition claim's ``value`` may name: what a model reading or declaring claims is offered.
CLAIM_CONDITIONS: tuple[str, ...] = (
    "unconscious",
    "paralyzed",
    "petrified",
    "poisoned",
    "blinded",
    "deafened",
    "frightened",
    "grappled",
    "restrained",
    "stunned",
    "prone",
    "charmed",
    "invisible",
    "exhausted",
    "incapacitated",
)

VerdictKind = Literal["supported", "contradicted", "unknown"]


@dataclass(frozen=True, slots=True)
class Modality:
    """How a claim is framed; any flag set means the claim is not asserted as present fact."""

    in_dialogue: bool = False
    hypothetical: bool = False
    memory: bool = False
    rumour: bool = False
    negated: bool = False

    @property
    def asserted(self) -> bool:
        """True when the narration states the claim as fact, here and now."""
        return not (self.in_dialogue or self.hypothetical or self.memory or self.rumour or self.negated)


@dataclass(frozen=True, slots=True)
class Claim:
    """One atomic assertion: ``kind(args...)`` found in ``text`` at ``span`` (character offsets)."""

    kind: ClaimKind
    args: tuple[str, ...]
    text: str
    span: tuple[int, int]
    modality: Modality = field(default_factory=Modality)
    detail: str = ""  # e.g. the verb, the quoted words, the exact quantity

    def label(self) -> str:
        """A short readable form: ``acts(npc-harlan-voss)``."""
        return f"{self.kind}({', '.join(self.args)})"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The checker's answer for one claim; ``refuted_by`` names the record or round result it broke."""

    claim: Claim
    verdict: VerdictKind
    refuted_by: str | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Leak:
    """Text that reveals a record the audience may not see."""

    record: str
    text: str
    span: tuple[int, int]
    visibility: str


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The result of checking one narration: ``conflict`` when any claim is contradicted or anything leaks."""

    verdict: Literal["clean", "conflict"]
    claims: tuple[Verdict, ...]
    new_entities: tuple[str, ...] = ()
    leaks: tuple[Leak, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the narration may be posted."""
        return self.verdict == "clean"

    def conflicts(self) -> tuple[Verdict, ...]:
        """The contradicted claims, in text order."""
        return tuple(v for v in self.claims if v.verdict == "contradicted")

    def hint(self) -> str:
        """One line per problem, for a rewrite prompt or the GM queue."""
        lines = [f"{v.claim.text!r}: {v.reason} (record {v.refuted_by})" for v in self.conflicts()]
        lines += [f"{lk.text!r} reveals {lk.record} ({lk.visibility})" for lk in self.leaks]
        return "\n".join(lines)

    def to_dict(self, *, explain: bool = False) -> dict[str, Any]:
        """The JSON shape of ``tablekeeper check --json``; ``explain`` adds each claim's form, reason and
        modality (beyond the fixed ``text``/``verdict``/``refuted_by``/``span``)."""
        claims: list[dict[str, Any]] = []
        for v in self.claims:
            row: dict[str, Any] = {
                "text": v.claim.text,
                "verdict": v.verdict,
                "refuted_by": v.refuted_by,
                "span": list(v.claim.span),
            }
            if explain:
                row["claim"] = v.claim.label()
                row["reason"] = v.reason
                row["modality"] = [k for k, on in asdict(v.claim.modality).items() if on]
            claims.append(row)
        return {
            "verdict": self.verdict,
            "claims": claims,
            "new_entities": list(self.new_entities),
            "leaks": [
                {"record": lk.record, "text": lk.text, "span": list(lk.span), "visibility": lk.visibility}
                for lk in self.leaks
            ],
        }
