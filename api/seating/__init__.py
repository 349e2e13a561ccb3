"""Commands on seats: claims, leaves, rematches, resignations, aborts, returns, timeouts."""
