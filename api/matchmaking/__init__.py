"""Quick matchmaking: a player's seek waits in a pool of the same wishes until the pool holds
enough seekers of close ratings, and the game is made (seeks.py: the pools in Redis, paired by
one script; pairing.py: seeking, leaving, and making the games). Flask-free.
"""
