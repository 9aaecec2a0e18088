"""Runs examples/replay_csv.py against the real node, and checks its features by brute force:
for each payment, the card's payments so far whose time is in the window ending at its time."""

from __future__ import annotations

import datetime as dt
import importlib.util
import pathlib

import pytest

from railgun import NotFoundError

from conftest import admin_token, unique

EXAMPLE = pathlib.Path(__file__).resolve().parent.parent / "examples" / "replay_csv.py"


def load_example():
    spec = importlib.util.spec_from_file_location("replay_csv", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def millis(iso: str) -> int:
    return int(dt.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


def test_the_csv_replay_example(url, rg, tmp_path, capsys):
    stream = unique("pydemo")
    argv = ["--url", url, "--stream", stream, "--csv", str(tmp_path / "payments.csv")]
    if admin_token():
        argv += ["--token", admin_token()]
    try:
        result = load_example().main(argv)
    finally:
        try:
            rg.delete_stream(stream)
        except NotFoundError:
            pass
    out = capsys.readouterr().out
    assert "features: card_count_5m, card_sum_5m, card_countries_1h, card_max_1h, merchant_avg_30d" in out

    payments, features = result["payments"], result["features"]
    assert len(payments) == len(features) == 200
    times = [millis(p["ts"]) for p in payments]
    assert times == sorted(times)  # the CSV is in time order, so each reply is at its own time
    for i, (p, f) in enumerate(zip(payments, features)):
        t = times[i]
        same_card = [(times[j], payments[j]) for j in range(i + 1) if payments[j]["card"] == p["card"]]
        last_5m = [q for tq, q in same_card if tq > t - 5 * 60_000]
        last_1h = [q for tq, q in same_card if tq > t - 60 * 60_000]
        merchant = [q["amount"] for q in payments[: i + 1] if q["merchant"] == p["merchant"]]
        assert f["id"] == p["id"]
        assert f["card_count_5m"] == len(last_5m)
        assert f["card_sum_5m"] == pytest.approx(sum(q["amount"] for q in last_5m), rel=1e-9)
        assert f["card_countries_1h"] == len({q["country"] for q in last_1h})
        assert f["card_max_1h"] == max(q["amount"] for q in last_1h)
        assert f["merchant_avg_30d"] == pytest.approx(sum(merchant) / len(merchant), rel=1e-9)

    # the point reads: the values at each card's partition's stream time
    assert len(result["current"]) == len({p["card"] for p in payments})
    for row in result["current"]:
        st = int(row["stream_time"].timestamp() * 1000)
        window = [q for tq, q in zip(times, payments) if q["card"] == row["card"] and st - 3_600_000 < tq <= st]
        assert row["card_countries_1h"] == len({q["country"] for q in window})
        assert row["card_max_1h"] == (max(q["amount"] for q in window) if window else None)
