"""The supervisor's own counts (WEB_WORKERS, TURN_WORKERS, WEBHOOK_WORKERS, ANALYSIS_WORKERS,
GRACEFUL_TIMEOUT_S): `python app.py` refuses one that is not a whole number in range before any
child starts, naming it (before: a traceback from int(), or a gunicorn usage error after Redis
had started)."""
from __future__ import annotations

import pytest

from app import check_counts
from workers.supervisor import Refused


@pytest.mark.parametrize("name,value", [("WEB_WORKERS", "0"), ("WEB_WORKERS", "two"), ("TURN_WORKERS", "-1"),
                                        ("WEBHOOK_WORKERS", "1.5"), ("ANALYSIS_WORKERS", ""),
                                        ("GRACEFUL_TIMEOUT_S", "5s"), ("GRACEFUL_TIMEOUT_S", "-2")])
def test_a_count_out_of_range_is_refused_by_name(name, value):
    with pytest.raises(Refused, match=f"{name}="):
        check_counts({name: value})


def test_the_counts_given_or_defaulted_pass():
    check_counts({})
    check_counts({"WEB_WORKERS": "1", "TURN_WORKERS": "0", "WEBHOOK_WORKERS": " 3 ", "GRACEFUL_TIMEOUT_S": "0"})
