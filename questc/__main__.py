"""`python -m questc` runs the command line."""
from questc.cli import main

if __name__ == "__main__":
    main()
