"""Prometheus metrics of one server process (`GET /metrics` when operator endpoints are on).

Each application has its own registry, so several apps in one process (the tests) do
not share counters. Gauges are read at scrape time from the rooms themselves; the
commit latency histogram is fed by the committer.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from prometheus_client.metrics_core import Metric

    from hraj.server.rooms import Rooms

#: Commit latency buckets in seconds: a healthy disk commits in 1-20 ms.
COMMIT_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)


class _Live(Collector):
    """What the rooms hold right now, read when Prometheus asks."""

    def __init__(self, rooms: Rooms, sockets: collections.Counter[str]) -> None:
        self.rooms = rooms
        self.sockets = sockets

    def collect(self) -> Iterator[Metric]:
        loaded = list(self.rooms.rooms.values())
        live = GaugeMetricFamily("hraj_rooms", "Rooms loaded in this process, by status.", labels=["status"])
        live.add_metric(["playing"], sum(1 for room in loaded if not room.over))
        live.add_metric(["over"], sum(1 for room in loaded if room.over))
        yield live
        # Several processes on PostgreSQL: rooms this process owns, and those it follows.
        owned = sum(1 for room in loaded if getattr(room, "owned", True))
        role = GaugeMetricFamily("hraj_rooms_by_role", "Rooms loaded, owned here or followed.", labels=["role"])
        role.add_metric(["owned"], owned)
        role.add_metric(["followed"], len(loaded) - owned)
        yield role
        yield GaugeMetricFamily("hraj_connections", "Open WebSocket connections.", value=sum(self.sockets.values()))
        committer = self.rooms.committer
        yield CounterMetricFamily("hraj_events", "Events committed to the store.", value=committer.events)
        yield CounterMetricFamily("hraj_commits", "Group commits written.", value=committer.commits)
        yield CounterMetricFamily(
            "hraj_commit_failures", "Room batches that could not be committed.", value=committer.failed
        )


class Metrics:
    """The registry of one application and the metrics fed as things happen."""

    content_type = CONTENT_TYPE_LATEST

    def __init__(self, rooms: Rooms, sockets: collections.Counter[str]) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.registry.register(_Live(rooms, sockets))
        self.commit_seconds = Histogram(
            "hraj_commit_seconds", "Seconds one group commit takes.", buckets=COMMIT_BUCKETS, registry=self.registry
        )
        self.errors = Counter(
            "hraj_errors", "Errors answered to clients, by code.", labelnames=["code"], registry=self.registry
        )
        rooms.committer.observe = self.commit_seconds.observe

    def render(self) -> bytes:
        return generate_latest(self.registry)
