"""The five-layer campaign store: facts and inventory, relationships, threads, events, summaries.

Knows nothing of Discord or the LLM. SQL is the authority; Chroma summaries are an index.
"""
