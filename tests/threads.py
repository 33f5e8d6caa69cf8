"""Races between threads, for the tests of what two requests at the same moment do."""

import threading

from django.db import connection


def race(actions: dict) -> dict:
    """Run each action of `actions` in its own thread, all released at once; return each
    one's result or error under its key."""
    barrier = threading.Barrier(len(actions))
    outcomes = {}

    def run(key, action):
        try:
            barrier.wait(timeout=10)
            outcomes[key] = action()
        except Exception as error:  # noqa: BLE001 - the test inspects whatever happened
            outcomes[key] = error
        finally:
            # The thread's own connection would otherwise stay open and block the
            # flush of the test database at teardown.
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in actions.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"
    return outcomes
