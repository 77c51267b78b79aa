"""Shared fixtures and the hypothesis profiles (HYPOTHESIS_PROFILE=ci fast, thorough long)."""

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import simkit

ROOT = Path(__file__).resolve().parents[1]
# tests/ mirrors simkit/ (tests/<stage>/, tests/games/<game>/); the shared helpers (positions, results folders)
# sit in tests/ and a test module may reuse another's pieces by name: every folder of tests/ is importable
sys.path[:0] = [str(p) for p in sorted({Path(__file__).parent, *Path(__file__).parent.glob("*/**/")})
                if p.name != "__pycache__"]
BASE = ROOT / "scenarios" / "miracle" / "base.toml"

settings.register_profile("ci", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def base():
    """The base Battle of Miracles scenario."""
    return simkit.load_scenario(BASE)


@pytest.fixture(scope="session")
def short_scenario(tmp_path_factory):
    """The quick scenario with games cut to 12 turns, so sweep machinery is tested fast."""
    path = tmp_path_factory.mktemp("scenario") / "short.toml"
    quick = ROOT / "scenarios" / "miracle" / "quick.toml"
    path.write_text(f'extends = "{quick}"\nname = "quick, 12 turns"\n[rules]\nturn_limit = 12\n')
    return path


@pytest.fixture(scope="session")
def quick(short_scenario):
    """The short quick-sweep scenario (loaded)."""
    return simkit.load_scenario(short_scenario)
