"""`python bench/run.py --check`: every target lives beside its keys, and a missed one fails."""

import importlib
import os
import sys
import types

import pytest

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench")
sys.path.insert(0, BENCH)

import run  # noqa: E402  (bench/run.py)
import targets  # noqa: E402
from targets import at_least, at_most, exactly, within  # noqa: E402


def test_every_target_names_a_figure_its_module_gives():
    for name in run.modules():
        module = importlib.import_module("bench_" + name)
        for key, (low, high) in getattr(module, "TARGETS", {}).items():
            assert key in module.KEYS, (name, key)
            assert low is not None or high is not None, (name, key)
            for end in (low, high):  # bench/targets.py's (low, high) pairs, nothing else
                assert end is None or isinstance(end, (int, float)), (name, key, end)
            assert low is None or high is None or low <= high, (name, key)


def test_the_player_facing_rig_targets_are_the_issues():
    import bench_rp2_press
    import bench_rp2_table

    assert bench_rp2_table.TARGETS["rp2_boot_to_ready_ms"] == at_most(600)
    assert bench_rp2_table.TARGETS["rp2_press_light_ms_max"] == at_most(50)
    assert bench_rp2_table.TARGETS["rp2_cpu_busy_pct_attached"] == at_most(20)
    assert "rp2_loop_us_p99" not in bench_rp2_press.TARGETS  # retired: a diagnostic


def test_misses_names_each_figure_outside_its_target_and_each_not_measured():
    got = targets.misses(
        {"a": 51, "b": 50, "c": None, "d": 1, "e": 0.5},
        {
            "a": at_most(50),
            "b": at_most(50),
            "c": exactly(0),
            "d": at_least(2),
            "e": within(1, 0.1),
        },
    )
    assert got == [
        "a: 51 (target ≤ 50)",
        "c: not measured (target = 0)",
        "d: 1 (target ≥ 2)",
        "e: 0.5 (target 0.9–1.1)",
    ]


def _fake_area(monkeypatch, figures, area_targets):
    module = types.ModuleType("bench_fake")
    module.KEYS = tuple(figures)
    module.TARGETS = area_targets
    module.measure = lambda: dict(figures)
    monkeypatch.setitem(sys.modules, "bench_fake", module)
    monkeypatch.setattr(run, "modules", lambda only=(): ["fake"])


def test_check_exits_1_and_names_the_missed_figure(monkeypatch, capsys):
    _fake_area(
        monkeypatch,
        {"fast_ms": 10, "slow_ms": 80},
        {"fast_ms": at_most(50), "slow_ms": at_most(50)},
    )
    assert run.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert "missed target: slow_ms: 80 (target ≤ 50)" in err
    assert "fast_ms" not in err


def test_check_exits_0_when_every_target_is_met(monkeypatch, capsys):
    _fake_area(monkeypatch, {"fast_ms": 10}, {"fast_ms": at_most(50)})
    assert run.main(["--check", "--json"]) == 0
    assert "every target met" in capsys.readouterr().err


def test_without_check_a_missed_target_does_not_fail(monkeypatch):
    _fake_area(monkeypatch, {"slow_ms": 80}, {"slow_ms": at_most(50)})
    assert run.main([]) == 0


@pytest.mark.parametrize("argv", [["--chek"], ["no_such_area"]])
def test_an_unknown_area_or_option_is_bad_input(argv, capsys):
    assert run.main(argv) == 2
    assert "unknown" in capsys.readouterr().err
