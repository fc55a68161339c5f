"""The summary layer: scene and session summaries in Chroma, an index into the ledger and never its authority.

A summary is stored with the event ids it covers, its visibility, the entities it mentions and the hard facts
it states (:class:`Death`, :class:`Transfer`, :class:`ThreadChange`). :meth:`SummaryIndex.add` refuses a
summary (:class:`SummaryRefused`) when the caller's ``verify`` callable (the SQL ledger) reports any of those
facts missing, or when the text itself states a death or a hand-over (found by
:func:`find_hard_fact_candidates`) that the caller did not declare: compressing a session must never be the
only place a hard fact lives.

Chroma is synchronous, so the async methods run it with :func:`asyncio.to_thread`; the ``*_now`` methods are
the synchronous originals (for scripts and benches). One collection per campaign; a local
``PersistentClient`` under a folder by default, or a Chroma server by host and port.

The index computes vectors itself with a plain embedding function (:data:`EmbedFn`, texts in, one vector
each out) and hands Chroma the vectors: the application may build that function from any client library
(``bot.embeddings`` uses the openai SDK) without the ledger importing it, and Chroma never has to rebuild it.
Every failure of Chroma or of the embedding function (a server down, an endpoint answering 500, a broken
collection) is raised as :class:`IndexUnavailable`, one line, with the original as its ``__cause__``: the
ledger is the authority, so callers go on without summaries and queue what could not be indexed.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from pydantic import BaseModel, ConfigDict

from ledger.recall.hard_facts import (
    CandidateFact,
    Death,
    HardFact,
    ThreadChange,
    Transfer,
    Verify,
    covered_by,
    describe_fact,
    find_hard_fact_candidates,
    hard_facts_from_changes,
    names_from_world,
    verifier_from_timeline,
)

if TYPE_CHECKING:
    from chromadb.api import ClientAPI
    from chromadb.api.models.Collection import Collection


__all__ = [
    "MAX_HITS",
    "CandidateFact",
    "Death",
    "EmbedFn",
    "EmbeddingError",
    "HardFact",
    "IndexUnavailable",
    "Scope",
    "SummaryDoc",
    "SummaryError",
    "SummaryHit",
    "SummaryIndex",
    "SummaryRefused",
    "SyncReport",
    "ThreadChange",
    "Transfer",
    "describe_fact",
    "find_hard_fact_candidates",
    "hard_facts_from_changes",
    "names_from_world",
    "split_by_scene",
    "verifier_from_timeline",
]

MAX_HITS = 5
_VISIBILITY = re.compile(r"^(public|party|gm|player:[A-Za-z0-9_.\-]+)$")


class SummaryError(Exception):
    """Bad input to the summary index (empty text, bad visibility, too many hits asked); one line."""


class IndexUnavailable(SummaryError):
    """The summary index cannot be used now: Chroma (local or server) or the embedding function failed.

    One line; the original error is the ``__cause__``. Summaries are an index and the ledger the authority,
    so a caller goes on with ledger records only and queues the summaries it could not index.
    """


class EmbeddingError(IndexUnavailable):
    """An embedding endpoint failed or answered nonsense (down, HTTP 5xx, wrong count); one line."""


#: An embedding function: a list of texts in, one vector (floats, or a numpy array) per text out, in order.
#: It may raise anything on failure; the index reports it as :class:`IndexUnavailable`.
EmbedFn = Callable[[list[str]], Sequence[Any]]


class SummaryRefused(SummaryError):
    """The summary states hard facts the ledger does not hold (``missing``) or that were not declared
    (``undeclared``); write them to the ledger first, then summarise."""

    def __init__(
        self,
        summary_id: str,
        missing: Sequence[Death | Transfer | ThreadChange],
        undeclared: Sequence[CandidateFact] = (),
    ) -> None:
        self.summary_id = summary_id
        self.missing = tuple(missing)
        self.undeclared = tuple(undeclared)
        parts = [f"not in the ledger: {describe_fact(f)}" for f in self.missing]
        parts += [
            f"stated but not declared: {c.kind} of {c.subject} ('{c.evidence}')" for c in self.undeclared
        ]
        super().__init__(f"summary {summary_id} refused: " + "; ".join(parts))


# --------------------------------------------------------------------------------------------------
# The index
# --------------------------------------------------------------------------------------------------


class SummaryHit(BaseModel):
    """One retrieved summary; ``distance`` is the cosine distance (0 = same direction, smaller is closer)."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    session: int
    scope: str
    event_ids: tuple[str, ...]
    entities: tuple[str, ...]
    visibility: str
    distance: float


