"""Validate a value against a schema in an OpenAPI document (or fragment) by name.

    from tests.schema_check import validator_for
    check = validator_for("api/openapi/witches.yaml")
    check("WitchesView", view)      # raises jsonschema.ValidationError when it does not match
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parent.parent


@cache
def _document(path: str) -> dict:
    return yaml.safe_load((ROOT / path).read_text())


def validator_for(path: str):
    document = _document(path)

    def check(schema_name: str, value) -> None:
        schema = {"$ref": f"#/components/schemas/{schema_name}", **document}
        jsonschema.Draft202012Validator(schema).validate(value)

    return check
