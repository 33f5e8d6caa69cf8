"""Check an event's published dice proof as a viewer would, from the timeline alone."""

from sessions_app.rules import dice_proof


def verified(session, event) -> list[int]:
    """Return the faces the event's proof gives; raise ProofError if it does not verify."""
    proof = event.payload["proof"]
    commit = session.events.get(kind="dice_committed", payload__epoch=proof["epoch"])
    assert commit.seq < event.seq, "the commitment must come before the roll"
    return dice_proof.verify(
        dice_proof.RollProof(
            session=commit.payload["session"],
            epoch=proof["epoch"],
            index=proof["index"],
            size=commit.payload["size"],
            key=bytes.fromhex(proof["key"]),
            path=tuple(bytes.fromhex(step) for step in proof["path"]),
            value=proof["value"],
            draws=tuple(tuple(draw) for draw in proof["draws"]),
            faces=tuple(proof["faces"]),
        ),
        bytes.fromhex(commit.payload["root"]),
    )