#: Summaries embedded and upserted per Chroma call. One transaction per call, so fewer calls index a
#: campaign faster (2,000 summaries: about 0.6 s in one call, 1.1 s in four); Chroma's own cap, smaller on
#: some builds, lowers it (:meth:`SummaryIndex._batch_size`).
_BATCH = 5000
#: A campaign's scope map (each summary's visibility and entities) is read from the collection on this
#: query of the campaign in a process: a one-shot caller (``tablekeeper recall``) never pays for it, a live
#: table reads it once and then asks Chroma by id, which costs a fraction of a metadata filter.
SCOPE_AFTER_QUERIES = 2


class Scope(NamedTuple):
    """What decides whether a summary may answer a scene: who may see it, and whom it mentions."""

    visibility: str
    entities: frozenset[str]


def split_by_scene(
    scopes: Iterable[tuple[str, Scope]], visibilities: Iterable[str] | None, entities: Iterable[str]
) -> tuple[list[str], list[str]]:
    """The ids a viewer seeing ``visibilities`` (None: everything) may be shown, split into those mentioning
    one of ``entities`` (the scene's, asked first) and the others (the rest of the slots): the one rule every
    summary search follows."""
    allowed = None if visibilities is None else set(visibilities)
    wanted = set(entities)
    about: list[str] = []
    others: list[str] = []
    for sid, scope in scopes:
        if allowed is None or scope.visibility in allowed:
            (about if wanted and scope.entities & wanted else others).append(sid)
    return about, others


class SummaryDoc(BaseModel):
    """One summary as the index stores it (what :meth:`SummaryIndex.sync_now` is given)."""

    model_config = ConfigDict(frozen=True)

    id: str
    session: int
    scope: str
    text: str
    event_ids: tuple[str, ...] = ()
    visibility: str = "public"
    entities: tuple[str, ...] = ()
    hard_facts: tuple[Death | Transfer | ThreadChange, ...] = ()

    def check(self) -> None:
        """Raise SummaryError for an empty id or text, a bad visibility or a negative session."""
        if not self.id or not self.text.strip():
            raise SummaryError("a summary needs an id and non-empty text")
        if not _VISIBILITY.match(self.visibility):
            raise SummaryError(
                f"bad visibility {self.visibility!r} (expected public, party, gm or player:<id>)"
            )
        if self.session < 0:
            raise SummaryError(f"bad session {self.session}")

    def digest(self) -> str:
        """A short hash of everything indexed from this summary: equal digests need no re-indexing."""
        data = self.model_dump(mode="json", exclude={"id"})
        return hashlib.blake2b(json.dumps(data, sort_keys=True).encode("utf-8"), digest_size=12).hexdigest()

    def metadata(self, campaign: str) -> dict[str, Any]:
        """The Chroma metadata: the fields as JSON strings, a digest, and one ``e:<id>`` flag per entity."""
        metadata: dict[str, Any] = {
            "campaign": campaign,
            "session": int(self.session),
            "scope": self.scope,
            "visibility": self.visibility,
            "event_ids": json.dumps(list(self.event_ids)),
            "entities": json.dumps(list(self.entities)),
            "hard_facts": json.dumps([f.model_dump() for f in self.hard_facts]),
            "digest": self.digest(),
        }
        for entity in self.entities:
            metadata[_entity_flag(entity)] = True
        return metadata


