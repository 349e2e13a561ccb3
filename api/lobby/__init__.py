"""The lobby's listings of games by status."""
