"""`python -m questc` runs the command line."""

from questc.cli import run

if __name__ == "__main__":
    run()
