"""Actics X's rules, in pure Python: nothing here imports Django or the rest of the project
beyond ``minigames.game``, the interface every game's engine implements.

- engine: the interface of ``minigames.game`` and the names callers use;
- state: the board, card facts, options and the stored form;
- planning: what a plan may hold;
- table: the working copy the action phase changes;
- action_phase, movement, battles: the action phase's steps;
- cards, effects: the card set (``cards.json``, kept here as package data) and what its texts do;
- bot: the computer player.

The Django side of the game (its options form, its decks as models, its presenter) lives one
level up, in ``minigames.acticsx``. The import-linter contract "The rules and the game engines
are pure Python" (pyproject.toml) checks every ``minigames.*.rules`` package.
"""
