"""Exceptions shared by every part of simkit."""


class ScenarioError(ValueError):
    """A scenario file is unreadable or invalid; the message names the file, key and problem."""


class IllegalAction(ValueError):
    """An action is not legal in the current state; the message names the reason.

    The state is left unchanged when this is raised.
    """


class ScenarioWarning(UserWarning):
    """A scenario loads but holds something almost surely unintended (a cost no player can ever pay); the
    message names the file, key and problem, like :class:`ScenarioError`."""
