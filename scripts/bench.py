"""Throughput benchmark (same as ``simkit bench``): python scripts/bench.py [games|sweep|all] [options]."""

import sys

from simkit.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
