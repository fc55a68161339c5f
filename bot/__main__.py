"""Allow ``python -m bot``: the same entry point as the ``tablekeeper`` script."""

from bot.cli import run

run()
