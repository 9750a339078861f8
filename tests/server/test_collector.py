"""The room's garbage-collection policy (``server/collector.py``): survivors of a full
collection are left out of the next ones, objects still die by reference counting at
once, and reference cycles among frozen objects are collected by the periodic sweep."""

from __future__ import annotations

import doctest
import gc
import weakref
from collections.abc import Iterator

import pytest
from prometheus_client import CollectorRegistry, Histogram

from crazy_eights.server import collector as collector_module
from crazy_eights.server.collector import Collector


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Thing:
    """A tracked object that can be in a cycle and be watched through a weak reference."""

    def __init__(self) -> None:
        self.other: Thing | None = None


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def installed(clock: Clock) -> Iterator[Collector]:
    policy = Collector(sweep_seconds=900.0, clock=clock)
    policy.install()
    try:
        yield policy
    finally:
        policy.uninstall()
        gc.collect()


def test_install_freezes_what_exists_and_uninstall_gives_it_back() -> None:
    policy = Collector(sweep_seconds=900.0)
    policy.install()
    try:
        assert policy.installed
        assert gc.get_freeze_count() > 0
    finally:
        policy.uninstall()
    assert not policy.installed
    assert gc.get_freeze_count() == 0


def test_the_survivors_of_a_full_collection_are_frozen(installed: Collector) -> None:
    before = gc.get_freeze_count()
    kept = [Thing() for _ in range(1000)]
    gc.collect()
    assert gc.get_freeze_count() >= before + len(kept)


def test_a_frozen_object_still_dies_with_its_last_reference(installed: Collector) -> None:
    thing = Thing()
    gc.collect()  # frozen now
    watch = weakref.ref(thing)
    del thing
    assert watch() is None


def test_a_frozen_cycle_waits_for_the_sweep(installed: Collector, clock: Clock) -> None:
    a, b = Thing(), Thing()
    a.other, b.other = b, a
    gc.collect()  # the cycle survives (it is referenced) and is frozen
    watch = weakref.ref(a)
    del a, b
    gc.collect()
    assert watch() is not None, "a frozen cycle is left out of the collections"
    assert not installed.sweep_due
    clock.now = 900.0
    assert installed.sweep_due
    gc.collect()  # after this one everything is handed back for the next
    gc.collect()  # the sweep
    assert watch() is None
    assert not installed.sweep_due  # swept: the next sweep is 900 s away
    clock.now = 1799.0
    assert not installed.sweep_due


def test_uninstall_lets_a_frozen_cycle_be_collected(clock: Clock) -> None:
    policy = Collector(sweep_seconds=900.0, clock=clock)
    policy.install()
    try:
        a, b = Thing(), Thing()
        a.other, b.other = b, a
        gc.collect()
        watch = weakref.ref(a)
        del a, b
    finally:
        policy.uninstall()
    gc.collect()
    assert watch() is None


def test_each_pause_is_observed_by_generation(clock: Clock) -> None:
    registry = CollectorRegistry()
    pauses = Histogram("pauses", "test", ["generation"], registry=registry)
    policy = Collector(sweep_seconds=900.0, clock=clock, pauses=pauses)
    policy.install()
    try:
        gc.collect()
        gc.collect(0)
    finally:
        policy.uninstall()
    for generation in ("0", "2"):
        count = registry.get_sample_value("pauses_count", {"generation": generation})
        assert count is not None and count >= 1, generation
    total = registry.get_sample_value("pauses_sum", {"generation": "2"})
    assert total is not None and 0 < total < 10


def test_doctest() -> None:
    failures, _ = doctest.testmod(collector_module)
    assert failures == 0
