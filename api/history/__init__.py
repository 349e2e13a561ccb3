"""Histories read whole: the NDJSON export and the caches of finished games' exports."""
