"""Replay a CSV of payments through Railgun and read the features back.

A notebook in a script (each ``# %%`` is a cell): a data scientist defines features as a stream
and metrics, replays past payments, and gets, for every payment, the features as they were at
that moment (point-in-time correct training data), then the current values per card.

    ./railgun start                       # in the repository, another terminal
    pip install ./clients/python          # add pandas for the DataFrames
    python clients/python/examples/replay_csv.py [--url http://127.0.0.1:7070] [--token T]

The tests run it (tests/test_example.py), so it keeps working.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import random
import sys
import tempfile
from typing import Any, Dict, List, Optional, Sequence

from railgun import NotFoundError, Railgun, StreamSpec

# %% 1. A CSV of 200 payments over two hours (a real one would come from your warehouse)


def write_payments_csv(path: str, rows: int = 200, seed: int = 7) -> None:
    rnd = random.Random(seed)
    t = dt.datetime(2024, 3, 1, 9, 0, 0, tzinfo=dt.timezone.utc)
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["id", "ts", "card", "merchant", "amount", "country"])
        for i in range(rows):
            t += dt.timedelta(seconds=rnd.randint(0, 70))
            out.writerow([
                f"p{i:04d}",
                t.strftime("%Y-%m-%dT%H:%M:%SZ"),  # ISO-8601 with a zone, as the node accepts it
                f"card-{rnd.randint(1, 12):02d}",
                rnd.choice(["grocer", "fuel", "books", "travel", "games"]),
                f"{rnd.uniform(1, 200):.2f}",
                rnd.choice(["FR", "FR", "FR", "DE", "ES", "US"]),
            ])


def read_payments_csv(path: str) -> List[Dict[str, Any]]:
    """CSV cells are text: give each its field's type (the node refuses "12.5" for a double)."""
    with open(path, newline="") as f:
        return [{**row, "amount": float(row["amount"])} for row in csv.DictReader(f)]


# %% 2. The features: a stream, and metrics over sliding windows

PAYMENTS = StreamSpec(
    fields={"id": "string", "ts": "timestamp", "card": "string", "merchant": "string",
            "amount": "double", "country": "string"},
    event_id="id",
    timestamp="ts",
    partitioners=["card", "merchant"],
    partitions=2,
)

FEATURES = [
    "SELECT COUNT(*) AS card_count_5m, SUM(amount) AS card_sum_5m FROM {s} GROUP BY card [RANGE 5 MINUTES]",
    "SELECT COUNT(DISTINCT country) AS card_countries_1h, MAX(amount) AS card_max_1h FROM {s} GROUP BY card [RANGE 1 HOUR]",
    "SELECT AVG(amount) AS merchant_avg_30d FROM {s} GROUP BY merchant [RANGE 30 DAYS]",
]


def define_features(rg: Railgun, stream: str) -> List[str]:
    try:
        rg.delete_stream(stream)  # start from scratch, so the example can run again
    except NotFoundError:
        pass
    rg.create_stream(stream, PAYMENTS)
    names: List[str] = []
    for statement in FEATURES:
        names += rg.add_metrics(stream, statement.format(s=stream))
    return names


# %% 3. Replay: each reply holds every feature as of that payment


def replay(rg: Railgun, stream: str, payments: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    rows = []
    # in time order, in batches: a batch is counted in order, like the events of a live stream
    for payment, reply in zip(payments, rg.send_many(stream, payments, batch_size=50)):
        rows.append({"id": reply.event_id, "card": payment["card"], "amount": payment["amount"], **reply.metrics})
    return rows


# %% 4. Read back: the current value of a feature per card, without sending an event


def current_per_card(rg: Railgun, stream: str, cards: Sequence[str]) -> List[Dict[str, Any]]:
    table = []
    for card in sorted(cards):
        row: Dict[str, Any] = {"card": card}
        for metric in ("card_count_5m", "card_countries_1h", "card_max_1h"):
            read = rg.read(stream, metric, card=card)
            row[metric] = read.value
        row["stream_time"] = dt.datetime.fromtimestamp(read.stream_time / 1000, dt.timezone.utc)
        table.append(row)
    return table


def show(title: str, rows: List[Dict[str, Any]], head: int = 8) -> None:
    print(f"\n{title} ({len(rows)} rows)")
    try:
        import pandas as pd  # optional
    except ImportError:
        for row in rows[:head]:
            print("  ", row)
        return
    print(pd.DataFrame(rows).head(head).to_string(index=False))


def main(argv: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:7070")
    parser.add_argument("--token", default=None, help="the node's admin token, if it has tokens")
    parser.add_argument("--stream", default="payments_demo")
    parser.add_argument("--csv", default=None, help="where to write the CSV (default: a temporary folder)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp, Railgun(args.url, token=args.token) as rg:
        path = args.csv or os.path.join(tmp, "payments.csv")
        write_payments_csv(path)
        payments = read_payments_csv(path)
        print("features:", ", ".join(define_features(rg, args.stream)))
        features = replay(rg, args.stream, payments)
        show("features as of each payment (training data)", features)
        current = current_per_card(rg, args.stream, {p["card"] for p in payments})
        show("current values per card", current)
        return {"payments": payments, "features": features, "current": current}


if __name__ == "__main__":
    main(sys.argv[1:])
