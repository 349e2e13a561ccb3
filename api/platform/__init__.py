"""The platform's pure rules below every game: seats, clocks and endings folded from events."""
