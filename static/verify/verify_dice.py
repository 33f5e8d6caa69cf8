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

P = "srs-dice/v1"


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


def check(dice, commit, shown):
    session, epoch, index = commit["session"], dice["epoch"], dice["index"]
    key = bytes.fromhex(dice["key"])
    node = sha(b"\0" + f"{P}/leaf|{session}|{epoch}|{index}|".encode() + key)
    if len(dice["path"]) != commit["size"].bit_length() - 1 or not 0 <= index < commit["size"]:
        return "the proof does not fit the epoch"
    for step, sibling in enumerate(map(bytes.fromhex, dice["path"])):
        node = sha(b"\1" + sibling + node) if index >> step & 1 else sha(b"\1" + node + sibling)
    if node.hex() != commit["root"]:
        return "the key is not the one committed for this roll"
    got = faces(key, dice["value"], dice["draws"])
    if got != dice["faces"] or (shown is not None and shown != got):
        return f"the dice show {got}, not {shown if shown is not None else dice['faces']}"
    return None


def main(path):
    with open(path, encoding="utf-8") as log:
        events = json.load(log)["events"]
    commits = {}
    for e in events:  # the first commitment of a batch counts; a later one cannot replace it
        if e["kind"] == "dice_committed":
            commits.setdefault(e["payload"]["epoch"], e)
    bad = 0
    for e in events:
        dice = e["payload"].get("proof")
        if not isinstance(dice, dict) or "key" not in dice:
            continue
        commit = commits.get(dice["epoch"])
        if commit is None or commit["seq"] > e["seq"]:
            error = "no commitment published before it"
        else:
            error = check(dice, commit["payload"], e["payload"].get("faces"))
        bad += error is not None
        verdict = f"DOES NOT VERIFY: {error}" if error else "verified"
        print(f"#{e['seq']} {e['kind']} {dice['faces']}: {verdict}")
    print("All rolls verify." if not bad else f"{bad} roll(s) do not verify.")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
