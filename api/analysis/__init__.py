"""Game analysis (issue 34): asked for by a player of a finished game, computed once by the
analysis workers (jobs.analyse, a queue of their own), kept beside the game."""
