import sys

from simkit.cli import main

sys.exit(main())
