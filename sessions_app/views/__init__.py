"""Views parse input, call one service, and render (the full page, or the partial htmx asks for)."""
