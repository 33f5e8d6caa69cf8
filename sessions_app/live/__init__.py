"""The live wing: how a committed change reaches every open page of a room.

    service ─ commit ─▶ signals (services/signals.py)
                            │
                 hooks ─────┘  render once per audience and variant (render.py, from the
                   │           process's roster of who is present: roster.py)
                   ▼
               transport ──▶ channel layer groups ──▶ consumers (one sequenced base for
                                                       members and spectators) ──▶ browser

`transport` is the one module that touches the channel layer. A socket forwards what its
groups bring, in sequence order; it reads the database only after a real loss or a
reconnect, through `pipe`, which shares one read among the sockets of the process that need
the same one, and checks a quiet room once per process.
"""
