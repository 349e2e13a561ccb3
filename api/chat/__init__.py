"""Chat (issue 53): streams of their own, never a game's history; the word filter, mutes,
reports and moderators' actions as a decider's events."""
