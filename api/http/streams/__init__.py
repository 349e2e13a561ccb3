"""The Server-Sent Events endpoints: a game's stream and a player's stream."""
