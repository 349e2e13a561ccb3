"""Players: their keys and names, their games and the notifications they are sent."""
