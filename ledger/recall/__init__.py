"""Recall: the few records a narrator is reminded of in a scene, and the summary index behind them.

It owns scene retrieval (:mod:`.retrieval`), the Chroma summaries (:mod:`.summaries`) and the embedding
contract (:mod:`.embeddings`). It reads :mod:`ledger.store` and the scenario format's plain views; nothing in
the store or the scenario room imports recall.
"""
