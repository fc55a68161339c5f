"""A scenario's ledger and summary index kept between ``tablekeeper recall`` calls (issue 11): summaries are
indexed once, and later only what changed is embedded again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from ledger.recall.embeddings import HashingEmbedding
from ledger.recall.summaries import SummaryDoc, SummaryIndex

ROOT = Path(__file__).resolve().parents[1]
HARBOR = ROOT / "scenarios" / "harbor.toml"


class CountingEmbedding:
    """The offline embedding, counting the texts it was asked to embed."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self._inner = HashingEmbedding()

    def __call__(self, texts: list[str]) -> Any:
        self.texts += texts
        return self._inner(texts)


def _docs(n: int) -> list[SummaryDoc]:
    return [
        SummaryDoc(id=f"s-{i}", session=i, scope="history", text=f"Wei counts crate {i} at the harbour")
        for i in range(n)
    ]


def test_sync_embeds_only_new_and_changed_summaries_and_drops_gone_ones(tmp_path: Path) -> None:
    embed = CountingEmbedding()
    index = SummaryIndex.local(tmp_path / "chroma", embedding=embed)
    docs = _docs(30)
    first = index.sync_now("c", docs)
    assert (first.indexed, first.deleted, first.kept) == (30, 0, 0)
    assert len(embed.texts) == 30
    # Nothing changed: nothing embedded, even by a fresh index over the same folder (another process).
    embed2 = CountingEmbedding()
    again = SummaryIndex.local(tmp_path / "chroma", embedding=embed2).sync_now("c", docs)
    assert (again.indexed, again.kept) == (0, 30) and embed2.texts == []
    changed = [*docs[:10], docs[10].model_copy(update={"text": "Bessa pours ale"}), *docs[11:25]]
    report = index.sync_now("c", changed)
    assert (report.indexed, report.deleted, report.kept) == (1, 5, 24)
    assert embed.texts[-1] == "Bessa pours ale" and len(embed.texts) == 31
    assert index.count_now("c") == 25
    (hit,) = index.query_now(campaign="c", text="who pours ale", n=1)
    assert hit.id == "s-10"


def test_sync_with_suspects_compares_only_those_while_the_count_agrees(tmp_path: Path) -> None:
    embed = CountingEmbedding()
    index = SummaryIndex.local(tmp_path / "chroma", embedding=embed)
    docs = _docs(12)
    index.sync_now("c", docs)
    edited = [*docs[:3], docs[3].model_copy(update={"visibility": "gm"}), *docs[4:]]
    report = index.sync_now("c", edited, suspect=["s-3"])
    assert (report.indexed, report.kept) == (1, 11)
    assert index.query_now(campaign="c", text="crate 3", visibilities=("public",), n=5)
    assert all(h.id != "s-3" for h in index.query_now(campaign="c", text="crate 3", n=5))
    # A count that disagrees (a summary lost from the index) means every digest is read again.
    fewer = SummaryIndex.local(tmp_path / "other", embedding=CountingEmbedding())
    fewer.sync_now("c", docs[:11])
    healed = fewer.sync_now("c", docs, suspect=[])
    assert (healed.indexed, healed.kept) == (1, 11)


def test_recall_loads_a_file_once_and_reopens_it_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import ledger.scenario.load as loader

    loads = {"n": 0}
    real = loader.load_scenario_into

    async def counting(*args: Any, **kwargs: Any) -> int:
        loads["n"] += 1
        return await real(*args, **kwargs)

    monkeypatch.setattr(loader, "load_scenario_into", counting)
    cache = tmp_path / "cache"
    args = ["recall", "--scenario", str(HARBOR), "--at", "The Harbour", "--present", "old wei", "--json"]
    assert main([*args, "--cache", str(cache)]) == 0
    first = capsys.readouterr().out
    assert main([*args, "--cache", str(cache)]) == 0
    assert capsys.readouterr().out == first
    assert loads["n"] == 1
    (entry,) = (cache / "recall").iterdir()
    assert (
        (entry / "ledger.db").is_file() and (entry / "chroma").is_dir() and (entry / "ready.json").is_file()
    )
    # An edited file is another ledger; --no-cache leaves nothing behind.
    edited = tmp_path / "harbor.toml"
    edited.write_text(HARBOR.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert main(["recall", "--scenario", str(edited), "--at", "harbour", "--cache", str(cache)]) == 0
    assert len(list((cache / "recall").iterdir())) == 2 and loads["n"] == 2
    assert (
        main(["recall", "--scenario", str(edited), "--at", "harbour", "--no-cache", "--cache", str(cache)])
        == 0
    )
    assert len(list((cache / "recall").iterdir())) == 2 and loads["n"] == 3
    capsys.readouterr()


def test_a_broken_file_builds_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[campaign]\nname = 1\n", encoding="utf-8")
    cache = tmp_path / "cache"
    assert main(["recall", "--scenario", str(bad), "--at", "harbour", "--cache", str(cache)]) == 2
    assert "bad.toml" in capsys.readouterr().err
    assert not (cache / "recall").exists() or not any((cache / "recall").iterdir())
