"""People around the table (issue 53): follows, friends, blocks (the one check point every meeting
path asks), privacy and challenges, kept as events. Flask-free."""
