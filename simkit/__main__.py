from simkit.cli import run

run()
