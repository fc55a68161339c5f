"""The LLM narrator: any OpenAI-compatible chat endpoint, structured output, every failure a NarrationError.

The model decides only the words (:class:`NarrationReply`: public text and private notes); the results, who
may get a note and the length limits are ours. A reply that breaks them is an :class:`InvalidDraft`, never a
post. The openai SDK is imported only when a narrator is built, so ``import bot.narrator.llm`` stays light.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from bot.narrator.base import (
    MAX_PUBLIC_CHARS,
    DeclaredClaim,
    DeclaredSentence,
    Draft,
    DraftTruncated,
    InvalidDraft,
    NarrationError,
    NarrationRequest,
    NarratorTimeout,
    NarratorUnavailable,
    reveal_note,
)
from bot.narrator.prompt import PromptPlan, build_prompt
from bot.narrator.proposals import MAX_PER_ROUND, PROPOSAL_MODELS, Proposal, proposing_draft

if TYPE_CHECKING:
    from openai import AsyncOpenAI

    from bot.config import LLMSettings

_log = logging.getLogger(__name__)

#: Local servers (Ollama, vLLM, LM Studio) ignore the key, but the SDK insists on one.
NO_KEY = "not-needed"


class NoteReply(BaseModel):
    """One private note as the model writes it: the player id as given in the prompt, and the text."""

    model_config = ConfigDict(extra="forbid")

    player: str = Field(description="the player id exactly as listed under PRIVATE REVEALS")
    text: str


#: Proposals read from one reply at most (beyond the per-round limit, they are refused and logged).
MAX_PROPOSALS_READ = 4 * MAX_PER_ROUND
#: Reply tokens allowed for the declared claims on top of ``reply_tokens`` (about 15 sentences' worth).
CLAIMS_TOKENS = 600
#: Declared sentences read from one reply, and claims per sentence; the rest are dropped (logged).
MAX_DECLARED_SENTENCES = 40
MAX_CLAIMS_PER_SENTENCE = 12


class NarrationReply(BaseModel):
    """What the model decides: the words, and what it proposes to add to the world (the system decides).

    Sent to the endpoint as a strict JSON schema. A proposal outside the vocabulary (an unknown kind, an
    extra field such as a PC's HP) does not spoil the narration: it is kept aside as refused, with why.
    """

    model_config = ConfigDict(extra="forbid")

    public_text: str
    private_notes: list[NoteReply]
    proposals: list[Proposal] = Field(default_factory=list)
    claims: list[DeclaredSentence] = Field(
        default_factory=list, description="per sentence of public_text, the claims it makes"
    )
    _refused: list[tuple[dict[str, Any], str]] = PrivateAttr(default_factory=list)

    @model_validator(mode="wrap")
    @classmethod
    def _keep_good_proposals(cls, data: Any, handler: Any) -> NarrationReply:
        if isinstance(data, dict) and "claims" in data:
            data = {**data, "claims": _good_declarations(data["claims"])}
        refused: list[tuple[dict[str, Any], str]] = []
        if isinstance(data, dict) and isinstance(data.get("proposals"), list):
            good: list[Any] = []
            for raw in data["proposals"][:MAX_PROPOSALS_READ]:
                kept = raw if isinstance(raw, dict) else {"value": str(raw)[:200]}
                model = PROPOSAL_MODELS.get(str(kept.get("kind")))
                if model is None:
                    refused.append((kept, f"not in the proposal vocabulary: no kind {kept.get('kind')!r}"))
                    continue
                try:
                    model.model_validate(raw)
                except ValidationError as exc:
                    refused.append((kept, f"not in the proposal vocabulary: {_vocabulary_error(exc)}"))
                else:
                    good.append(raw)
            data = {**data, "proposals": good}
        reply: NarrationReply = handler(data)
        reply._refused = refused
        return reply

    @property
    def refused(self) -> list[tuple[dict[str, Any], str]]:
        """Proposals the reply carried that are not in the vocabulary, with why."""
        return list(self._refused)


def _good_declarations(raw: Any) -> list[DeclaredSentence]:
    """The well-formed part of a reply's ``claims``: a malformed sentence or claim is dropped and logged.

    The declaration is an aid to the check, never a reason to lose the narration: whatever does not fit the
    shape (not a list, a sentence without text, a claim missing a field) goes, the rest stays.
    """
    if raw is None:
        return []
    if not isinstance(raw, list):
        _log.info("dropped the narration's claims: not a list (%s)", type(raw).__name__)
        return []
    kept: list[DeclaredSentence] = []
    dropped: list[str] = []
    for entry in raw[:MAX_DECLARED_SENTENCES]:
        sentence = entry.get("sentence") if isinstance(entry, dict) else None
        claims = entry.get("claims") if isinstance(entry, dict) else None
        if not isinstance(sentence, str) or not sentence.strip() or not isinstance(claims, list):
            dropped.append(f"not a sentence with claims: {str(entry)[:80]!r}")
            continue
        good: list[DeclaredClaim] = []
        for item in claims[:MAX_CLAIMS_PER_SENTENCE]:
            try:
                good.append(DeclaredClaim.model_validate(item))
            except ValidationError as exc:
                dropped.append(f"{str(item)[:80]!r}: {_vocabulary_error(exc)}")
        dropped += [f"claim beyond the first {MAX_CLAIMS_PER_SENTENCE}"] * max(
            0, len(claims) - MAX_CLAIMS_PER_SENTENCE
        )
        if good or not claims:
            kept.append(DeclaredSentence(sentence=sentence, claims=tuple(good)))
    if len(raw) > MAX_DECLARED_SENTENCES:
        dropped.append(f"{len(raw) - MAX_DECLARED_SENTENCES} sentences beyond the first")
    if dropped:
        _log.info("dropped %d malformed declared claim(s): %s", len(dropped), "; ".join(dropped[:5]))
    return kept


def _vocabulary_error(exc: ValidationError) -> str:
    errors = exc.errors()
    extra = next((e for e in errors if e["type"] == "extra_forbidden"), None)
    if extra is not None:
        return f"no field {extra['loc'][-1]!r} (a proposal cannot change HP, inventory or choices)"
    first = errors[0]
    return f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"[:200]


class LLMNarrator:
    """Narrates through ``client.chat.completions.parse`` with :class:`NarrationReply` as the schema.

    ``max_retries`` is the SDK's bounded retry of connection errors, timeouts and 5xx; invalid replies are not
    retried here (the pipeline rewrites once, then falls back). Call :meth:`aclose` when done.
    """

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 1,
        context_tokens: int = 8192,
        reply_tokens: int = 900,
        temperature: float = 0.8,
        count_tokens: Callable[[str], int] | None = None,
        claims_tokens: int = CLAIMS_TOKENS,
    ) -> None:
        from openai import AsyncOpenAI

        self.model = model
        self.timeout = timeout
        self.max_retries = max_retries
        self.context_tokens = context_tokens
        self.reply_tokens = reply_tokens
        #: Tokens beyond ``reply_tokens`` for the declared claims: declaring never cuts the text off.
        self.claims_tokens = claims_tokens
        self.temperature = temperature
        self._count_tokens = count_tokens
        self._client: AsyncOpenAI = AsyncOpenAI(
            base_url=base_url, api_key=api_key or NO_KEY, timeout=timeout, max_retries=max_retries
        )
        self.last_plan: PromptPlan | None = None  # the last prompt sent, for the GM's "why" view

    @classmethod
    def from_settings(cls, settings: LLMSettings, *, api_key: str | None = None) -> LLMNarrator:
        """Build from ``[llm]`` settings; the key comes from the env var ``api_key_env`` (may be unset)."""
        from bot.config import Settings

        return cls(
            base_url=settings.base_url,
            model=settings.model,
            api_key=api_key if api_key is not None else Settings.secret(settings.api_key_env),
            timeout=settings.timeout_seconds,
            max_retries=settings.max_retries,
            context_tokens=settings.context_tokens,
            reply_tokens=settings.reply_tokens,
            temperature=settings.temperature,
        )

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self._client.close()

    async def __aenter__(self) -> LLMNarrator:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def narrate(self, request: NarrationRequest) -> Draft:
        """Return the model's draft for ``request``.

        Raises :class:`~bot.narrator.base.BudgetExceeded` (no call made), :class:`NarratorTimeout`,
        :class:`NarratorUnavailable`, :class:`DraftTruncated` or :class:`InvalidDraft`.
        """
        plan = build_prompt(
            request,
            context_tokens=self.context_tokens,
            reply_tokens=self.reply_tokens + self.claims_tokens,
            count_tokens=self._count_tokens,
        )
        self.last_plan = plan
        if plan.dropped:
            _log.info("narration prompt trimmed to fit: dropped %s", ", ".join(plan.dropped))
        reply = await self._complete([m.as_dict() for m in plan.messages])
        return _to_draft(reply, request)

    async def _complete(self, messages: list[dict[str, str]]) -> NarrationReply:
        import openai

        # The SDK's own timeout covers each attempt; this bounds the whole call, retries included.
        overall = self.timeout * (self.max_retries + 1) + 1.0
        try:
            completion = await asyncio.wait_for(
                self._client.chat.completions.parse(
                    model=self.model,
                    messages=messages,  # type: ignore[arg-type]
                    response_format=NarrationReply,
                    max_completion_tokens=self.reply_tokens + self.claims_tokens,
                    temperature=self.temperature,
                ),
                timeout=overall,
            )
        except (TimeoutError, openai.APITimeoutError) as exc:
            raise NarratorTimeout(f"the narrator did not answer within {self.timeout:g} s") from exc
        except openai.APIConnectionError as exc:
            raise NarratorUnavailable(f"cannot reach the narrator endpoint: {exc}") from exc
        except openai.APIStatusError as exc:
            raise NarratorUnavailable(f"the narrator endpoint answered HTTP {exc.status_code}") from exc
        except openai.LengthFinishReasonError as exc:
            raise DraftTruncated("the narration was cut off at the reply token limit") from exc
        except openai.ContentFilterFinishReasonError as exc:
            raise InvalidDraft("the endpoint's content filter stopped the narration") from exc
        except (ValidationError, json.JSONDecodeError) as exc:
            raise InvalidDraft(f"the narration was not the expected JSON: {_first_line(exc)}") from exc
        except openai.OpenAIError as exc:
            raise NarrationError(f"the narrator failed: {_first_line(exc)}") from exc
        if not completion.choices:
            raise InvalidDraft("the endpoint returned no choices")
        message = completion.choices[0].message
        if message.refusal:
            raise InvalidDraft(f"the model refused: {_first_line(message.refusal)}")
        if message.parsed is None:
            raise InvalidDraft("the endpoint returned no parsed narration")
        return message.parsed


def _first_line(value: Any) -> str:
    text = str(value).strip()
    return text.splitlines()[0][:200] if text else "(no detail)"


def _to_draft(reply: NarrationReply, request: NarrationRequest) -> Draft:
    """Apply our limits to the model's words: length, and private notes only for revealing players."""
    public = reply.public_text.strip()
    if not public:
        raise InvalidDraft("the narration's public text is empty")
    if len(public) > MAX_PUBLIC_CHARS:
        raise InvalidDraft(f"the narration is {len(public)} characters (limit {MAX_PUBLIC_CHARS})")
    if reply.private_notes:  # the model was told nothing private, so whatever it wrote there is invention
        _log.warning("ignored %d private note(s) the model wrote", len(reply.private_notes))
    # Each discoverer's note comes from the record, never from the model (it was not shown the discovery).
    notes = tuple((reveal.player_id, reveal_note(reveal)) for reveal in request.reveals)
    draft = Draft(public_text=public, private_notes=notes, source="generated", declared=tuple(reply.claims))
    if reply.proposals or reply.refused:
        return proposing_draft(draft, reply.proposals, reply.refused)
    return draft
