"""bench/build_phases.py marks every phase of a real build, in order."""

from __future__ import annotations

import re


def test_build_phases_prints_each_phase_in_order(capsys):
    from bench import build_phases

    assert build_phases.main(["--papers", "12", "--workers", "1"]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith("workers 1: ")
    found = re.findall(r"(\w+) +([\d.]+) s \(([\d.]+) \+ ([\d.]+)\)", line)
    assert [name for name, *_ in found] == list(build_phases.PHASES)
    times = [float(wall) for _, wall, _, _ in found]
    assert times == sorted(times) and times[0] > 0
    tail = float(re.search(r"tail ([\d.]+) s$", line).group(1))
    assert abs(tail - (times[-1] - times[0])) < 0.011
