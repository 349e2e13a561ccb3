

import os as _os

from domain import search as _search

# BOT_ITERATIONS scales the search bots' budgets here as in the server (app.py, workers/).
_search.set_iterations_scale(float(_os.environ.get("BOT_ITERATIONS", "1")))
