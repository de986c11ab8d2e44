"""``python -m pipeline.cli``: the ``bocage`` command, for a process with no script on PATH."""

from pipeline.cli import main

__all__: list[str] = []

if __name__ == "__main__":
    main()
