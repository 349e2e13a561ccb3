"""A game: create it, decide and append a move, rebuild it, show it to a viewer."""
