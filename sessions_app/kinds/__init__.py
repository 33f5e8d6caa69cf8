"""The event-kind registry (`registry`) and sessions_app's own kinds, one module per topic.

Importing the package registers sessions_app's kinds; other apps register theirs when
they are ready.
"""

from . import afterplay, audio, characters, chat, checks, dice, preplay, scenes  # noqa: F401 - each registers its kinds