class SyncReport(BaseModel):
    """What :meth:`SummaryIndex.sync_now` did: summaries embedded now, deleted, and left as they were."""

    model_config = ConfigDict(frozen=True)

    indexed: int
    deleted: int
    kept: int


def collection_name(campaign: str) -> str:
    """Return the Chroma collection name for ``campaign`` (readable when the id allows, hashed otherwise)."""
    if re.fullmatch(r"[a-z0-9](?:[a-z0-9._-]{0,48}[a-z0-9])?", campaign):
        return f"tk-{campaign}"
    digest = hashlib.blake2b(campaign.encode("utf-8"), digest_size=8).hexdigest()
    return f"tk-c-{digest}"


def _entity_flag(entity: str) -> str:
    return f"e:{entity}"


class SummaryIndex:
    """Campaign summaries in Chroma: one collection per campaign, an index whose facts live in the ledger.

    ``client`` is a Chroma client, or a function that opens one: it is then opened on first use and again
    after a failure, so a Chroma server that is down when the bot starts is only an :class:`IndexUnavailable`
    on each use until it answers. ``embedding`` turns texts into vectors (default: the offline
    :class:`ledger.recall.embeddings.HashingEmbedding`).

    A query is one Chroma query. The first of a campaign in a process filters on metadata (visibility and
    the scene's entity flags); from the second on (or straight after :meth:`sync_now`) the index keeps each
    summary's visibility and entities in memory and asks Chroma for the nearest among the allowed ids, which
    costs a fraction of a filter matching most of the collection. The map follows this index's own writes
    and is read again when Chroma's count differs; a hit the viewer may not see is dropped whatever it says.
    """

    def __init__(
        self,
        client: ClientAPI | Callable[[], ClientAPI],
        *,
        embedding: EmbedFn | None = None,
        scope_after: int | None = SCOPE_AFTER_QUERIES,
    ) -> None:
        from ledger.recall.embeddings import HashingEmbedding

        if callable(client) and not hasattr(client, "get_or_create_collection"):
            self._connect: Callable[[], ClientAPI] | None = client
            self._client: ClientAPI | None = None
        else:
            self._connect = None
            self._client = cast("ClientAPI", client)
        self._embed: EmbedFn = embedding or HashingEmbedding()
        self._collections: dict[str, Collection] = {}
        # campaign -> summary id -> scope, when this index knows the whole collection (see _scopes_for)
        self._scopes: dict[str, dict[str, Scope]] = {}
        self._asked: dict[str, int] = {}
        self._scope_after = scope_after  # None: always filter on metadata (benches compare the two paths)

    @classmethod
    def local(
        cls,
        path: str | Path,
        *,
        embedding: EmbedFn | None = None,
        scope_after: int | None = SCOPE_AFTER_QUERIES,
        resident_collections: int | None = None,
    ) -> SummaryIndex:
        """Open (or create, on first use) an index stored under the folder ``path``, keeping at most
        ``resident_collections`` campaigns' vector indexes in memory (None: Chroma's default, in practice
        all; see :mod:`ledger.recall.chroma_local`). An evicted campaign's index is loaded on its next use."""
        folder = Path(path).expanduser()

        def connect() -> ClientAPI:
            from ledger.recall.chroma_local import persistent_client

            folder.mkdir(parents=True, exist_ok=True)
            return persistent_client(folder, resident_collections)

        return cls(connect, embedding=embedding, scope_after=scope_after)

    @classmethod
    def remote(cls, host: str, port: int = 8000, *, embedding: EmbedFn | None = None) -> SummaryIndex:
        """Use a Chroma server (``chroma run``) at ``host:port``, connecting on first use (it may be down)."""

        def connect() -> ClientAPI:
            import chromadb
            from chromadb.config import Settings

            return chromadb.HttpClient(host=host, port=port, settings=Settings(anonymized_telemetry=False))

        return cls(connect, embedding=embedding)

    async def aclose(self) -> None:
        """Close the embedding function's client, when it has one (``close()``, e.g. the openai SDK's)."""
        closer = getattr(self._embed, "close", None)
        if closer is not None:
            await asyncio.to_thread(closer)

    # -- failures -------------------------------------------------------------------------------------------
    @contextmanager
    def _reaching(self, what: str) -> Iterator[None]:
        """Report any failure of Chroma or of the embedding function inside the block as IndexUnavailable."""
        try:
            yield
        except SummaryError:
            raise
        except Exception as exc:
            # Open the collections (and a client we opened) again next time: a restarted server may have
            # lost them, and a half-built client must not be reused.
            self._collections.clear()
            self._scopes.clear()
            if self._connect is not None:
                self._client = None
            detail = (str(exc).strip().splitlines() or [""])[0][:200]
            raise IndexUnavailable(
                f"summary index unavailable ({what}): {type(exc).__name__}: {detail}"
            ) from exc

    def _vectors(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text from the embedding function, checked (call inside :meth:`_reaching`)."""
        vectors = [[float(x) for x in vector] for vector in self._embed(list(texts))]
        if len(vectors) != len(texts) or any(not v for v in vectors):
            raise IndexUnavailable(
                f"the embedding function returned {len(vectors)} vectors for {len(texts)} texts"
            )
        return vectors

    # -- collections ----------------------------------------------------------------------------------------
    def _collection(self, campaign: str) -> Collection:
        if not campaign:
            raise SummaryError("campaign id is empty")
        found = self._collections.get(campaign)
        if found is None:
            if self._client is None:
                assert self._connect is not None
                self._client = self._connect()
            from ledger.recall.chroma_local import collection_configuration, write_through

            # No embedding function: the index passes vectors, so Chroma never computes (or downloads) one.
            # The index is written after every change, so it can be evicted and loaded again (chroma_local).
            found = write_through(
                self._client.get_or_create_collection(
                    name=collection_name(campaign),
                    embedding_function=None,
                    configuration=collection_configuration(),
                    metadata={"campaign": campaign},
                )
            )
            self._collections[campaign] = found
        return found

    def count_now(self, campaign: str) -> int:
        """Return how many summaries ``campaign`` has."""
        with self._reaching("count"):
            return int(self._collection(campaign).count())

    async def count(self, campaign: str) -> int:
        """Async :meth:`count_now`."""
        return await asyncio.to_thread(self.count_now, campaign)

    # -- add ------------------------------------------------------------------------------------------------
    def add_now(
        self,
        *,
        summary_id: str,
        campaign: str,
        session: int,
        scope: str,
        text: str,
        event_ids: Sequence[str] = (),
        visibility: str = "public",
        entities: Sequence[str] = (),
        hard_facts: Sequence[Death | Transfer | ThreadChange] = (),
    ) -> None:
        """Store (or replace) a summary without verification. Use :meth:`add` from the bot; this is for
        callers that have already verified (the scenario loader, benches)."""
        doc = SummaryDoc(
            id=summary_id,
            session=session,
            scope=scope,
            text=text,
            event_ids=tuple(event_ids),
            visibility=visibility,
            entities=tuple(entities),
            hard_facts=tuple(hard_facts),
        )
        self._upsert(campaign, [doc], "add")

    def add_many_now(self, campaign: str, docs: Sequence[SummaryDoc]) -> None:
        """Store (or replace) ``docs`` without verification, in as few Chroma calls as its batch cap allows
        (one embedding call and one upsert per batch). For callers that have already verified them (a queue
        of pending summaries). Raises SummaryError for a bad doc (nothing stored), IndexUnavailable."""
        self._upsert(campaign, docs, "add")

    def _upsert(self, campaign: str, docs: Sequence[SummaryDoc], what: str) -> None:
        """Embed and upsert ``docs`` in batches (one embedding call and one Chroma call per batch)."""
        for doc in docs:
            doc.check()
        with self._reaching(what):
            collection = self._collection(campaign)
            size = self._batch_size()
            for start in range(0, len(docs), size):
                batch = docs[start : start + size]
                vectors = self._vectors([d.text for d in batch])
                collection.upsert(
                    ids=[d.id for d in batch],
                    documents=[d.text for d in batch],
                    embeddings=vectors,  # type: ignore[arg-type]
                    metadatas=[d.metadata(campaign) for d in batch],
                )
                known = self._scopes.get(campaign)
                if known is not None:
                    known.update((d.id, Scope(d.visibility, frozenset(d.entities))) for d in batch)

    def _batch_size(self) -> int:
        """:data:`_BATCH`, or the client's own cap when it is smaller."""
        cap = getattr(self._client, "get_max_batch_size", None)
        try:
            return max(1, min(_BATCH, int(cap()))) if cap is not None else _BATCH
        except Exception:  # an old client or server that cannot say: the conservative size
            return 500

    def sync_now(
        self, campaign: str, docs: Sequence[SummaryDoc], *, suspect: Iterable[str] | None = None
    ) -> SyncReport:
        """Make ``campaign``'s collection hold exactly ``docs``, re-indexing only what changed.

        Each stored summary keeps a digest of what it was indexed from (text, session, scope, visibility,
        events, entities, hard facts): a summary whose digest is already there is left alone, a new or
        changed one is embedded and upserted, one no longer in ``docs`` is deleted. ``suspect`` (when the
        caller knows it, e.g. the summary rows SQL has not marked ``indexed``) limits the comparison to
        those ids, provided the collection holds as many summaries as ``docs``; otherwise every stored
        digest is read. So an index kept next to its database is built once and then costs a count per
        use. Raises IndexUnavailable.
        """
        wanted = {d.id: d for d in docs}
        if len(wanted) != len(docs):
            raise SummaryError("summary ids must be unique")
        with self._reaching("sync"):
            collection = self._collection(campaign)
            if suspect is not None and collection.count() == len(docs):
                ids = [sid for sid in dict.fromkeys(suspect) if sid in wanted]
                if not ids:
                    self._know(campaign, docs)
                    return SyncReport(indexed=0, deleted=0, kept=len(docs))
                known = collection.get(ids=ids, include=["metadatas"])
                have = {
                    sid: str((meta or {}).get("digest", ""))
                    for sid, meta in zip(known["ids"], known.get("metadatas") or [], strict=True)
                }
                todo = [wanted[sid] for sid in ids if have.get(sid) != wanted[sid].digest()]
                if todo:
                    self._upsert(campaign, todo, "sync")
                self._know(campaign, docs)
                return SyncReport(indexed=len(todo), deleted=0, kept=len(docs) - len(todo))
            stored = collection.get(include=["metadatas"])
            have = {
                sid: str((meta or {}).get("digest", ""))
                for sid, meta in zip(stored["ids"], stored.get("metadatas") or [], strict=True)
            }
            stale = [sid for sid in have if sid not in wanted]
            if stale:
                collection.delete(ids=stale)
        todo = [d for d in docs if have.get(d.id) != d.digest()]
        if todo:
            self._upsert(campaign, todo, "sync")
        self._know(campaign, docs)
        return SyncReport(indexed=len(todo), deleted=len(stale), kept=len(docs) - len(todo))

    def _know(self, campaign: str, docs: Sequence[SummaryDoc]) -> None:
        """The collection now holds exactly ``docs``: their scopes are the campaign's map (no read needed)."""
        self._scopes[campaign] = {d.id: Scope(d.visibility, frozenset(d.entities)) for d in docs}

    async def add(
        self,
        *,
        summary_id: str,
        campaign: str,
        session: int,
        scope: str,
        text: str,
        verify: Verify,
        event_ids: Sequence[str] = (),
        visibility: str = "public",
        entities: Sequence[str] = (),
        hard_facts: Sequence[Death | Transfer | ThreadChange] = (),
        known_entities: Mapping[str, Sequence[str]] | None = None,
        known_items: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        """Store a summary after checking that the ledger already holds every hard fact it states.

        ``hard_facts`` are the facts the caller declares; ``missing = await verify(hard_facts)`` must come
        back empty. With ``known_entities``/``known_items`` (id -> names), the text is also scanned for
        deaths and hand-overs; any not covered by a declared fact is refused as undeclared.
        Raises :class:`SummaryRefused` (nothing stored), :class:`SummaryError` for bad input, or
        :class:`IndexUnavailable` when Chroma or the embedding function fails (the ledger row stays the
        record: index it again later).
        """
        declared = tuple(hard_facts)
        undeclared: list[CandidateFact] = []
        if known_entities is not None or known_items is not None:
            candidates = find_hard_fact_candidates(
                text, entities=known_entities or {}, items=known_items or {}
            )
            undeclared = [c for c in candidates if not covered_by(c, declared)]
        missing = list(await verify(declared)) if declared else []
        if missing or undeclared:
            raise SummaryRefused(summary_id, missing, undeclared)
        await asyncio.to_thread(
            self.add_now,
            summary_id=summary_id,
            campaign=campaign,
            session=session,
            scope=scope,
            text=text,
            event_ids=event_ids,
            visibility=visibility,
            entities=entities,
            hard_facts=declared,
        )

    # -- query ----------------------------------------------------------------------------------------------
    def query_now(
        self,
        *,
        campaign: str,
        text: str,
        visibilities: Iterable[str] | None = ("public", "party"),
        entities: Sequence[str] = (),
        n: int = MAX_HITS,
    ) -> tuple[SummaryHit, ...]:
        """Return up to ``n`` (at most 5) summaries closest to ``text`` that the viewer may see.

        ``visibilities`` is what the viewer sees (``None`` = the GM: everything). Summaries mentioning any of
        ``entities`` (the scene's NPCs, location, quest) come first; the rest of the slots go to the closest
        others. Within each group, closest first.
        """
        if not 1 <= n <= MAX_HITS:
            raise SummaryError(f"n must be between 1 and {MAX_HITS}, got {n}")
        if not text.strip():
            raise SummaryError("query text is empty")
        with self._reaching("query"):
            return self._query(campaign, text, visibilities, entities, n)

    def _query(
        self, campaign: str, text: str, visibilities: Iterable[str] | None, entities: Sequence[str], n: int
    ) -> tuple[SummaryHit, ...]:
        collection = self._collection(campaign)
        vector = self._vectors([text])[0]
        scopes = sorted(set(visibilities)) if visibilities is not None else None
        scene = list(dict.fromkeys(entities))
        known = self._scopes_for(campaign, collection)
        if known is not None:
            try:
                return self._query_by_ids(collection, vector, known, scopes, scene, n)
            except Exception:  # the map went stale (another writer): forget it, ask with a filter below
                self._scopes.pop(campaign, None)
        vis_filter: dict[str, Any] | None = {"visibility": {"$in": scopes}} if scopes is not None else None
        hits: list[SummaryHit] = []
        if scene:
            flags: list[dict[str, Any]] = [{_entity_flag(e): True} for e in scene]
            about = flags[0] if len(flags) == 1 else {"$or": flags}
            where = about if vis_filter is None else {"$and": [vis_filter, about]}
            hits += self._search(collection, vector, where, n)
        if len(hits) < n:
            seen = {h.id for h in hits}
            more = self._search(collection, vector, vis_filter, n + len(hits))
            hits += [h for h in more if h.id not in seen][: n - len(hits)]
        return tuple(hits)

    def _scopes_for(self, campaign: str, collection: Collection) -> dict[str, Scope] | None:
        """The campaign's scope map when it is known and still counts as many summaries as the collection:
        set by :meth:`sync_now`, kept by this index's writes, read from the collection on the
        :data:`SCOPE_AFTER_QUERIES`-th query (a process that asks twice will ask again; ``scope_after``). None
        otherwise, and always when the index was made with ``scope_after=None``."""
        if self._scope_after is None:
            return None
        asked = self._asked[campaign] = self._asked.get(campaign, 0) + 1
        known = self._scopes.get(campaign)
        if known is None and asked < self._scope_after:
            return None
        total = int(collection.count())
        if known is not None and len(known) == total:
            return known
        stored = collection.get(include=["metadatas"])
        known = {
            sid: Scope(
                str((meta or {}).get("visibility", "gm")),
                frozenset(json.loads(str((meta or {}).get("entities", "[]")))),
            )
            for sid, meta in zip(stored["ids"], stored.get("metadatas") or [], strict=True)
        }
        self._scopes[campaign] = known
        return known

    def _query_by_ids(
        self,
        collection: Collection,
        vector: list[float],
        known: Mapping[str, Scope],
        scopes: Sequence[str] | None,
        scene: Sequence[str],
        n: int,
    ) -> tuple[SummaryHit, ...]:
        """:meth:`_query` through the scope map: the visible summaries about the scene, then (when fewer
        than ``n``) the closest other visible ones, each asked of Chroma by id (one query when the scene has
        ``n`` summaries or none). A hit the viewer may not see is dropped whatever the map said."""
        allowed = None if scopes is None else set(scopes)
        about, others = split_by_scene(known.items(), scopes, scene)
        hits: list[SummaryHit] = []
        if about:
            hits += self._search(collection, vector, None, n, ids=about)
        if len(hits) < n and others:
            hits += self._search(collection, vector, None, n - len(hits), ids=others)
        return tuple(h for h in hits if allowed is None or h.visibility in allowed)[:n]

    @staticmethod
    def _search(
        collection: Collection,
        vector: list[float],
        where: dict[str, Any] | None,
        n: int,
        *,
        ids: list[str] | None = None,
    ) -> list[SummaryHit]:
        result = collection.query(
            query_embeddings=[vector],  # type: ignore[arg-type]
            n_results=n,
            where=where,
            ids=ids,
            include=["documents", "metadatas", "distances"],
        )
        ids = result["ids"][0]
        documents = (result.get("documents") or [[]])[0]
        metadatas = (result.get("metadatas") or [[]])[0]
        distances = (result.get("distances") or [[]])[0]
        hits = []
        for summary_id, document, meta, distance in zip(ids, documents, metadatas, distances, strict=True):
            hits.append(
                SummaryHit(
                    id=summary_id,
                    text=document or "",
                    session=int(cast(int, meta["session"])),
                    scope=str(meta["scope"]),
                    event_ids=tuple(json.loads(str(meta["event_ids"]))),
                    entities=tuple(json.loads(str(meta["entities"]))),
                    visibility=str(meta["visibility"]),
                    distance=float(distance),
                )
            )
        return hits

    async def query(
        self,
        *,
        campaign: str,
        text: str,
        visibilities: Iterable[str] | None = ("public", "party"),
        entities: Sequence[str] = (),
        n: int = MAX_HITS,
    ) -> tuple[SummaryHit, ...]:
        """Async :meth:`query_now`; raises :class:`IndexUnavailable` when the index cannot answer."""
        return await asyncio.to_thread(
            self.query_now,
            campaign=campaign,
            text=text,
            visibilities=None if visibilities is None else tuple(visibilities),
            entities=tuple(entities),
            n=n,
        )

    def delete_campaign_now(self, campaign: str) -> None:
        """Drop every summary of ``campaign`` (e.g. before re-indexing from the ledger)."""
        name = collection_name(campaign)
        self._collections.pop(campaign, None)
        self._scopes.pop(campaign, None)
        with self._reaching("delete"):
            if self._client is None:
                assert self._connect is not None
                self._client = self._connect()
            if any(c.name == name for c in self._client.list_collections()):
                self._client.delete_collection(name)
