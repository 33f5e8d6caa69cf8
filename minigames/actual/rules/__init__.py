"""Actual's rules, in pure Python: nothing here imports Django or the rest of the project
beyond ``minigames.game``, the interface every game's engine implements.

- engine: the rules engine, the interface of ``minigames.game``;
- bot: the computer players.

The Django side of the game (its options form, its presenter) lives one level up, in
``minigames.actual``. The import-linter contract "The rules and the game engines are pure
Python" (pyproject.toml) checks every ``minigames.*.rules`` package.
"""
