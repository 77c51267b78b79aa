"""Hypothesis profiles for rule-invariant suites: ``ci`` (fast), ``dev`` and ``thorough`` (for ``simkit check``).

The test suite's ``tests/conftest.py`` registers the same names; registration here is guarded so
a profile registered first (by a conftest or the designer) wins and importing both is harmless.
Hypothesis ships a built-in ``ci`` profile (100 examples); simkit's replaces that one. Nothing is
*loaded* here: a designer's pytest run keeps its own choice (``settings.load_profile("ci")`` or
``HYPOTHESIS_PROFILE``).
"""

from __future__ import annotations

import hypothesis._settings as _hypothesis_settings
from hypothesis import HealthCheck, settings
from hypothesis.errors import InvalidArgument

#: max_examples of each profile.
PROFILES: dict[str, int] = {"ci": 30, "dev": 60, "thorough": 500}


def _registered_by_user(name: str) -> bool:
    """True when a profile ``name`` exists and is not hypothesis' own built-in one (it ships a ``ci``)."""
    try:
        existing = settings.get_profile(name)
    except InvalidArgument:
        return False
    return existing is not getattr(_hypothesis_settings, name.upper(), None)


def register_profiles() -> None:
    """Register the ``ci``, ``dev`` and ``thorough`` profiles, leaving alone any a user registered first."""
    for name, examples in PROFILES.items():
        if not _registered_by_user(name):
            settings.register_profile(
                name, max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
            )


def profile(name: str) -> settings:
    """The registered settings profile ``name`` (registering the simkit profiles first).

    Raises:
        ValueError: no profile of that name.
    """
    register_profiles()
    try:
        return settings.get_profile(name)
    except InvalidArgument:
        raise ValueError(f"unknown hypothesis profile {name!r} (simkit registers: {', '.join(PROFILES)})") from None
