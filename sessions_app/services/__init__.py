"""Services: every change goes through one of these functions (HackSoft style).

Each runs in one transaction, validates, and appends timeline events whose broadcast waits
for the commit. Import each from its module: ``from sessions_app.services.checks import
check_roll``.
"""
