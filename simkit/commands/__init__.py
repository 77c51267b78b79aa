"""Sub-commands of the ``simkit`` CLI, one module each (see ``simkit.cli``)."""
