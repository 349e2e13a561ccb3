"""Command-line tools for the server's users (`python -m tools.<name>`)."""
