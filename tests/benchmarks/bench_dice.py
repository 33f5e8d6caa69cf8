"""What verifiable dice add to a roll, side by side with the operating system's generator.

Prints, per roll of 2D6: the faces alone (the OS generator; the committed key and the
roller's value), the proof a visible roll publishes (its Merkle path), the commitment of a
batch (shared by its 1024 rolls), and a whole requested check through the service on SQLite
(faces typed in, as before; drawn from the committed dice, proof included).

Run it with `make bench` (or `.venv/bin/python tests/benchmarks/bench_dice.py`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_DIR))
from tests.benchmarks.environment import set_up_django  # noqa: E402

set_up_django()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from sessions_app.rules import dice_proof, srs_checks  # noqa: E402
from sessions_app.services.checks import check_request, check_roll  # noqa: E402
from sessions_app.services.dice import dice_commit_ahead  # noqa: E402
from tests.benchmarks.tables import bench_table, player_pc  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--rolls", type=int, default=20_000, help="per pure figure")
parser.add_argument("--checks", type=int, default=100, help="per service figure")
parser.add_argument("--repeats", type=int, default=7)
ARGS = parser.parse_args()

MASTER = bytes(range(32))
VALUE = "5a" * 16


def per_call_us(work, calls: int) -> float:
    """The median over repeats of the time per call, in microseconds."""
    timings = []
    for _ in range(ARGS.repeats):
        start = time.perf_counter()
        work(calls)
        timings.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(timings)


def os_generator(calls):
    for _ in range(calls):
        srs_checks.roll_2d6()


def committed_dice(calls):
    for index in range(calls):
        key = dice_proof.roll_key(MASTER, 1, 0, index % dice_proof.EPOCH_SIZE)
        srs_checks.roll_2d6(dice_proof.DiceSource(key=key, value=VALUE))


def published_proof(calls):
    for index in range(calls):
        path = dice_proof.proof_path(MASTER, 1, 0, index % dice_proof.EPOCH_SIZE)
        [step.hex() for step in path]


def batch_commitment(calls):
    for epoch in range(calls):
        dice_proof.commitment(dice_proof.new_master(), 1, epoch)


def service_checks(session, gm, player, pc, *, typed: bool):
    def work(calls):
        for _ in range(calls):
            request = check_request(session=session, by=gm, character=pc, label="Bench", value=4)
            check_roll(request_id=request.pk, by=player, dice=(3, 4) if typed else None)

    return work


def main() -> None:
    pure = per_call_us(os_generator, ARGS.rolls)
    committed = per_call_us(committed_dice, ARGS.rolls)
    dice_proof.commitment(MASTER, 1, 0)  # the tree, built once per process and batch
    proof = per_call_us(published_proof, ARGS.rolls)
    batch = per_call_us(batch_commitment, max(3, ARGS.rolls // 2000))
    print(f"{'per roll of 2D6':<52}{'µs':>10}")
    print(f"{'faces from the OS generator':<52}{pure:>10.1f}")
    print(f"{'faces from a committed key and the roller value':<52}{committed:>10.1f}")
    print(f"{'the published proof (Merkle path, tree cached)':<52}{proof:>10.1f}")
    print(
        f"{'a batch commitment, once per ' + str(dice_proof.EPOCH_SIZE) + ' rolls':<52}"
        f"{batch:>10.1f}  ({batch / dice_proof.EPOCH_SIZE:.1f} per roll)"
    )

    call_command("migrate", verbosity=0)
    gm, player, session = bench_table(
        table_fields={"name": "Bench table"}, session_fields={"title": "Bench session"}
    )
    pc = player_pc(session, player)
    dice_commit_ahead(session=session)
    typed_work = service_checks(session, gm, player, pc, typed=True)
    drawn_work = service_checks(session, gm, player, pc, typed=False)
    queries = []
    for work in (typed_work, drawn_work):
        with CaptureQueriesContext(connection) as captured:
            work(1)
        queries.append(len(captured))
    # Alternating rounds: the machine is shared, and its drift should meet both sides alike.
    typed_rounds, drawn_rounds = [], []
    for _ in range(ARGS.repeats):
        for work, rounds in ((typed_work, typed_rounds), (drawn_work, drawn_rounds)):
            start = time.perf_counter()
            work(ARGS.checks)
            rounds.append((time.perf_counter() - start) / ARGS.checks * 1e6)
    typed, drawn = statistics.median(typed_rounds), statistics.median(drawn_rounds)
    added = statistics.median(d - t for d, t in zip(drawn_rounds, typed_rounds, strict=True))
    print(f"{'a requested check through the service (SQLite)':<52}{'µs':>10}{'queries':>9}")
    print(f"{'faces typed in (no dice drawn, no proof)':<52}{typed:>10.0f}{queries[0]:>9}")
    print(f"{'drawn from the committed dice, proof published':<52}{drawn:>10.0f}{queries[1]:>9}")
    print(f"{'added by verifiable dice (median of paired rounds)':<52}{added:>10.0f}")


if __name__ == "__main__":
    main()
