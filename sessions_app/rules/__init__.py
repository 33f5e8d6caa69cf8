"""The rules, in pure Python: nothing here imports Django or the rest of the project.

- srs_checks: SRS checks and contests, and the dice they are rolled with;
- srs_odds: their exact odds;
- srs_commands: the roll box's commands, SRS's own on BCDice's common ones;
- dice_grammar, dice_commands: BCDice's common command grammar and its rolls;
- dice_proof: verifiable dice (committed keys, faces derived by HMAC);
- dice_stats: what was rolled against what fair dice give;
- palette_text: the chat palette's text and the resource commands players type.

Their refusals are English templates; sessions_app.srs_messages translates them.
"""
