#!/usr/bin/env python3
"""Check every roll in an SRS table session log (the JSON export) against its commitment.

Usage: python3 verify_dice.py session-log.json      (Python 3.8+, nothing to install)
Prints one line per roll and exits 1 if any roll does not verify. The procedure
("srs-dice/v1") is written out in the app's README; this file is all of it.
"""

import hashlib
import hmac
import json
import sys
from datetime import datetime

P = "srs-dice/v1"
MAX_DICE, MAX_DIE, SEED = 10000, 10000, [[1, 2**62]]  # what one roll can draw
GRACE = 60  # seconds after a reservation expires by which its skip must be published


def sha(data):
    return hashlib.sha256(data).digest()


def words(key, value):
    block = 0
    while True:
        digest = hmac.new(key, f"{P}/faces|{value}|{block}".encode(), hashlib.sha256).digest()
        yield from (int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8))
        block += 1


def faces(key, value, draws):
    stream, out = words(key, value), []
    for count, sides in draws:
        limit = 2**64 - 2**64 % sides  # higher words are skipped: every face equally likely
        for _ in range(count):
            out.append(1 + next(x for x in stream if x < limit) % sides)
    return out


def draws_ok(draws, listed):
    # Checked before any face is derived: a roll draws what the app can draw, no more.
    if draws == SEED:
        return len(listed) == 1
    ok = all(len(d) == 2 and all(type(n) is int for n in d) for d in draws[: MAX_DICE + 1])
    ok = ok and len(draws) <= MAX_DICE and all(c >= 1 and 1 <= s <= MAX_DIE for c, s in draws)
    return ok and sum(c for c, _ in draws) == len(listed) <= MAX_DICE


def check(dice, commit, shown):
    session, epoch, index = commit["session"], dice["epoch"], dice["index"]
    if not draws_ok(dice["draws"], dice["faces"]):
        return "the dice drawn are not what a roll can draw, or not the faces listed"
    key = bytes.fromhex(dice["key"])
    node = sha(b"\0" + f"{P}/leaf|{session}|{epoch}|{index}|".encode() + key)
    if len(dice["path"]) != commit["size"].bit_length() - 1 or not 0 <= index < commit["size"]:
        return "the proof does not fit the epoch"
    for step, sibling in enumerate(map(bytes.fromhex, dice["path"])):
        node = sha(b"\1" + sibling + node) if index >> step & 1 else sha(b"\1" + node + sibling)
    if node.hex() != commit["root"]:
        return "the key is not the one committed for this roll"
    values = dice.get("values", [])  # a match's seed: each seated player's browser's value
    if not isinstance(values, list) or (values and "".join(values) != dice["value"]):
        return "the value is not the players' values joined in order"
    got = faces(key, dice["value"], dice["draws"])
    if got != dice["faces"] or (shown is not None and shown != got):
        return f"the dice show {got}, not {shown if shown is not None else dice['faces']}"
    return None


def same_roll(e):
    # The events that show one roll again (a secret roll's reveal, a match's end) name it.
    p = e["payload"]
    if e["kind"] == "dice_reserved":  # set aside: the next event using the key is its roll
        return ("reserved", datetime.fromisoformat(p["expires_at"]))
    if "roll_id" in p:
        return ("roll", p["roll_id"])
    if e["kind"].startswith("match_") and "match_id" in p:
        return ("match", p["match_id"])
    if e["kind"] == "hidden_roll":  # which key a hidden value's roll used, shown elsewhere
        return ("event", p.get("shows_seq"))
    return ("event", e["seq"])


def account(e, dice, commits, used, owner):
    # Each batch's keys are used 0, 1, 2... in timeline order, once each, and a batch only
    # after the one before it is used up; skipped keys are published too.
    epoch, index = dice.get("epoch"), dice.get("index")
    commit = commits.get(epoch)
    if commit is None or commit["seq"] > e["seq"]:
        return f"key {index}: no commitment of batch {epoch} published before it"
    if type(index) is not int or not 0 <= index < commit["payload"]["size"]:
        return f"key {index} is outside batch {epoch}"
    if (epoch, index) in owner:
        if owner[(epoch, index)][0] == "reserved" and e["kind"] != "dice_reserved":
            owner[(epoch, index)] = same_roll(e)  # the reserved key's roll, or its skip
            return None
        same = owner[(epoch, index)] == same_roll(e)
        return None if same else f"key {index} of batch {epoch} is used by two rolls"
    if index != used.get(epoch, 0):
        return f"key {index} of batch {epoch} comes where key {used.get(epoch, 0)} is next"
    before = commits.get(epoch - 1) if type(epoch) is int else None
    if index == 0 and before is not None and used.get(epoch - 1) != before["payload"]["size"]:
        return f"batch {epoch} is used before batch {epoch - 1} is used up"
    owner[(epoch, index)] = same_roll(e)
    used[epoch] = index + 1
    return None


def overdue(e, owner):
    # A reserved key must be rolled with, or published as skipped, by the first roll made
    # after it expired (skips are published together just before that roll).
    if e["kind"] == "dice_skipped":
        return None
    try:
        now = datetime.fromisoformat(e["created_at"])
    except (KeyError, TypeError, ValueError):
        return f"event {e.get('seq')} carries no valid time (created_at)"
    for (epoch, index), (what, until) in owner.items():
        if what == "reserved" and (now - until).total_seconds() > GRACE:
            return (
                f"key {index} of batch {epoch} was reserved, "
                "and neither rolled with nor published as skipped"
            )
    return None


def main(path):
    with open(path, encoding="utf-8") as log:
        events = json.load(log)["events"]
    commits = {}
    for e in events:  # the first commitment of a batch counts; a later one cannot replace it
        if e["kind"] == "dice_committed":
            commits.setdefault(e["payload"]["epoch"], e)
    bad, used, owner = 0, {}, {}
    for e in events:
        dice = e["payload"].get("proof")
        if not isinstance(dice, dict) or "index" not in dice:
            continue
        error = account(e, dice, commits, used, owner) or overdue(e, owner)
        if "key" not in dice:  # a secret roll: only where its key sits
            if error:
                bad += 1
                print(f"#{e['seq']} {e['kind']} (secret): DOES NOT VERIFY: {error}")
            continue
        error = error or check(dice, commits[dice["epoch"]]["payload"], e["payload"].get("faces"))
        bad += error is not None
        verdict = f"DOES NOT VERIFY: {error}" if error else "verified"
        print(f"#{e['seq']} {e['kind']} {dice['faces']}: {verdict}")
    print("All rolls verify." if not bad else f"{bad} roll(s) do not verify.")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
