"""Chroma in the process, bounding the collections it keeps resident (issue 14: memory per idle campaign).

Chroma 1.x's embedded client runs its Rust core, which keeps each collection's HNSW index in memory (about
2.6 MB for a small campaign) in a cache of ``hnsw_cache_size`` indexes, evicting the least recently used and
loading it again from disk on its next use. Chroma sets that size from the file-handle limit (``ulimit -n``
/ 5: 4,000 indexes under a limit of 20,000), so in practice nothing is ever evicted. The ``Settings`` keys
``chroma_segment_cache_policy="LRU"`` and ``chroma_memory_limit_bytes`` are read only by the older Python
segment manager, which the Rust-backed client does not use, so they bound nothing. :func:`persistent_client`
sets the cache's size itself (the one bound the Rust core takes) before the client starts.

An index that is evicted before Chroma wrote it to disk cannot be loaded again ("Nothing found on disk"), and
one evicted with records newer than its last write answers without them. Chroma writes an index after
``sync_threshold`` records (1,000 by default), so :func:`collection_configuration` makes each collection write
its index after each change (:func:`write_through`): a campaign's summaries arrive a few at a time, and a
bulk upsert of 2,000 costs the same either way.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chromadb.api import ClientAPI
    from chromadb.api.collection_configuration import CreateCollectionConfiguration
    from chromadb.api.models.Collection import Collection

__all__ = ["collection_configuration", "persistent_client", "resident_indexes", "write_through"]

_lock = threading.Lock()


def collection_configuration() -> CreateCollectionConfiguration:
    """A new collection's configuration: cosine distance, its index written to disk after every change."""
    return {"hnsw": {"space": "cosine", "sync_threshold": 1, "batch_size": 1}}


def persistent_client(folder: Path, resident: int | None = None) -> ClientAPI:
    """A Chroma client storing under ``folder``, keeping at most ``resident`` collection indexes in memory
    (``None``: Chroma's own default). A folder already open in this process reuses that client's core (and
    its bound): Chroma allows one per folder."""
    import chromadb
    from chromadb.api import ServerAPI
    from chromadb.api.client import Client
    from chromadb.api.shared_system_client import SharedSystemClient
    from chromadb.config import Settings, System
    from chromadb.telemetry.product import ProductTelemetryClient

    if resident is not None and resident < 1:
        raise ValueError(f"resident collections must be at least 1, got {resident}")
    settings = Settings(anonymized_telemetry=False, is_persistent=True, persist_directory=str(folder))
    with _lock:
        if resident is None or str(folder) in SharedSystemClient._identifier_to_system:
            return chromadb.PersistentClient(path=str(folder), settings=settings)
        # What chromadb.PersistentClient does, with the index cache's size set between making the core and
        # starting it (RustBindingsAPI.start reads hnsw_cache_size).
        system = System(settings)
        system.instance(ProductTelemetryClient)  # type: ignore[type-abstract]  # as chromadb itself does
        api = system.instance(ServerAPI)  # type: ignore[type-abstract]
        if not hasattr(api, "hnsw_cache_size"):
            raise RuntimeError(f"this chromadb ({type(api).__name__}) has no index cache size to bound")
        api.hnsw_cache_size = resident
        system.start()
        return Client.from_system(system)


def resident_indexes(client: ClientAPI) -> int | None:
    """How many collection indexes ``client``'s core keeps in memory at most (None: not an embedded core)."""
    server = getattr(client, "_server", None)
    size = getattr(server, "hnsw_cache_size", None)
    return int(size) if isinstance(size, int) else None


def write_through(collection: Collection) -> Collection:
    """Make a collection made with Chroma's defaults write its index after every change (see the module
    docstring): one call, once per collection per process; one made by :func:`collection_configuration`
    is left alone."""
    hnsw = (collection.configuration_json or {}).get("hnsw") or {}  # the raw JSON: no embedding function read
    if hnsw and hnsw.get("sync_threshold") != 1:
        collection.modify(configuration={"hnsw": {"sync_threshold": 1, "batch_size": 1}})
    return collection
