"""Time the SRS odds and the roll-box parser.

Run from the project root: .venv/bin/python tests/benchmarks/bench_srs.py
Not a test module (no test_ prefix), so pytest never collects it.
"""

import statistics
import sys
import time
from pathlib import Path

# Run as a script, Python puts this folder on sys.path, not the project root.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sessions_app.rules import srs_checks, srs_commands, srs_odds  # noqa: E402

REPEATS = 7
VALUE_PAIRS = [(0, 0), (3, 3), (5, 2), (2, 8), (10, 4)]
COMMANDS = ["2D6+2>=10", "S2D6+1-2+3@11#3>=9 climb", "2D6>=10[11,3]", "2D6[]", "3D6+4"]
COMMANDS_WITH_FACES = [
    (command, (3, 4, 5) if command.startswith("3D6") else (3, 4)) for command in COMMANDS
]
PARSE_ROUNDS = 4000
# What players coming from BCDice type, one of each kind, with faces for every die drawn.
MIXED_COMMANDS_WITH_FACES = [
    ("2D6+1*2>=8 climb", (3, 4)),
    ("3D6/2U", (1, 2, 4)),
    ("(2D6+1D4)*2", (5, 3, 4)),
    ("2D6+1D6<=9", (1, 2, 6)),
    ("S5B6>=4", (1, 4, 6, 2, 5)),
    ("2B6+3B8", (1, 2, 3, 4, 8)),
    ("3U6[6]+1>=7", (6, 5, 2, 1)),
    ("D66", (5, 2)),
    ("C(10*3+2)", ()),
    ("choice[north,south,east]", (2,)),
    ("x3 2D6+1>=8 attack", (6, 6, 3, 4, 1, 1)),
]
MIXED_ROUNDS = 1000


def median_seconds(work, repeats=REPEATS):
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def contest_chances_for_all_pairs():
    for action_value, reaction_value in VALUE_PAIRS:
        srs_odds.contest_chance(action_value, reaction_value)
        srs_odds.contest_chance(action_value, reaction_value, reaction_can_roll=False)


def brute_force_contest_for_one_pair():
    dice = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    actions = [srs_checks.check(3, pair) for pair in dice]
    reactions = [srs_checks.check(3, pair) for pair in dice]
    for action in actions:
        for reaction in reactions:
            srs_checks.contest(action, reaction)


def check_chances_for_all_difficulties():
    for difficulty in range(2, 20):
        srs_odds.check_chances(3, modifier=1, difficulty=difficulty)


def parse_all_commands():
    for _ in range(PARSE_ROUNDS):
        for command in COMMANDS:
            srs_commands.parse_command(command)


def roll_all_commands():
    for _ in range(PARSE_ROUNDS):
        for command, faces in COMMANDS_WITH_FACES:
            srs_commands.roll_command(command, faces)


def parse_mixed_commands():
    for _ in range(MIXED_ROUNDS):
        for command, _faces in MIXED_COMMANDS_WITH_FACES:
            srs_commands.parse_command(command)


def roll_mixed_commands():
    for _ in range(MIXED_ROUNDS):
        for command, faces in MIXED_COMMANDS_WITH_FACES:
            srs_commands.roll_command(command, faces)


def roll_mixed_commands_at_random():
    for _ in range(MIXED_ROUNDS):
        for command, _faces in MIXED_COMMANDS_WITH_FACES:
            srs_commands.roll_command_random(command)


def main():
    calls = 2 * len(VALUE_PAIRS)
    per_call = median_seconds(contest_chances_for_all_pairs) / calls
    print(f"contest_chance (1,296 outcomes): {per_call * 1e6:.1f} µs per call")
    brute = median_seconds(brute_force_contest_for_one_pair, repeats=3)
    print(f"brute-force contest() over 1,296 outcomes: {brute * 1e6:.1f} µs per pair")
    per_check = median_seconds(check_chances_for_all_difficulties) / 18
    print(f"check_chances: {per_check * 1e6:.1f} µs per call")
    parses = PARSE_ROUNDS * len(COMMANDS)
    rate = parses / median_seconds(parse_all_commands, repeats=3)
    print(f"parse_command: {rate:,.0f} parses per second")
    rate = parses / median_seconds(roll_all_commands, repeats=3)
    print(f"roll_command: {rate:,.0f} parses per second")
    mixed = MIXED_ROUNDS * len(MIXED_COMMANDS_WITH_FACES)
    kinds = len(MIXED_COMMANDS_WITH_FACES)
    rate = mixed / median_seconds(parse_mixed_commands, repeats=3)
    print(f"parse_command, {kinds} BCDice command kinds mixed: {rate:,.0f} parses per second")
    rate = mixed / median_seconds(roll_mixed_commands, repeats=3)
    print(f"roll_command, same mix with given faces: {rate:,.0f} rolls per second")
    rate = mixed / median_seconds(roll_mixed_commands_at_random, repeats=3)
    print(f"roll_command_random, same mix (system generator): {rate:,.0f} rolls per second")


if __name__ == "__main__":
    main()
