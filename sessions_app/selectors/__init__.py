"""Selectors: every read of tables, sessions and what a user may see of them, one module per
topic. Import each from its module: ``from sessions_app.selectors.scenes import running_scene``.
"""
