"""Provable fairness: commit to a round's seed before the round, reveal it after, let anyone replay.

The table publishes :func:`commit_seed` when the round opens and the seed itself when it closes; players can
check the pair with :func:`verify_seed` and re-resolve the round with :func:`replay_round`. Use
:func:`new_seed` (53 random bits): a commitment to a small seed could be found by trying every value, and
53 bits is the most a Discord integer option or a JavaScript number carries exactly.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from rules.errors import RulesError
from rules.intents import Intent
from rules.round import RoundResolution, resolve_round
from rules.state import RoundState

_DOMAIN = "tablekeeper-round-seed:v1:"


def new_seed() -> int:
    """A fresh round seed from the operating system's secure random source."""
    return secrets.randbits(53)


def _canonical(seed: int) -> bytes:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RulesError("A seed must be an integer")
    return f"{_DOMAIN}{seed:d}".encode("ascii")


def commit_seed(seed: int) -> str:
    """The SHA-256 hex digest of the seed's canonical encoding (``tablekeeper-round-seed:v1:<decimal>``)."""
    return hashlib.sha256(_canonical(seed)).hexdigest()


def verify_seed(seed: int, commitment: str) -> bool:
    """True when ``seed`` is the one ``commitment`` was made to (constant-time comparison)."""
    if not isinstance(commitment, str):
        return False
    try:
        expected = commit_seed(seed)
    except RulesError:
        return False
    return hmac.compare_digest(expected, commitment.strip().lower())


def replay_round(
    *, seed: int, intents: Sequence[Intent], state: RoundState, recorded: RoundResolution | str
) -> bool:
    """Re-resolve a round and say whether it matches the recorded resolution byte for byte.

    ``recorded`` may be the stored JSON text or the model. A resolution that no longer resolves (the rules
    changed so that an intent is now invalid) does not match.
    """
    try:
        again = resolve_round(seed=seed, intents=intents, state=state)
    except RulesError:
        return False
    if isinstance(recorded, str):
        return again.model_dump_json() == recorded
    return again.model_dump_json() == recorded.model_dump_json()
