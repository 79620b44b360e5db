"""``python -m fichaflow``: the same command as the installed ``fichaflow`` script."""

from fichaflow.cli import main

if __name__ == "__main__":
    main()
